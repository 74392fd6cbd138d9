/**
 * Where a long answer's finished chunks are boxed into closed groups (Markdown.tsx). A closed group is laid out
 * on its own (`.md-group`, contain: layout, turns.css), so a frame of a streaming answer lays out and walks for
 * paint a few groups, not every chunk before the tail. A box keeps its children's margins inside it: the last
 * block's bottom margin counts in full below it, where without the box it would collapse with the next block's top
 * margin. The two are the same when that top margin is 0, so a group is closed only before a chunk that starts with
 * a block with none (a paragraph, a list, a quote, a code block), whatever ends the chunk before. Pure.
 */

/**
 * HTML that starts with a block with no top margin (turns.css: p, ul, ol, blockquote, .code-block); a block of
 * prose carries its direction (to-html.ts).
 */
const PLAIN_START = /^<(?:(?:p|ul|ol|blockquote) dir="auto"|pre class="code-block")>/;

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
      if (!PLAIN_START.test(html(chunks[k]!))) continue;
      closed.push(chunks.slice(start, k));
      start = k;
      k = start + size - 1;
    }
  }
  return { closed, open: chunks.slice(start, finished) };
}
