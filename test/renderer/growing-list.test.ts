import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { answerReferences, markdownToHtml } from '../../src/renderer/markdown/to-html';
import { drawList, listViewHtml, type ListView } from '../../src/renderer/markdown/list-view';
import { splitMarkdownBlocks } from '../../src/renderer/markdown/split-blocks';

/** The sanitizer's place: these tests read markdown-it's HTML as it is. */
const asIs = (html: string) => html;

/** The markers a list's items start with: a list of one kind, and others that start a new list. */
const MARKERS = ['- ', '* ', '+ ', '1. ', '2. ', '10. ', '1) ', '3) ', ' - ', '  1. ', '-   ', '1.  '];
/** What an item's first line holds after its marker. */
const FIRSTS = ['Tip', '[ ] to do', '[x] done **now**', '**Bold:** text with `code`', 'see https://example.com/a', '', '```js', '# heading', '> quote', '| a | b |', '[x][1]', '$$', 'a  '];
/** Lines after an item's first, indented as its content or not (lazy text, the list's end, another list). */
const MORE = [
  ...['text', 'more **text**', '- nested', '1. nested', '```', '```py', 'code()', '| a | b |', '|---|---|', '| 1 | 2 |', '> quoted', '# h', '---', '* * *', '===', '2.5 kg'],
  ...['', '', '', '    indented code', '<details>', '</details>', '[1]: https://example.com/r', '\tTabbed'],
];

/** A list as models write them: items of one marker kind, numbered on, with lines of many kinds in them. */
const LIST = fc
  .record({
    marker: fc.constantFrom(...MARKERS),
    items: fc.array(
      fc.record({
        first: fc.constantFrom(...FIRSTS),
        more: fc.array(fc.record({ line: fc.constantFrom(...MORE), indented: fc.boolean(), blankBefore: fc.boolean() }), { maxLength: 4 }),
        blankAfter: fc.boolean(),
        otherMarker: fc.constantFrom(undefined, undefined, undefined, undefined, undefined, ...MARKERS),
      }),
      { minLength: 1, maxLength: 6 },
    ),
  })
  .map(({ marker, items }) => {
    const number = /\d+/.exec(marker)?.[0];
    return items
      .map((item, i) => {
        const own = item.otherMarker ?? (number ? marker.replace(number, String(Number(number) + i)) : marker);
        const column = own.length;
        const lines = [`${own}${item.first}`];
        for (const m of item.more) {
          if (m.blankBefore) lines.push('');
          lines.push(m.indented && m.line !== '' ? `${' '.repeat(column)}${m.line}` : m.line);
        }
        return lines.join('\n') + (item.blankAfter ? '\n\n' : '\n');
      })
      .join('');
  });

/** A table as models put one in a step: a header, a delimiter row, rows of cells, and now and then a line that ends it. */
const TABLE = fc
  .record({
    columns: fc.integer({ min: 1, max: 3 }),
    align: fc.constantFrom('---', ':--', '--:', ':-:'),
    outerPipes: fc.boolean(),
    rows: fc.array(fc.oneof(fc.array(fc.constantFrom('a', '**b**', '`a|b`', 'x \\| y', '', '[x][1]'), { minLength: 1, maxLength: 4 }), fc.constantFrom('no pipe', '- item', '```', '')), { maxLength: 5 }),
  })
  .map(({ columns, align, outerPipes, rows }) => {
    const row = (cells: string[]) => (outerPipes ? `| ${cells.join(' | ')} |` : cells.join(' | '));
    const head = [row(Array.from({ length: columns }, (_, i) => `h${i}`)), row(Array.from({ length: columns }, () => align))];
    return [...head, ...rows.map((r) => (typeof r === 'string' ? r : row(r)))].join('\n') + '\n';
  });

/**
 * A list whose items end in lists or tables of their own, as models nest steps and tips: each item's first line,
 * maybe a line or a blank line more, then a LIST or a TABLE indented as the item's content (its blank lines with or
 * without the indent, and now and then a line that is not indented: lazy text, or the end of the item), two levels
 * deep at most.
 */
const NESTED = fc
  .record({
    marker: fc.constantFrom('- ', '+ ', '1. ', '2. ', '10. ', '* '),
    items: fc.array(
      fc.record({
        first: fc.constantFrom(...FIRSTS),
        head: fc.constantFrom('', 'more text\n', '\n', 'text\n\n', '```js\n'),
        sub: fc.option(fc.oneof(LIST, LIST, TABLE), { nil: undefined }),
        deeper: fc.option(fc.oneof(LIST, TABLE), { nil: undefined }),
        paddedBlanks: fc.boolean(),
        unindented: fc.constantFrom(undefined, undefined, undefined, 'lazy', '- other'),
        blankAfter: fc.boolean(),
      }),
      { minLength: 1, maxLength: 4 },
    ),
  })
  .map(({ marker, items }) => {
    const number = /\d+/.exec(marker)?.[0];
    return items
      .map((item, i) => {
        const own = number ? marker.replace(number, String(Number(number) + i)) : marker;
        const pad = ' '.repeat(own.length);
        const indent = (text: string) => text.split('\n').map((l) => (l === '' && !item.paddedBlanks ? '' : `${pad}${l}`)).join('\n');
        let body = `${own}${item.first}\n${indent(item.head).replace(/ +$/, '')}`;
        if (item.sub) {
          // The sub-list's last item ends in a list of its own too.
          const deeper = item.deeper ? `${' '.repeat(2)}${item.deeper.trimEnd().split('\n').join('\n  ')}\n` : '';
          body += indent(`${item.sub.trimEnd()}\n${item.sub.trimEnd().startsWith('-') ? deeper : ''}`);
        }
        if (item.unindented) body += `${item.unindented}\n`;
        return body.replace(/\n*$/, '\n') + (item.blankAfter ? '\n' : '');
      })
      .join('');
  });

/**
 * Streams `full` in cuts of the given sizes and checks each frame's view, drawn from the view before it as the chat
 * draws it: the tail's HTML as markdown-it draws it, or (a last line that may yet start an item) the tail without that
 * line. Returns how many frames had a view.
 */
function stream(full: string, cuts: number[]): { frames: number; views: number } {
  let view: ListView | null = null;
  let frames = 0;
  let views = 0;
  let at = 0;
  for (let i = 0; at < full.length; i++) {
    at = Math.min(full.length, at + (cuts[i % cuts.length] ?? full.length));
    const text = full.slice(0, at);
    const chunks = splitMarkdownBlocks(text);
    const tail = chunks.at(-1) ?? '';
    // The answer's link definitions, as the chat reads them (Markdown.tsx): one item may use another's.
    const refs = answerReferences(chunks, true, !text.endsWith('\n'));
    frames++;
    view = drawList(view, tail, refs, false, asIs);
    if (!view) continue;
    views++;
    const drawn = listViewHtml(view);
    const whole = markdownToHtml(tail, refs);
    if (drawn !== whole) expect(drawn, JSON.stringify(tail)).toBe(markdownToHtml(tail.slice(0, tail.lastIndexOf('\n') + 1), refs));
  }
  return { frames, views };
}

describe('a streaming list drawn item by item', () => {
  it('draws what markdown-it draws for the whole tail, for any list and any way it is cut', () => {
    fc.assert(
      fc.property(LIST, fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 5 }), (text, cuts) => {
        stream(text, cuts);
      }),
      { numRuns: 600 },
    );
  });

  it('draws what markdown-it draws for the whole tail, for any list with lists in its items and any way it is cut', () => {
    fc.assert(
      fc.property(NESTED, fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 5 }), (text, cuts) => {
        stream(text, cuts);
      }),
      { numRuns: 600 },
    );
  });

  it('draws a list of tips at every frame but the ones where an item has only begun', () => {
    // The sub-items indented as their item's content ("10. " is four columns).
    const tips = Array.from({ length: 40 }, (_, i) => {
      const pad = ' '.repeat(`${i + 1}. `.length);
      return `${i + 1}. **Tip ${i + 1}:** use \`npm ci\` in CI.\n${pad}- why: it is exact\n${pad}- see https://example.com/${i}`;
    }).join('\n');
    const { frames, views } = stream(tips, [4]);
    expect(views / frames).toBeGreaterThan(0.97);
    const loose = tips.replace(/\n(?=\d)/g, '\n\n');
    const looseRun = stream(loose, [3, 5]);
    expect(looseRun.views / looseRun.frames).toBeGreaterThan(0.97);
  });

  it('keeps each finished item as it was drawn, and draws them all again only when the list turns loose', () => {
    const items = Array.from({ length: 30 }, (_, i) => `- item ${i} with \`code\``);
    let view: ListView | null = null;
    let text = '';
    const sanitized: string[] = [];
    const count = (html: string) => (sanitized.push(html), html);
    for (const item of items) {
      for (const ch of `${item}\n`) {
        text += ch;
        view = drawList(view, text.trimEnd(), undefined, false, count);
      }
    }
    expect(view?.items).toHaveLength(30);
    // Each item sanitized at each frame it was the last one, and once more when finished: never the list again.
    expect(sanitized.length).toBeLessThan(text.length + 30);
    const before = view!.items.slice(0, 29);
    const next = drawList(view, `${text}- item 30`, undefined, false, count)!;
    expect(next.items.slice(0, 29).every((item, i) => item === before[i])).toBe(true);
    // A blank line before the next item makes the list loose: every item's text goes in <p>, drawn again once.
    sanitized.length = 0;
    const loose = drawList(next, `${text}- item 30\n\n- item 31`, undefined, false, count)!;
    expect(sanitized).toHaveLength(32);
    expect(listViewHtml(loose)).toBe(markdownToHtml(`${text}- item 30\n\n- item 31`));
    expect(loose.items[0]!.html).toContain('<p>');
  });

  it('draws whole what it cannot draw by items: a fold in the list, a lazy line that ends it, another list after it', () => {
    expect(drawList(null, '1. a\n   <details>\n   x', undefined, false, asIs)).toBeNull();
    expect(drawList(null, '- a\n```\ncode', undefined, false, asIs)).toBeNull();
    expect(drawList(null, '- a\n* b', undefined, false, asIs)).toBeNull();
    expect(drawList(null, 'Intro:\n- a', undefined, false, asIs)).toBeNull();
    // A table's header row in the last item waits for its delimiter row: pending-table.ts draws it from the whole tail.
    expect(drawList(null, '1. a\n2. b\n   | x | y |', undefined, false, asIs)).toBeNull();
  });

  it('keeps the references and the fold a list is drawn in', () => {
    const refs = { '1': { href: 'https://example.com/r', title: '' } };
    const view = drawList(null, '1. see [docs][1]\n2. and [more][1]', refs, true, asIs)!;
    expect(listViewHtml(view)).toBe(markdownToHtml('1. see [docs][1]\n2. and [more][1]', refs, { nested: true }));
    expect(view.items[0]!.html).toContain('href="https://example.com/r"');
  });
});
