import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import type { StreamPart } from '../../src/shared/parts';
import { ContentRuns } from '../../src/shared/reasoning/content-runs';
import { turnOutput, type TurnOutput } from '../../src/shared/reasoning/drain';
import { splitInlineReasoning } from '../../src/shared/reasoning/think-tag-splitter';
import { edgeLengths } from '../../src/shared/reasoning/trim';
import { applyParts } from '../../src/shared/reducer';
import { isBlank } from '../../src/shared/turn';
import { chunk, cuts, idCounter, makeTurn, tagText } from './helpers';

describe('ContentRuns', () => {
  it('emits text and inline reasoning runs in stream order, across split tags', () => {
    const runs = new ContentRuns({ nextId: idCounter() });
    const parts = [...runs.push('<thi'), ...runs.push('nk>plan</think'), ...runs.push('>answer'), ...runs.closeRun()];
    expect(parts).toEqual([
      { type: 'reasoning-start', id: 'r0', origin: 'inline' },
      { type: 'reasoning-delta', id: 'r0', delta: 'plan' },
      { type: 'reasoning-end', id: 'r0' },
      { type: 'text-start', id: 'r1' },
      { type: 'text-delta', id: 'r1', delta: 'answer' },
      { type: 'text-end', id: 'r1' },
    ]);
    expect(runs.consumedTag).toBe(true);
  });

  it('think-open applies only to text the server did not already separate (issue 16)', () => {
    // The server moved the reasoning into its own field before any content: the content is the answer.
    const separated = new ContentRuns({ nextId: idCounter(), startInside: true });
    separated.serverSeparatedReasoning();
    expect(out([...separated.push('It is sunny.'), ...separated.closeRun()])).toMatchObject({ reasoning: '', content: 'It is sunny.' });
    // No server-parsed reasoning came first: the content starts inside the block the template opened.
    const passthrough = new ContentRuns({ nextId: idCounter(), startInside: true });
    expect(out([...passthrough.push('plan</think>answer'), ...passthrough.closeRun()])).toMatchObject({ reasoning: 'plan', content: 'answer' });
    // Content already started inside the block: a later native delta does not rewrite what was split.
    const late = new ContentRuns({ nextId: idCounter(), startInside: true });
    const first = late.push('plan');
    late.serverSeparatedReasoning();
    expect(out([...first, ...late.push('</think>answer'), ...late.closeRun()])).toMatchObject({ reasoning: 'plan', content: 'answer' });
  });

  it('an empty think block still yields a reasoning-start/-end pair', () => {
    const runs = new ContentRuns({ nextId: idCounter() });
    expect([...runs.push('<think></think>'), ...runs.closeRun()]).toEqual([
      { type: 'reasoning-start', id: 'r0', origin: 'inline' },
      { type: 'reasoning-end', id: 'r0' },
    ]);
  });

  it('closeRun flushes held bytes and ends the run; state does not carry into the next run', () => {
    const runs = new ContentRuns({ nextId: idCounter() });
    const first = [...runs.push('x<thi'), ...runs.closeRun()];
    expect(first.filter((p) => p.type === 'text-delta').map((p) => (p.type === 'text-delta' ? p.delta : ''))).toEqual(['x', '<thi']);
    const parts = [...first, ...runs.push('<think>a'), ...runs.closeRun(), ...runs.push('b</think>c'), ...runs.closeRun()];
    expect(out(parts)).toEqual({ reasoning: 'a', content: 'x<thib</think>c', runs: [{ kind: 'text', text: 'x<thi' }, { kind: 'reasoning', text: 'a' }, { kind: 'text', text: 'b</think>c' }] });
  });

  it('startInside applies to the first run with content only', () => {
    const runs = new ContentRuns({ nextId: idCounter(), startInside: true });
    expect(runs.closeRun()).toEqual([]); // no content yet: no run, startInside not used up
    expect(runs.push('')).toEqual([]);
    const parts = [...runs.push('plan'), ...runs.closeRun(), ...runs.push('more</think>'), ...runs.closeRun()];
    expect(out(parts)).toEqual({ reasoning: 'plan', content: 'more</think>', runs: [{ kind: 'reasoning', text: 'plan' }, { kind: 'text', text: 'more</think>' }] });
  });

  it('property: through the reducer, any chunking of the content gives the same output as the one-shot drain', () => {
    fc.assert(
      fc.property(fc.array(segmentArb, { maxLength: 5 }), fc.boolean(), (segments, startInside) => {
        const chunked = feed(segments, startInside, true);
        const whole = feed(segments, startInside, false);
        expect(chunked).toEqual(whole);
        expect({ reasoning: chunked.reasoning, content: chunked.content }).toEqual(drainReference(segments, startInside));
      }),
      { numRuns: 1000 },
    );
  });
});

/** One run of content, chunked at `at`, then the interleaving signal that ends it. */
type Segment = { content: string; at: number[]; signal: { kind: 'native'; text: string } | { kind: 'tool' } };
const segmentArb: fc.Arbitrary<Segment> = fc.record({
  content: tagText,
  at: cuts,
  signal: fc.oneof(fc.record({ kind: fc.constant('native' as const), text: fc.constantFrom('', 'why', '\n\nwhy\n') }), fc.constant({ kind: 'tool' as const })),
});

function out(parts: StreamPart[]): TurnOutput {
  return turnOutput(applyParts(makeTurn(), [...parts, { type: 'finish', wireReason: 'stop', stop: 'end_turn' }]));
}

/** Drives ContentRuns the way a dialect parser does: content deltas, and closeRun before every signal. */
function feed(segments: readonly Segment[], startInside: boolean, chunked: boolean): TurnOutput {
  const nextId = idCounter();
  const runs = new ContentRuns({ nextId, startInside });
  const parts: StreamPart[] = [];
  for (const seg of segments) {
    for (const piece of chunked ? chunk(seg.content, seg.at) : [seg.content]) parts.push(...runs.push(piece));
    parts.push(...runs.closeRun());
    const id = nextId();
    if (seg.signal.kind === 'native') {
      // What the dialect parsers do on server-parsed reasoning: think-open no longer applies to later content.
      if (seg.signal.text !== '') runs.serverSeparatedReasoning();
      parts.push({ type: 'reasoning-start', id, origin: 'native' }, { type: 'reasoning-delta', id, delta: seg.signal.text }, { type: 'reasoning-end', id });
    } else {
      parts.push({ type: 'tool-call-start', id, toolCallId: id, name: 'f' }, { type: 'tool-call-delta', id, delta: '{}' });
      parts.push({ type: 'tool-call-end', id, state: 'complete', arguments: {} });
    }
  }
  parts.push(...runs.closeRun());
  return out(parts);
}

/** The drain as seed 002 states it: split each run one-shot, join, trim the edges once if a tag was consumed. */
function drainReference(segments: readonly Segment[], startInside: boolean): Omit<TurnOutput, 'runs'> {
  let text = '';
  let inline = '';
  let native = '';
  let consumed = false;
  let first = true;
  // Think-open applies only to text the server did not already separate (issue 16).
  let separated = false;
  for (const seg of segments) {
    if (seg.content !== '') {
      const split = splitInlineReasoning(seg.content, { startInside: first && startInside && !separated });
      first = false;
      consumed ||= split.consumedTag;
      for (const piece of split.pieces) {
        if (piece.kind === 'text') text += piece.text;
        else inline += piece.text;
      }
    }
    if (seg.signal.kind === 'native') {
      native += seg.signal.text;
      if (seg.signal.text !== '') separated = true;
    }
  }
  if (consumed) {
    text = trimEdges(text);
    inline = trimEdges(inline);
  }
  const reasoning = isBlank(native) ? (isBlank(inline) ? '' : inline) : isBlank(inline) ? native : `${native}\n\n${inline}`;
  return { reasoning, content: isBlank(text) ? '' : text };
}

function trimEdges(s: string): string {
  const [lead, trail] = edgeLengths(s);
  return s.slice(lead, s.length - trail);
}
