/**
 * Where a long answer's finished chunks are boxed into closed groups (Markdown.tsx). A closed group is laid out
 * on its own (`.md-group`, contain: layout, turns.css), so a frame of a streaming answer lays out and walks for
 * paint a few groups, not every chunk before the tail. A box keeps its children's margins inside it, so a group is
 * closed only where that changes nothing: between a chunk that ends with a paragraph-like block (a paragraph, a
 * list or a quote: 0.75em below, none above) and one that starts with one. Pure.
 */

/** HTML that starts with a block with no top margin (turns.css: p, ul, ol, blockquote). */
const PLAIN_START = /^<(?:p|ul|ol|blockquote)>/;
/** HTML that ends with a block whose bottom margin is a paragraph's. */
const PLAIN_END = /<\/(?:p|ul|ol|blockquote)>\s*$/;

export interface ChunkGroups {
  /** Runs of at least `size` finished chunks, each to be boxed. */
  closed: string[][];
  /** The finished chunks after them, not boxed (fewer than `size`, or no place to close yet). */
  open: string[];
}

/**
 * `chunks[0..finished)` cut into closed groups and an open run. `html`: a chunk's rendered HTML, or null while the
 * markdown code is not loaded (then nothing is closed). A group closes at the first place at or after `size`
 * chunks where the chunks on both sides meet with plain margins; the result depends only on finished chunks, so
 * a closed group stays the same while the answer grows. `prev`: the last result for the same `html`; its closed
 * groups are kept (the same arrays) when the text only grew, so a frame checks only the chunks after them.
 */
export function groupChunks(chunks: readonly string[], finished: number, html: ((text: string) => string) | null, size: number, prev?: ChunkGroups): ChunkGroups {
  const closed: string[][] = [];
  let start = 0;
  for (const group of prev?.closed ?? []) {
    // A group closes before a finished chunk (k < finished below).
    if (start + group.length >= finished || !group.every((c, i) => c === chunks[start + i])) break;
    closed.push(group);
    start += group.length;
  }
  // The chunk after the last kept group may be another one (a text that did not only grow).
  const last = closed.at(-1);
  if (last && html && !PLAIN_START.test(html(chunks[start]!))) {
    closed.pop();
    start -= last.length;
  }
  if (html) {
    for (let k = start + size; k < finished; k++) {
      // The ends of the HTML only: a regex anchored at the end still scans the whole string.
      if (!PLAIN_END.test(html(chunks[k - 1]!).slice(-24)) || !PLAIN_START.test(html(chunks[k]!))) continue;
      closed.push(chunks.slice(start, k));
      start = k;
      k = start + size - 1;
    }
  }
  return { closed, open: chunks.slice(start, finished) };
}
