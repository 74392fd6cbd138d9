import { describe, expect, it } from 'vitest';
import { applyParts } from '../../src/shared/reducer';
import type { Turn } from '../../src/shared/turn';
import { StreamClock, timingJson, turnTimingMeta } from '../../src/shared/turn-timing';

describe('the stream clock kept in a turn', () => {
  it('measures time to first token and each non-empty reasoning run', () => {
    const clock = new StreamClock(1000);
    clock.observe([{ type: 'reasoning-start', id: 'r0', origin: 'native' }], 1200);
    clock.observe([{ type: 'reasoning-delta', id: 'r0', delta: 'plan' }], 1250);
    clock.observe([{ type: 'reasoning-end', id: 'r0' }, { type: 'text-start', id: 't1' }, { type: 'text-delta', id: 't1', delta: 'Hi' }], 4200);
    // An empty think block is dropped from the turn at the drain, so it takes no entry.
    clock.observe([{ type: 'reasoning-start', id: 'r2', origin: 'inline' }, { type: 'reasoning-end', id: 'r2' }], 4300);
    clock.observe([{ type: 'finish', wireReason: 'stop', stop: 'end_turn' }], 4400);
    const meta = clock.toMeta();
    expect(meta).toEqual({ ttftMs: 250, reasoningMs: [3000] });
    expect(turnTimingMeta({ meta: { timing: meta } })).toEqual({ ttftMs: 250, reasoningMs: [3000] });
  });

  it('says when a figure became known, once each, so main sends them a few times an answer and not per token', () => {
    const clock = new StreamClock(1000);
    expect(clock.observe([{ type: 'reasoning-start', id: 'r0', origin: 'native' }], 1200)).toBe(false);
    expect(clock.observe([{ type: 'reasoning-delta', id: 'r0', delta: 'plan' }], 1250)).toBe(true);
    expect(clock.figures()).toEqual({ ttftMs: 250, reasoningMs: [] });
    expect(clock.observe([{ type: 'reasoning-delta', id: 'r0', delta: ' more' }], 1300)).toBe(false);
    expect(clock.observe([{ type: 'reasoning-end', id: 'r0' }, { type: 'text-start', id: 't1' }], 4200)).toBe(true);
    expect(clock.figures()).toEqual({ ttftMs: 250, reasoningMs: [3000] });
    expect(clock.observe([{ type: 'text-delta', id: 't1', delta: 'Hi' }], 4250)).toBe(false);
    // A run with no text gets no figure, so its end tells nothing new.
    expect(clock.observe([{ type: 'reasoning-start', id: 'r2', origin: 'inline' }, { type: 'reasoning-end', id: 'r2' }], 4300)).toBe(false);
    // A run the answer's end closes is known then.
    clock.observe([{ type: 'reasoning-start', id: 'r3', origin: 'native' }, { type: 'reasoning-delta', id: 'r3', delta: 'x' }], 4400);
    expect(clock.observe([{ type: 'finish', wireReason: 'stop', stop: 'end_turn' }], 4900)).toBe(true);
    expect(clock.toMeta()).toEqual(timingJson(clock.figures()));
    expect(clock.toMeta()).toEqual({ ttftMs: 250, reasoningMs: [3000, 500] });
  });

  it('is kept in the turn by the reducer as it streams, as main saves it', () => {
    const turn: Turn = { id: 't', conversationId: 'c', parentId: null, role: 'assistant', blocks: [], meta: { other: 1 }, status: 'streaming', createdAt: 0 };
    const timed = applyParts(turn, [{ type: 'timing', timing: { ttftMs: 40, reasoningMs: [1200] } }]);
    expect(timed.meta).toEqual({ other: 1, timing: { ttftMs: 40, reasoningMs: [1200] } });
    expect(turnTimingMeta(timed)).toEqual({ ttftMs: 40, reasoningMs: [1200] });
    expect(turnTimingMeta(applyParts(turn, [{ type: 'timing', timing: { reasoningMs: [] } }]))).toEqual({ reasoningMs: [] });
  });

  it('reads rows written before timing was kept, or with odd values, as no timing', () => {
    expect(turnTimingMeta({ meta: {} })).toEqual({ reasoningMs: [] });
    expect(turnTimingMeta({ meta: { timing: 'x' } })).toEqual({ reasoningMs: [] });
    expect(turnTimingMeta({ meta: { timing: { ttftMs: '5', reasoningMs: [1, 'a', 2] } } })).toEqual({ reasoningMs: [1, 2] });
  });
});
