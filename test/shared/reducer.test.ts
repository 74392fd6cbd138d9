import { describe, it, expect } from 'vitest';
import type { StreamPart } from '../../src/shared/parts';
import { ContentRuns } from '../../src/shared/reasoning/content-runs';
import { turnOutput } from '../../src/shared/reasoning/drain';
import { applyPart, applyParts, createTurnReducer, type RunIndex } from '../../src/shared/reducer';
import { idCounter, makeTurn } from './helpers';

const finish: StreamPart = { type: 'finish', wireReason: 'stop', stop: 'end_turn' };
const tool = (id: string): StreamPart[] => [
  { type: 'tool-call-start', id, toolCallId: `call_${id}`, name: 'search' },
  { type: 'tool-call-delta', id, delta: '{"q":' },
  { type: 'tool-call-delta', id, delta: '"x"}' },
  { type: 'tool-call-end', id, state: 'complete', arguments: { q: 'x' } },
];

/** Content runs separated by tool calls, through ContentRuns as a dialect would drive it. */
function contentTurn(runs: string[], startInside = false): StreamPart[] {
  const cr = new ContentRuns({ nextId: idCounter('c'), startInside });
  const parts: StreamPart[] = [];
  runs.forEach((run, i) => {
    parts.push(...cr.push(run), ...cr.closeRun());
    if (i < runs.length - 1) parts.push(...tool(`t${i}`));
  });
  return [...parts, finish];
}

describe('applyPart', () => {
  it('returns a new turn and blocks array, replacing only the changed block', () => {
    const a = applyParts(makeTurn(), [
      { type: 'reasoning-start', id: 'r', origin: 'native' },
      { type: 'reasoning-delta', id: 'r', delta: 'hm' },
      { type: 'text-start', id: 'x' },
    ]);
    const b = applyPart(a, { type: 'text-delta', id: 'x', delta: 'Hi' });
    expect(b).not.toBe(a);
    expect(b.blocks).not.toBe(a.blocks);
    expect(b.blocks[0]).toBe(a.blocks[0]);
    expect(b.blocks[1]).toEqual({ type: 'text', text: 'Hi' });
    expect(a.blocks[1]).toEqual({ type: 'text', text: '' });
  });

  it('builds tool calls: streaming, then complete with arguments or invalid/truncated with an error', () => {
    let turn = applyParts(makeTurn(), tool('a').slice(0, 3));
    expect(turn.blocks[0]).toEqual({ type: 'tool_call', id: 'call_a', name: 'search', state: 'streaming', argumentsRaw: '{"q":"x"}' });
    turn = applyPart(turn, { type: 'tool-call-end', id: 'a', state: 'complete', arguments: { q: 'x' } });
    expect(turn.blocks[0]).toMatchObject({ state: 'complete', arguments: { q: 'x' } });
    const bad = applyParts(makeTurn(), [
      { type: 'tool-call-start', id: 'b', toolCallId: 'call_b', name: 'f' },
      { type: 'tool-call-delta', id: 'b', delta: '{"q' },
      { type: 'tool-call-end', id: 'b', state: 'truncated', error: 'The arguments were cut off.' },
    ]);
    expect(bad.blocks[0]).toEqual({ type: 'tool_call', id: 'call_b', name: 'f', state: 'truncated', argumentsRaw: '{"q', error: 'The arguments were cut off.' });
  });

  it('routes interleaved runs by id with a run index, and to the last block of the kind without one', () => {
    const parts: StreamPart[] = [
      { type: 'text-start', id: 'a' },
      { type: 'text-start', id: 'b' },
      { type: 'text-delta', id: 'a', delta: 'A' },
      { type: 'text-delta', id: 'b', delta: 'B' },
    ];
    expect(applyParts(makeTurn(), parts).blocks).toEqual([{ type: 'text', text: 'A' }, { type: 'text', text: 'B' }]);
    const runs: RunIndex = new Map();
    const split = applyParts(applyParts(makeTurn(), parts.slice(0, 2), runs), parts.slice(2), runs);
    expect(split.blocks).toEqual([{ type: 'text', text: 'A' }, { type: 'text', text: 'B' }]);
    // A later batch without the index: the delta goes to the last text block.
    const fresh = applyPart(split, { type: 'text-delta', id: 'b', delta: '!' });
    expect(fresh.blocks[1]).toEqual({ type: 'text', text: 'B!' });
  });

  it('merges usage field by field, sets the error message, and finishes with stop, wire reason and usage', () => {
    const turn = applyParts(makeTurn(), [
      { type: 'usage', usage: { inputTokens: 10 } },
      { type: 'error', message: 'The server closed the connection.' },
      { type: 'finish', wireReason: null, stop: 'error', usage: { outputTokens: 3 } },
    ]);
    expect(turn).toMatchObject({ usage: { inputTokens: 10, outputTokens: 3 }, error: 'The server closed the connection.', stop: 'error', wireReason: null, status: 'error' });
  });

  it.each([
    ['error', 'error'],
    ['cut', 'cut'],
    ['aborted', 'aborted'],
    ['end_turn', 'done'],
    ['tool_use', 'done'],
    ['max_tokens', 'done'],
    ['truncated', 'done'],
    ['refusal', 'done'],
  ])('finish with stop %s sets status %s', (stop, status) => {
    expect(applyPart(makeTurn(), { type: 'finish', wireReason: 'x', stop }).status).toBe(status);
  });

  it('a finish settles a call still being written: no tool call outlives its turn as streaming (issue 16)', () => {
    const stopped = applyParts(makeTurn(), [
      { type: 'tool-call-start', id: 't', toolCallId: 'call_t', name: 'search' },
      { type: 'tool-call-delta', id: 't', delta: '{"q":' },
      { type: 'finish', wireReason: null, stop: 'aborted' },
    ]);
    expect(stopped.blocks).toEqual([
      { type: 'tool_call', id: 'call_t', name: 'search', state: 'truncated', argumentsRaw: '{"q":', error: 'Stopped before this call was complete; it was not run.' },
    ]);
    expect(stopped.status).toBe('aborted');
  });

  it('createTurnReducer keeps the run index across calls', () => {
    const reducer = createTurnReducer(makeTurn());
    reducer.apply({ type: 'text-start', id: 'a' });
    reducer.applyAll([{ type: 'text-start', id: 'b' }, { type: 'text-delta', id: 'a', delta: 'A' }]);
    expect(reducer.turn.blocks).toEqual([{ type: 'text', text: 'A' }, { type: 'text', text: '' }]);
  });
});

describe('the drain trim at finish', () => {
  it('trims tag residue at the edges when a tag was consumed', () => {
    const turn = applyParts(makeTurn(), contentTurn(['<think>\nplan\n</think>\n\nThe answer.\n\n']));
    expect(turn.blocks).toEqual([
      { type: 'reasoning', text: 'plan', origin: 'inline' },
      { type: 'text', text: 'The answer.' },
    ]);
  });

  it('keeps a paragraph break between runs, trimming only the joined edges', () => {
    const turn = applyParts(makeTurn(), contentTurn(['<think>p</think>\n\nFirst paragraph.\n\n', 'Second one.\n']));
    expect(turnOutput(turn).content).toBe('First paragraph.\n\nSecond one.');
    expect(turn.blocks.map((b) => b.type)).toEqual(['reasoning', 'text', 'tool_call', 'text']);
  });

  it('drops text blocks that become empty, across block borders', () => {
    const turn = applyParts(makeTurn(), contentTurn(['<think>p</think>\n', '\n  Indented answer']));
    expect(turn.blocks.map((b) => b.type)).toEqual(['reasoning', 'tool_call', 'text']);
    expect(turnOutput(turn).content).toBe('  Indented answer'); // whole blank lines only at the start
  });

  it('does not trim when no tag was consumed', () => {
    const turn = applyParts(makeTurn(), contentTurn(['\n\nHello </think>\n\n']));
    expect(turnOutput(turn).content).toBe('\n\nHello </think>\n\n');
  });

  it('think-only and whitespace-only output drains to blank content', () => {
    expect(turnOutput(applyParts(makeTurn(), contentTurn(['<think>only thoughts</think>\n\n  \n']))).content).toBe('');
    expect(turnOutput(applyParts(makeTurn(), contentTurn(['  \n\n']))).content).toBe('');
    const turn = applyParts(makeTurn(), contentTurn(['still planning'], true));
    expect(turnOutput(turn)).toEqual({ reasoning: 'still planning', content: '', runs: [{ kind: 'reasoning', text: 'still planning' }] });
    expect(turn.status).toBe('done');
  });
});

describe('applyParts folding consecutive deltas', () => {
  it('property: folding a batch gives exactly the Turn that applying each part in turn gives', async () => {
    const fc = (await import('fast-check')).default;
    const { ContentRuns } = await import('../../src/shared/reasoning/content-runs');
    const { applyPart, applyParts } = await import('../../src/shared/reducer');
    const { idCounter, makeTurn, tagText } = await import('./helpers');
    fc.assert(
      fc.property(fc.array(fc.oneof(tagText, fc.constant('|tool|'), fc.constant('|native|')), { maxLength: 12 }), (chunks) => {
        const runs = new ContentRuns({ nextId: idCounter() });
        const parts: import('../../src/shared/parts').StreamPart[] = [];
        let n = 0;
        for (const c of chunks) {
          if (c === '|tool|' || c === '|native|') {
            parts.push(...runs.closeRun());
            const id = `x${n++}`;
            if (c === '|tool|') parts.push({ type: 'tool-call-start', id, toolCallId: id, name: 'f' }, { type: 'tool-call-delta', id, delta: '{' }, { type: 'tool-call-delta', id, delta: '}' }, { type: 'tool-call-end', id, state: 'complete', arguments: {} });
            else parts.push({ type: 'reasoning-start', id, origin: 'native' }, { type: 'reasoning-delta', id, delta: 'a' }, { type: 'reasoning-delta', id, delta: 'b' }, { type: 'reasoning-end', id });
          } else parts.push(...runs.push(c));
        }
        parts.push(...runs.closeRun(), { type: 'finish', wireReason: 'stop', stop: 'end_turn' });
        const stepRuns = new Map<string, number>();
        const stepwise = parts.reduce((turn, part) => applyPart(turn, part, stepRuns), makeTurn());
        expect(applyParts(makeTurn(), parts)).toEqual(stepwise);
      }),
      { numRuns: 1000 },
    );
  });
});
