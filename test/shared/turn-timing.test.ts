import { describe, expect, it } from 'vitest';
import type { StreamPart } from '../../src/shared/parts';
import { applyParts, createTurnReducer } from '../../src/shared/reducer';
import type { Turn } from '../../src/shared/turn';
import { reasoningPanelMs, StreamClock, timingJson, turnTimingMeta } from '../../src/shared/turn-timing';

const empty = (): Turn => ({ id: 't', conversationId: 'c', parentId: null, role: 'assistant', blocks: [], meta: {}, status: 'streaming', createdAt: 0 });

/**
 * Main's path for a stream (run-step.ts): each network read observed by the clock, its figures stamped into the parts,
 * folded by the reducer, which the page folds too. Returns the turn after each read.
 */
function stream(reads: [at: number, parts: StreamPart[]][]): Turn[] {
  const clock = new StreamClock(1000);
  const main = createTurnReducer(empty());
  let page = empty();
  return reads.map(([at, parts]) => {
    const stamped = clock.stamp(parts, at);
    main.applyAll(stamped);
    page = applyParts(page, stamped);
    // The page folds the same parts to the same turn: what it shows live is what main saves.
    expect(page).toEqual(main.turn);
    return main.turn;
  });
}

const finish: StreamPart = { type: 'finish', wireReason: 'stop', stop: 'end_turn' };

describe('the stream clock kept in a turn', () => {
  it('measures time to first token and each reasoning run, one entry per reasoning block', () => {
    const clock = new StreamClock(1000);
    clock.observe([{ type: 'reasoning-start', id: 'r0', origin: 'native' }], 1200);
    clock.observe([{ type: 'reasoning-delta', id: 'r0', delta: 'plan' }], 1250);
    clock.observe([{ type: 'reasoning-end', id: 'r0' }, { type: 'text-start', id: 't1' }, { type: 'text-delta', id: 't1', delta: 'Hi' }], 4200);
    // A run with no text has no figure, but keeps its place: its block is there (until the drain drops it).
    clock.observe([{ type: 'reasoning-start', id: 'r2', origin: 'inline' }, { type: 'reasoning-end', id: 'r2' }], 4300);
    clock.observe([finish], 4400);
    const meta = clock.toMeta();
    expect(meta).toEqual({ ttftMs: 250, reasoningBlockMs: [3000, null] });
    expect(turnTimingMeta({ meta: { timing: meta }, blocks: [] })).toEqual({ ttftMs: 250, reasoningBlockMs: [3000, null] });
  });

  it('says when a figure became known, once each, so main sends them a few times an answer and not per token', () => {
    const clock = new StreamClock(1000);
    expect(clock.observe([{ type: 'reasoning-start', id: 'r0', origin: 'native' }], 1200)).toBe(false);
    expect(clock.observe([{ type: 'reasoning-delta', id: 'r0', delta: 'plan' }], 1250)).toBe(true);
    expect(clock.figures()).toEqual({ ttftMs: 250, reasoningBlockMs: [null] });
    expect(clock.observe([{ type: 'reasoning-delta', id: 'r0', delta: ' more' }], 1300)).toBe(false);
    expect(clock.observe([{ type: 'reasoning-end', id: 'r0' }, { type: 'text-start', id: 't1' }], 4200)).toBe(true);
    expect(clock.figures()).toEqual({ ttftMs: 250, reasoningBlockMs: [3000] });
    expect(clock.observe([{ type: 'text-delta', id: 't1', delta: 'Hi' }], 4250)).toBe(false);
    // A run with no text gets no figure, so its end tells nothing new.
    expect(clock.observe([{ type: 'reasoning-start', id: 'r2', origin: 'inline' }, { type: 'reasoning-end', id: 'r2' }], 4300)).toBe(false);
    // A run the answer's end closes is known then.
    clock.observe([{ type: 'reasoning-start', id: 'r3', origin: 'native' }, { type: 'reasoning-delta', id: 'r3', delta: 'x' }], 4400);
    expect(clock.observe([finish], 4900)).toBe(true);
    expect(clock.toMeta()).toEqual(timingJson(clock.figures()));
    expect(clock.toMeta()).toEqual({ ttftMs: 250, reasoningBlockMs: [3000, null, 500] });
  });

  it('stamps the figures it learned before the answer ends, where the reducer can still place them', () => {
    const clock = new StreamClock(1000);
    clock.observe([{ type: 'reasoning-start', id: 'r0', origin: 'native' }, { type: 'reasoning-delta', id: 'r0', delta: 'x' }], 1100);
    const stamped = clock.stamp([{ type: 'reasoning-end', id: 'r0' }, finish], 1600);
    expect(stamped.map((p) => p.type)).toEqual(['reasoning-end', 'timing', 'finish']);
    expect(clock.stamp([{ type: 'usage', usage: { outputTokens: 1 } }], 1700)).toEqual([{ type: 'usage', usage: { outputTokens: 1 } }]);
  });

  it('is kept in the turn by the reducer as it streams, as main saves it', () => {
    const turn: Turn = { ...empty(), meta: { other: 1 } };
    const timed = applyParts(turn, [{ type: 'timing', timing: { ttftMs: 40, reasoningBlockMs: [1200] } }]);
    expect(timed.meta).toEqual({ other: 1, timing: { ttftMs: 40, reasoningBlockMs: [1200] } });
    expect(turnTimingMeta(timed)).toEqual({ ttftMs: 40, reasoningBlockMs: [1200] });
    expect(turnTimingMeta(applyParts(turn, [{ type: 'timing', timing: { reasoningBlockMs: [] } }]))).toEqual({ reasoningBlockMs: [] });
  });

  it('reads rows written before timing was kept, or with odd values, as no timing', () => {
    expect(turnTimingMeta({ meta: {}, blocks: [] })).toEqual({ reasoningBlockMs: [] });
    expect(turnTimingMeta({ meta: { timing: 'x' }, blocks: [] })).toEqual({ reasoningBlockMs: [] });
    expect(turnTimingMeta({ meta: { timing: { ttftMs: '5', reasoningBlockMs: [1, 'a', 2] } }, blocks: [] })).toEqual({ reasoningBlockMs: [1, null, 2] });
  });
});

/**
 * Each "Thought for N s" is its own run's. Before, main kept the figures of the runs with text only, and the page
 * gave them to the reasoning panels by place: a run with no figure before another moved that one's figure onto it.
 */
describe("each reasoning panel's figure", () => {
  it('a redacted block first: it shows no figure, and the thinking after it shows its own', () => {
    const turns = stream([
      [1100, [{ type: 'reasoning-start', id: 'r0', origin: 'native' }, { type: 'reasoning-end', id: 'r0', redacted: 'EmwKAhgB' }]],
      [1200, [{ type: 'reasoning-start', id: 'r1', origin: 'native' }, { type: 'reasoning-delta', id: 'r1', delta: 'Let me see.' }]],
      [4200, [{ type: 'reasoning-end', id: 'r1', signature: 'sig' }, { type: 'text-start', id: 't2' }, { type: 'text-delta', id: 't2', delta: 'Done.' }]],
      [4300, [finish]],
    ]);
    // Live, as the answer streams (before: the redacted panel said "Thought for 3 s", the thinking "Thoughts").
    expect(reasoningPanelMs(turns[2]!)).toEqual([undefined, 3000]);
    expect(reasoningPanelMs(turns[3]!)).toEqual([undefined, 3000]);
  });

  it('a blank <think> block first, which the drain drops: the run after it keeps its own figure, live and saved', () => {
    const turns = stream([
      [1100, [{ type: 'reasoning-start', id: 'r0', origin: 'inline' }, { type: 'reasoning-delta', id: 'r0', delta: '\n\n' }]],
      [1900, [{ type: 'reasoning-end', id: 'r0' }, { type: 'reasoning-start', id: 'r1', origin: 'inline' }, { type: 'reasoning-delta', id: 'r1', delta: 'plan' }]],
      [4900, [{ type: 'reasoning-end', id: 'r1' }, { type: 'text-start', id: 't2' }, { type: 'text-delta', id: 't2', delta: 'Answer.' }]],
      [5000, [finish]],
    ]);
    expect(reasoningPanelMs(turns[2]!)).toEqual([undefined, 3000]);
    const saved = turns[3]!;
    expect(saved.blocks.map((b) => b.type)).toEqual(['reasoning', 'text']);
    // Before: the blank run's 800 ms, on the only panel left.
    expect(reasoningPanelMs(saved)).toEqual([3000]);
  });

  it('runs split by the answer, and a blank <think> block last that the drain drops: each keeps its own', () => {
    const turns = stream([
      [1100, [{ type: 'reasoning-start', id: 'r0', origin: 'inline' }, { type: 'reasoning-delta', id: 'r0', delta: 'first' }]],
      [2100, [{ type: 'reasoning-end', id: 'r0' }, { type: 'text-start', id: 't1' }, { type: 'text-delta', id: 't1', delta: 'So.' }]],
      [2300, [{ type: 'reasoning-start', id: 'r2', origin: 'inline' }, { type: 'reasoning-delta', id: 'r2', delta: 'then' }]],
      [2800, [{ type: 'reasoning-end', id: 'r2' }, { type: 'reasoning-start', id: 'r3', origin: 'inline' }, { type: 'reasoning-delta', id: 'r3', delta: '\n' }]],
      [3000, [finish]],
    ]);
    expect(reasoningPanelMs(turns[3]!)).toEqual([1000, 500, undefined]);
    const saved = turns.at(-1)!;
    expect(saved.blocks.map((b) => (b.type === 'reasoning' ? b.text : b.type))).toEqual(['first', 'text', 'then']);
    expect(reasoningPanelMs(saved)).toEqual([1000, 500]);
  });

  it('two runs around a tool call, with an empty one between: each shows its own', () => {
    const turns = stream([
      [1100, [{ type: 'reasoning-start', id: 'r0', origin: 'native' }, { type: 'reasoning-delta', id: 'r0', delta: 'I should look it up.' }]],
      [3100, [{ type: 'tool-call-start', id: 'c1', toolCallId: 'call_1', name: 'search' }, { type: 'tool-call-delta', id: 'c1', delta: '{}' }, { type: 'tool-call-end', id: 'c1', state: 'complete', arguments: {} }]],
      [3200, [{ type: 'reasoning-start', id: 'r2', origin: 'native' }, { type: 'reasoning-end', id: 'r2', signature: 'sig' }]],
      [3300, [{ type: 'reasoning-start', id: 'r3', origin: 'native' }, { type: 'reasoning-delta', id: 'r3', delta: 'And check it.' }]],
      [3800, [{ type: 'reasoning-end', id: 'r3' }, { type: 'text-start', id: 't4' }, { type: 'text-delta', id: 't4', delta: 'Found.' }]],
      [3900, [finish]],
    ]);
    expect(reasoningPanelMs(turns[3]!)).toEqual([2000, undefined, undefined]);
    expect(reasoningPanelMs(turns.at(-1)!)).toEqual([2000, undefined, 500]);
  });

  it('answers saved with the figures of the runs with text only still show theirs, on the runs with text', () => {
    const saved: Turn = {
      ...empty(),
      status: 'done',
      blocks: [
        { type: 'reasoning', text: '', origin: 'native', redacted: 'EmwKAhgB' },
        { type: 'reasoning', text: 'Let me see.', origin: 'native' },
        { type: 'text', text: 'Done.' },
      ],
      meta: { timing: { ttftMs: 100, reasoningMs: [3000] } },
    };
    expect(reasoningPanelMs(saved)).toEqual([undefined, 3000]);
    expect(turnTimingMeta(saved)).toEqual({ ttftMs: 100, reasoningBlockMs: [null, 3000] });
    expect(turnTimingMeta({ meta: { timing: { ttftMs: '5', reasoningMs: [1, 'a', 2] } }, blocks: [] })).toEqual({ reasoningBlockMs: [] });
  });
});
