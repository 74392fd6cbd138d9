import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  ThinkTagSplitter,
  normalizePieces,
  splitInlineReasoning,
  type SplitPiece,
} from '../../src/shared/reasoning/think-tag-splitter';
import { chunk, cuts, tagText } from './helpers';

const r = (text: string): SplitPiece => ({ kind: 'reasoning', text });
const t = (text: string): SplitPiece => ({ kind: 'text', text });

function stream(chunks: readonly string[], startInside = false): { pieces: SplitPiece[]; consumedTag: boolean } {
  const splitter = new ThinkTagSplitter({ startInside });
  const pieces = chunks.flatMap((c) => splitter.push(c));
  pieces.push(...splitter.flush());
  return { pieces: normalizePieces(pieces), consumedTag: splitter.consumedTag };
}

/** An independent, obviously-correct oracle: walk the string once, char by char. */
function reference(text: string, startInside: boolean): { pieces: SplitPiece[]; consumedTag: boolean } {
  const closes: Record<string, string> = { '<think>': '</think>', '<reasoning>': '</reasoning>' };
  let close: string | null = startInside ? '</think>' : null;
  let consumedTag = startInside;
  const pieces: SplitPiece[] = [];
  let i = 0;
  while (i < text.length) {
    const tag = close === null ? Object.keys(closes).find((open) => text.startsWith(open, i)) : text.startsWith(close, i) ? close : undefined;
    if (tag !== undefined) {
      close = close === null ? (closes[tag] ?? null) : null;
      consumedTag = true;
      i += tag.length;
      continue;
    }
    pieces.push({ kind: close === null ? 'text' : 'reasoning', text: text.charAt(i) });
    i++;
  }
  return { pieces: normalizePieces(pieces), consumedTag };
}

describe('splitInlineReasoning (examples)', () => {
  it.each([
    ['<think>plan</think>answer', [r('plan'), t('answer')]],
    ['<reasoning>plan</reasoning>answer', [r('plan'), t('answer')]],
    ['a<think>b</think>c<think>d</think>e', [t('a'), r('b'), t('c'), r('d'), t('e')]],
    // a block is closed by its own close tag only; nothing nests
    ['<reasoning>a</think>b</reasoning>c', [r('a</think>b'), t('c')]],
    ['<think>a<think>b</think>c', [r('a<think>b'), t('c')]],
    // unclosed at end stays reasoning
    ['<think>still thinking', [r('still thinking')]],
    // tags match exactly, lowercase
    ['<THINK>x</THINK>', [t('<THINK>x</THINK>')]],
    ['<think about="x">y', [t('<think about="x">y')]],
  ])('%j', (input, pieces) => {
    expect(splitInlineReasoning(input).pieces).toEqual(pieces);
  });

  it('passes an orphan close tag through byte-identical, consuming nothing', () => {
    const input = 'The answer.\n</think>\nMore </reasoning> text';
    expect(splitInlineReasoning(input)).toEqual({ pieces: [t(input)], consumedTag: false });
  });

  it('keeps a tag quoted in the prose after a real block', () => {
    const out = splitInlineReasoning('<think>x</think>Close it with `</think>` and go.');
    expect(out.pieces).toEqual([r('x'), t('Close it with `</think>` and go.')]);
  });

  it('an empty block yields no piece but counts as consumed', () => {
    expect(splitInlineReasoning('<think></think>hi')).toEqual({ pieces: [t('hi')], consumedTag: true });
  });

  it('startInside starts in a think block the prompt opened', () => {
    expect(splitInlineReasoning('plan</think>answer', { startInside: true })).toEqual({ pieces: [r('plan'), t('answer')], consumedTag: true });
    expect(splitInlineReasoning('plan</think>answer')).toEqual({ pieces: [t('plan</think>answer')], consumedTag: false });
    expect(splitInlineReasoning('', { startInside: true })).toEqual({ pieces: [], consumedTag: true });
  });
});

describe('ThinkTagSplitter (streaming)', () => {
  it('recognizes a tag split across chunks and holds back only the possible tag prefix', () => {
    const s = new ThinkTagSplitter();
    expect(s.push('Hi <thi')).toEqual([t('Hi ')]);
    expect(s.consumedTag).toBe(false);
    expect(s.push('nk>plan</th')).toEqual([r('plan')]);
    expect(s.consumedTag).toBe(true);
    expect(s.push('ink>done')).toEqual([t('done')]);
    expect(s.flush()).toEqual([]);
  });

  it('releases bytes that cannot start a tag at once', () => {
    const s = new ThinkTagSplitter();
    expect(s.push('a<b')).toEqual([t('a<b')]);
    expect(s.push('x </')).toEqual([t('x </')]); // outside, only opens matter: `</` cannot start one
    expect(s.push('<reas')).toEqual([]);
    expect(s.flush()).toEqual([t('<reas')]); // the held prefix was not a tag after all
  });

  it('flush releases a held partial close as reasoning when the block is open', () => {
    const s = new ThinkTagSplitter();
    expect(s.push('<think>x</thi')).toEqual([r('x')]);
    expect(s.flush()).toEqual([r('</thi')]);
  });

  it('property: streaming equals one-shot for every input and chunking', () => {
    fc.assert(
      fc.property(tagText, cuts, fc.boolean(), (text, at, startInside) => {
        expect(stream(chunk(text, at), startInside)).toEqual(splitInlineReasoning(text, { startInside }));
      }),
      { numRuns: 1000 },
    );
  });

  it('property: one-shot equals a char-by-char oracle', () => {
    fc.assert(
      fc.property(tagText, fc.boolean(), (text, startInside) => {
        expect(splitInlineReasoning(text, { startInside })).toEqual(reference(text, startInside));
      }),
      { numRuns: 1000 },
    );
  });

  it('property: with no tag consumed, the output is the input, byte-identical', () => {
    fc.assert(
      fc.property(tagText, cuts, (text, at) => {
        const out = stream(chunk(text, at));
        if (!out.consumedTag) expect(out.pieces.map((p) => p.text).join('')).toBe(text);
        if (!out.consumedTag) expect(out.pieces.every((p) => p.kind === 'text')).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
