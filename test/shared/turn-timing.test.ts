import { describe, expect, it } from 'vitest';
import { StreamClock, turnTimingMeta } from '../../src/shared/turn-timing';

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

  it('reads rows written before timing was kept, or with odd values, as no timing', () => {
    expect(turnTimingMeta({ meta: {} })).toEqual({ reasoningMs: [] });
    expect(turnTimingMeta({ meta: { timing: 'x' } })).toEqual({ reasoningMs: [] });
    expect(turnTimingMeta({ meta: { timing: { ttftMs: '5', reasoningMs: [1, 'a', 2] } } })).toEqual({ reasoningMs: [1, 2] });
  });
});
