import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupChunks, type ChunkGroups } from '../../src/renderer/markdown/chunk-groups';
import { markdownToHtml } from '../../src/renderer/markdown/to-html';

/** Chunks of each kind an answer is made of (split-blocks.ts cuts at blank lines). */
const KINDS = ['A paragraph of text.', '## A heading', '- one\n- two', '1. first\n2. second', '> a quote', '```ts\nconst x = 1;\n```', '| a | b |\n|---|---|\n| 1 | 2 |', 'Text\n\n    indented code'];
const html = (text: string) => markdownToHtml(text);

describe('groupChunks (a long answer boxed into groups the browser lays out apart)', () => {
  it('keeps every finished chunk in order, boxes runs of at least the group size, and a closed group never changes as the answer grows', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: KINDS.length - 1 }), { maxLength: 120 }), fc.integer({ min: 1, max: 8 }), (kinds, size) => {
        const chunks = kinds.map((k) => KINDS[k]!);
        let before: string[][] = [];
        let prev: ChunkGroups | undefined;
        for (let finished = 0; finished <= chunks.length; finished++) {
          const { closed, open } = groupChunks(chunks, finished, html, size);
          expect([...closed.flat(), ...open]).toEqual(chunks.slice(0, finished));
          for (const group of closed) expect(group.length).toBeGreaterThanOrEqual(size);
          // What was closed before is closed the same way now.
          expect(closed.slice(0, before.length)).toEqual(before);
          // Resuming from the last result gives the same, keeping its groups' arrays.
          const resumed = groupChunks(chunks, finished, html, size, prev);
          expect(resumed).toEqual({ closed, open });
          prev?.closed.forEach((g, i) => expect(resumed.closed[i]).toBe(g));
          prev = resumed;
          before = closed;
        }
      }),
      { numRuns: 200 },
    );
  });

  it('closes a group only before a block with no top margin, so no margin changes at its edge', () => {
    const chunks = ['Intro.', '## Setup', 'Some text.', '```sh\nnpm ci\n```', '| a |\n|---|\n| 1 |', '## Next', '- item', 'More text.', '> quoted', 'End.'];
    // Never before a heading (1em above) or a table (0.5em above); before a paragraph, a code block, a list or a
    // quote, whatever ends the chunk before (a heading's 0.5em, a table's 0.9em below).
    expect(groupChunks(chunks, chunks.length, html, 2)).toEqual({
      closed: [chunks.slice(0, 2), chunks.slice(2, 6), chunks.slice(6, 8)],
      open: chunks.slice(8),
    });
    // Before a code block: an answer of prose and code in turn has places to close.
    const code = ['Run this:', '```sh\nnpm ci\n```', 'Then this:', '```sh\nnpm test\n```', 'Done.'];
    expect(groupChunks(code, code.length, html, 1).closed).toEqual(code.slice(0, 4).map((c) => [c]));
  });

  it('works the groups out again for a text that did not only grow', () => {
    const a = Array.from({ length: 40 }, (_, i) => `Paragraph ${i}.`);
    const first = groupChunks(a, 39, html, 8);
    const b = ['## Another answer', ...a.slice(1)];
    expect(groupChunks(b, 39, html, 8, first)).toEqual(groupChunks(b, 39, html, 8));
    expect(groupChunks(b, 39, html, 8, first).closed[0]![0]).toBe('## Another answer');
    // The same first groups, then a heading where the next group began: the group before it is not kept.
    const c = [...a.slice(0, 8), '## Changed', ...a.slice(9)];
    expect(groupChunks(c, 39, html, 8, first)).toEqual(groupChunks(c, 39, html, 8));
  });

  it('closes nothing before the markdown code has loaded', () => {
    const chunks = Array.from({ length: 100 }, (_, i) => `Paragraph ${i}.`);
    expect(groupChunks(chunks, 99, null, 32)).toEqual({ closed: [], open: chunks.slice(0, 99) });
    expect(groupChunks(chunks, 99, html, 32).closed.map((g) => g.length)).toEqual([32, 32, 32]);
  });
});
