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
  '===',
  '| a | b |',
  'a | b',
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
/** And with none now and then: a lazy line, which CommonMark reads in the quote (a paragraph's) or after it. */
const LAZY_MARKERS = [...MARKERS, '> ', '> ', '', '', ' '];
/**
 * The HTML without white space alone between tags, nor before an end tag. markdown-it drops a text's last line when
 * it is white space alone ("```py\n " is an empty block, "$$\nx\n " a formula "x") but keeps it behind a quote's
 * marker ("> ```py\n>  " holds a space): in parts, a block still open ends in a space less for a token, which
 * nothing shows. The breaks between blocks differ the same way (none in an empty quote).
 */
const blank = (html: string) => html.replace(/>\s+</g, '><').replace(/\s+<\//g, '</');
const REFS: LinkReferences = { '1': { href: 'https://example.com/docs', title: '' } };

/**
 * Streams quotes of `LINES` written with `markers`, cut anywhere, and checks each frame drawn in parts against the
 * same text rendered whole. How many frames were drawn in parts, of those that could be (`lazy`: of those whose
 * tail holds a lazy line), and how many there were.
 */
function streamQuotes(markers: string[], numRuns: number): { drawn: number; frames: number; lazyDrawn: number; lazyFrames: number } {
  enableMath(mathPlugin);
  let drawn = 0;
  let frames = 0;
  let lazyDrawn = 0;
  let lazyFrames = 0;
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.constantFrom(...LINES), fc.constantFrom(...markers)), { minLength: 1, maxLength: 30 }),
      fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 12 }),
      fc.constantFrom('\n', '\n', '\n', '\r\n'),
      fc.constantFrom(undefined, undefined, undefined, 'lazy text', '\tx', '[2]: https://example.com/2'),
      (lines, cuts, eol, odd) => {
        const quoted = lines.map(([line, marker]) => `${marker}${line}`);
        // Now and then a lazy line (in parts after a paragraph), or a line the quote is not drawn in parts with: a tab, a definition.
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
          // A lazy line in a quote that starts as one (one that does not is no quote: not the module's to draw).
          const lazy = tail.startsWith('>') && tail.split(/\r?\n/).some((l) => !/^ {0,3}>/.test(l));
          if (lazy) lazyFrames++;
          draft = growQuote(draft, tail);
          if (!draft) continue;
          drawn++;
          if (lazy) lazyDrawn++;
          expect(blank(drawnQuote(draft, REFS)), JSON.stringify(tail)).toBe(blank(rendered(draft.tail, false, REFS)));
        }
      },
    ),
    { numRuns },
  );
  return { drawn, frames, lazyDrawn, lazyFrames };
}

describe('a quote while it streams', () => {
  it('is drawn exactly as the same text rendered whole, at every cut, however the answer is cut', () => {
    const { drawn, frames } = streamQuotes(MARKERS, 400);
    // Most frames are drawn in parts: not a module that gives up.
    expect(drawn / frames).toBeGreaterThan(0.6);
  });

  it('is drawn exactly as the same text rendered whole with lazy lines in it (lines without a marker)', () => {
    const { lazyDrawn, lazyFrames } = streamQuotes(LAZY_MARKERS, 400);
    // Lazy lines that continue a paragraph are drawn in parts too (none were): about 1 frame in 7 here, where most
    // lazy lines end the quote or follow no paragraph.
    expect(lazyDrawn / lazyFrames).toBeGreaterThan(0.05);
  });

  it('reads each line once, and draws whole what it cannot draw in parts', () => {
    const first = growQuote(null, '> one\n>\n> - two\n> thr')!;
    expect(first).toMatchObject({ read: 'one\n\n- two\n', content: 'one\n\n- two\nthr' });
    const next = growQuote(first, '> one\n>\n> - two\n> three\n  ')!;
    expect(next).toMatchObject({ scanned: next.tail.length - 2, read: 'one\n\n- two\nthree\n', content: 'one\n\n- two\nthree\n' });
    expect(growQuote(next, '> one\n>\n> - two\n> three\n  > four')!.content).toBe('one\n\n- two\nthree\nfour');
    // A tab, a definition, text before the quote.
    expect(growQuote(null, '> a\n>\tb')).toBeNull();
    expect(growQuote(null, '> a\n> [1]: https://example.com')).toBeNull();
    expect(growQuote(null, 'Intro\n> a')).toBeNull();
    expect(growQuote(null, '> a\r\n> b')).toMatchObject({ tail: '> a\n> b', content: 'a\nb' });
  });

  it('draws in parts a lazy line that continues a paragraph, and whole one it would read otherwise than with a marker', () => {
    // The model wrote the marker on the first line only: the quote's lines come in as content, the last one growing.
    let draft: QuoteDraft | null = null;
    const text = '> A long quoted paragraph\nwrapped over lines\nwithout their markers\n> and one with\nagain';
    for (let at = 1; at <= text.length; at++) {
      draft = growQuote(draft, text.slice(0, at));
      expect(draft, JSON.stringify(text.slice(0, at))).not.toBeNull();
    }
    expect(draft?.content).toBe('A long quoted paragraph\nwrapped over lines\nwithout their markers\nand one with\nagain');
    // In a list item, or a quote in the quote: the innermost paragraph goes on.
    expect(growQuote(null, '> one\n>\n> - two\n> three\nlazy')?.content).toBe('one\n\n- two\nthree\nlazy');
    expect(growQuote(null, '> > deep\nlazy')?.content).toBe('> deep\nlazy');
    // No paragraph open: after a blank line, a heading, a code block, a table; these end the quote.
    for (const before of ['> a\n>', '> # Head', '> ```\n> code', '>     code', '> | a | b |\n> |---|---|']) {
      expect(growQuote(null, `${before}\nlazy`), before).toBeNull();
    }
    // Lines a quote reads otherwise with a marker than without: a list, a heading's underline, a table, a heading.
    for (const line of ['- item', '===', '---', '1. first', 'a | b', '# Head', '```', '<b>x</b>', '    indented']) {
      expect(growQuote(null, `> a paragraph\n${line}`), line).toBeNull();
    }
  });

  it("shows a quoted table's header as the table it is becoming, as at the top level", () => {
    const draft = growQuote(null, '> Compare:\n>\n> | Tool | Use |\n> |--')!;
    const last = splitMarkdownBlocks(draft.content).at(-1)!;
    expect(markdownToHtml(withPendingTable(last), undefined, { nested: true })).toContain('<th>Tool</th>');
  });
});
