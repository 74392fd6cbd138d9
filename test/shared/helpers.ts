import fc from 'fast-check';
import type { Block, Turn } from '../../src/shared/turn';

export function makeTurn(blocks: Block[] = [], patch: Partial<Turn> = {}): Turn {
  return {
    id: 't1',
    conversationId: 'c1',
    parentId: null,
    role: 'assistant',
    blocks,
    meta: {},
    status: 'streaming',
    createdAt: 0,
    ...patch,
  };
}

/** A counter for part ids, as a dialect parser would hold. */
export function idCounter(prefix = 'r'): () => string {
  let n = 0;
  return () => `${prefix}${n++}`;
}

/** Strings biased toward tag fragments, so tags, partial tags and orphans are common. */
export const TOKENS = ['<think>', '</think>', '<reasoning>', '</reasoning>', '<', '</', 'thi', 'nk>', 'reason', 'ing>', '\n', ' ', 'a', 'é', '🙂'];
export const tagText = fc.array(fc.constantFrom(...TOKENS), { maxLength: 24 }).map((parts) => parts.join(''));

/** Cuts `text` at the given code-unit positions (may split surrogate pairs: a wire can do that too, in principle). */
export function chunk(text: string, cuts: readonly number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let prev = 0;
  for (const p of points) {
    out.push(text.slice(prev, p));
    prev = p;
  }
  out.push(text.slice(prev));
  return out;
}

export const cuts = fc.array(fc.nat({ max: 400 }), { maxLength: 12 });
