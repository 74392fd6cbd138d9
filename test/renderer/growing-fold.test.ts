import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { enableMath, markdownToHtml, summaryToHtml } from '../../src/renderer/markdown/to-html';
import { mathPlugin } from '../../src/renderer/markdown/math';
import { growFold, type FoldDraft } from '../../src/renderer/markdown/growing-fold';
import { splitMarkdownBlocks } from '../../src/renderer/markdown/split-blocks';

/** A fold's draft as GrowingTail.tsx draws it: the shell, then its content's chunks, the last one as a tail. */
function drawnFold(draft: FoldDraft): string {
  const content = draft.tail.slice(draft.innerStart);
  const chunks = splitMarkdownBlocks(content);
  // The last chunk runs to the end of the text, the blank lines the cut leaves off with it (an open fence's code).
  if (chunks.length > 0) chunks.push(content.slice(content.lastIndexOf(chunks.pop()!)));
  const inner = chunks.map((c, i) => markdownToHtml(c, undefined, { nested: true, streaming: i === chunks.length - 1 })).join('');
  return `<details${draft.open ? ' open=""' : ''} data-writing="" dir="auto">\n<summary>${summaryToHtml(draft.summary)}</summary>\n${inner}</details>\n`;
}

/** Lines of folds' content, list items among them (a loose list is one chunk, in a fold as at the top). */
const LINES = ['<details>', '<details open>', '<details><summary>S *x*</summary>', '<summary>T</summary>', '</details>', 'end</details>', '    </details>', '```', '```py', 'x = 1', '', 'text', '> quote', '# head', '| a | b |', '|---|---|', '$$', '$$x$$ y', '\\[', 'a \\]', '- item', '2. next', 'émoji 👨‍💻'];

describe('a fold while it streams', () => {
  it('is drawn exactly as the same text rendered whole, at every cut, however the answer is cut', () => {
    enableMath(mathPlugin);
    let drawn = 0;
    fc.assert(
      // Line breaks as models and servers send them: `\n`, and now and then `\r\n` (drawn whole before) or a lone `\r`.
      fc.property(fc.array(fc.constantFrom(...LINES), { maxLength: 40 }), fc.array(fc.integer({ min: 1, max: 25 }), { minLength: 1, maxLength: 20 }), fc.constantFrom('\n', '\n', '\r\n', '\r'), (lines, cuts, eol) => {
        const full = `<details>${eol}${lines.join(eol)}`;
        let draft: FoldDraft | null = null;
        let at = 0;
        for (let i = 0; at < full.length; i++) {
          at = Math.min(full.length, at + cuts[i % cuts.length]!);
          const tail = splitMarkdownBlocks(full.slice(0, at)).at(-1) ?? '';
          draft = growFold(draft, tail);
          if (!draft) continue;
          drawn++;
          expect(drawnFold(draft), JSON.stringify(tail)).toBe(markdownToHtml(tail, undefined, { streaming: true }));
        }
      }),
      { numRuns: 300 },
    );
    expect(drawn).toBeGreaterThan(300);
  });

  it('reads each line once: a draft goes on from the last one', () => {
    const first = growFold(null, '<details>\n<summary>Log</summary>\n\nline 1\nline')!;
    expect(first).toMatchObject({ summary: 'Log', open: false, depth: 1 });
    const next = growFold(first, '<details>\n<summary>Log</summary>\n\nline 1\nline 2\n')!;
    expect(next.scanned).toBe(next.tail.length);
    expect(growFold(next, `${next.tail}</details>`)).toBeNull();
    expect(growFold(null, '<details>\n<summ')).toBeNull();
    expect(growFold(null, 'Intro\n<details>\nx')).toBeNull();
    expect(growFold(null, '<details>\r\n<summary>Log</summary>\r\n\r\nline 1\r\n')).toMatchObject({ summary: 'Log', tail: '<details>\n<summary>Log</summary>\n\nline 1\n' });
  });
});
