import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { enableMath, markdownToHtml, type LinkReferences } from '../../src/renderer/markdown/to-html';
import { mathPlugin } from '../../src/renderer/markdown/math';
import { growQuote, type QuoteDraft } from '../../src/renderer/markdown/growing-quote';
import { growFence } from '../../src/renderer/markdown/growing-fence';
import { splitMarkdownBlocks } from '../../src/renderer/markdown/split-blocks';
import { withPendingTable } from '../../src/renderer/markdown/pending-table';

/**
 * A chunk as render.ts's renderMarkdown draws it: a fold in a streaming tail as still being written. Without the
 * table a streaming tail's header row is becoming (pending-table.ts), which is a guess about text not come yet: in
 * parts, the quote's last chunk gets it as an answer's tail does (the last test).
 */
function rendered(text: string, finished: boolean, refs: LinkReferences | undefined, nested = false): string {
  return markdownToHtml(text, refs, { streaming: !finished && text.includes('<details'), nested });
}

/** A quote's draft as GrowingTail.tsx draws it: the quote, then its content's chunks, the last one as a tail. */
function drawnQuote(draft: QuoteDraft, refs: LinkReferences | undefined): string {
  const { content } = draft;
  const chunks = splitMarkdownBlocks(content);
  // The last chunk runs to the end of the text, the blank lines the cut leaves off with it (an open fence's code).
  if (chunks.length > 0) chunks.push(content.slice(content.lastIndexOf(chunks.pop()!)));
  const inner = chunks.map((c, i) => rendered(c, i < chunks.length - 1, refs, true)).join('');
  return `<blockquote dir="auto">\n${inner}</blockquote>\n`;
}

/** Lines of quotes' content, as models quote: prose, lists, code, tables, headings, math, quotes in quotes. */
const LINES = [
  'text',
  'more *text* and `code`',
  '',
  '',
  '- item',
  '  - sub',
  '2. next',
  '```',
  '```py',
  'x = 1',
  '    indented',
  '# head',
  'under',
  '---',
  '| a | b |',
  '|---|---|',
  '| `a|b` | c |',
  '> deeper',
  '>',
  '$$',
  'x^2',
  '<details>',
  '</details>',
  'see [the docs][1]',
  'émoji 👨‍💻',
];
/** How a line's marker is written. */
const MARKERS = ['> ', '> ', '> ', '>', ' > ', '   > '];
/**
 * The HTML without white space alone between tags, nor before an end tag. markdown-it drops a text's last line when
 * it is white space alone ("```py\n " is an empty block, "$$\nx\n " a formula "x") but keeps it behind a quote's
 * marker ("> ```py\n>  " holds a space): in parts, a block still open ends in a space less for a token, which
 * nothing shows. The breaks between blocks differ the same way (none in an empty quote).
 */
const blank = (html: string) => html.replace(/>\s+</g, '><').replace(/\s+<\//g, '</');
const REFS: LinkReferences = { '1': { href: 'https://example.com/docs', title: '' } };

describe('a quote while it streams', () => {
  it('is drawn exactly as the same text rendered whole, at every cut, however the answer is cut', () => {
    enableMath(mathPlugin);
    let drawn = 0;
    let frames = 0;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...LINES), fc.constantFrom(...MARKERS)), { minLength: 1, maxLength: 30 }),
        fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 12 }),
        fc.constantFrom('\n', '\n', '\n', '\r\n'),
        fc.constantFrom(undefined, undefined, undefined, 'lazy text', '\tx', '[2]: https://example.com/2'),
        (lines, cuts, eol, odd) => {
          const quoted = lines.map(([line, marker]) => `${marker}${line}`);
          // Now and then a line the quote is not drawn in parts with: a lazy line, a tab, a definition.
          if (odd) quoted.splice(Math.floor(quoted.length / 2), 0, odd.startsWith('[') ? `> ${odd}` : odd);
          const full = quoted.join(eol);
          let draft: QuoteDraft | null = null;
          let at = 0;
          for (let i = 0; at < full.length; i++) {
            at = Math.min(full.length, at + cuts[i % cuts.length]!);
            const tail = splitMarkdownBlocks(full.slice(0, at)).at(-1) ?? '';
            // GrowingTail.tsx draws a tail that ends inside a code block as growing-fence.ts reads it, first.
            if (growFence(null, tail)) continue;
            frames++;
            draft = growQuote(draft, tail);
            if (!draft) continue;
            drawn++;
            expect(blank(drawnQuote(draft, REFS)), JSON.stringify(tail)).toBe(blank(rendered(draft.tail, false, REFS)));
          }
        },
      ),
      { numRuns: 400 },
    );
    // Most frames are drawn in parts: not a module that gives up.
    expect(drawn / frames).toBeGreaterThan(0.6);
  });

  it('reads each line once, and draws whole what it cannot draw in parts', () => {
    const first = growQuote(null, '> one\n>\n> - two\n> thr')!;
    expect(first).toMatchObject({ read: 'one\n\n- two\n', content: 'one\n\n- two\nthr' });
    const next = growQuote(first, '> one\n>\n> - two\n> three\n  ')!;
    expect(next).toMatchObject({ scanned: next.tail.length - 2, read: 'one\n\n- two\nthree\n', content: 'one\n\n- two\nthree\n' });
    expect(growQuote(next, '> one\n>\n> - two\n> three\n  > four')!.content).toBe('one\n\n- two\nthree\nfour');
    // A lazy line, a tab, a definition, text before the quote.
    expect(growQuote(next, '> one\n>\n> - two\n> three\nlazy')).toBeNull();
    expect(growQuote(null, '> a\n>\tb')).toBeNull();
    expect(growQuote(null, '> a\n> [1]: https://example.com')).toBeNull();
    expect(growQuote(null, 'Intro\n> a')).toBeNull();
    expect(growQuote(null, '> a\r\n> b')).toMatchObject({ tail: '> a\n> b', content: 'a\nb' });
  });

  it("shows a quoted table's header as the table it is becoming, as at the top level", () => {
    const draft = growQuote(null, '> Compare:\n>\n> | Tool | Use |\n> |--')!;
    const last = splitMarkdownBlocks(draft.content).at(-1)!;
    expect(markdownToHtml(withPendingTable(last), undefined, { nested: true })).toContain('<th>Tool</th>');
  });
});
