import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { markdownToHtml } from '../../src/renderer/markdown/to-html';
import { drawTable, tableViewHtml, type TableView } from '../../src/renderer/markdown/table-view';
import { splitMarkdownBlocks } from '../../src/renderer/markdown/split-blocks';

const asIs = (html: string) => html;

/** What a cell holds: text, code with a pipe in it, an escaped pipe, a link, nothing. */
const CELLS = ['a', '**bold**', '`a|b`', 'x \\| y', 'https://example.com/t', '', '12.5', '[x][1]', '$x$', '<b>hi</b>'];
/** Lines among the rows: rows of other widths, lines without a pipe, and lines that end a table. */
const OTHER_LINES = ['no pipe here', '- item', '1. item', '# heading', '```', '> quote', '---', '    | indented |', '|', '| only |', '<details>', ''];

const TABLE = fc
  .record({
    columns: fc.integer({ min: 1, max: 4 }),
    aligns: fc.array(fc.constantFrom('---', ':--', '--:', ':-:'), { minLength: 4, maxLength: 4 }),
    outerPipes: fc.boolean(),
    rows: fc.array(fc.oneof(fc.array(fc.constantFrom(...CELLS), { minLength: 1, maxLength: 5 }), fc.constantFrom(...OTHER_LINES)), { maxLength: 8 }),
  })
  .map(({ columns, aligns, outerPipes, rows }) => {
    const row = (cells: string[]) => (outerPipes ? `| ${cells.join(' | ')} |` : cells.join(' | '));
    const header = row(Array.from({ length: columns }, (_, i) => `h${i}`));
    const delimiter = row(aligns.slice(0, columns));
    return [header, delimiter, ...rows.map((r) => (typeof r === 'string' ? r : row(r)))].join('\n') + '\n';
  });

/** Streams `full` in cuts of the given sizes; each frame's view, drawn from the one before, is markdown-it's table. */
function stream(full: string, cuts: number[]): { frames: number; views: number } {
  let view: TableView | null = null;
  let frames = 0;
  let views = 0;
  let at = 0;
  for (let i = 0; at < full.length; i++) {
    at = Math.min(full.length, at + (cuts[i % cuts.length] ?? full.length));
    const tail = splitMarkdownBlocks(full.slice(0, at)).at(-1) ?? '';
    frames++;
    view = drawTable(view, tail, undefined, false, asIs);
    if (!view) continue;
    views++;
    expect(tableViewHtml(view), JSON.stringify(tail)).toBe(markdownToHtml(tail));
  }
  return { frames, views };
}

describe('a streaming table drawn row by row', () => {
  it('draws what markdown-it draws for the whole tail, for any table and any way it is cut', () => {
    fc.assert(
      fc.property(TABLE, fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 5 }), (text, cuts) => {
        stream(text, cuts);
      }),
      { numRuns: 600 },
    );
  });

  it('draws a long table at every frame once its delimiter row has come, each finished row drawn once', () => {
    const rows = Array.from({ length: 60 }, (_, i) => `| ${i} | **item ${i}** | \`${i * 7}\` | see https://example.com/${i} |`);
    const text = `| # | name | value | note |\n|---|---|--:|---|\n${rows.join('\n')}`;
    const { frames, views } = stream(text, [4]);
    // Only the frames before the delimiter row is whole are drawn whole.
    expect(frames - views).toBeLessThan(text.indexOf('\n| 0') / 4 + 1);
    const sanitized: string[] = [];
    let view: TableView | null = null;
    for (let at = 1; at <= text.length; at++) view = drawTable(view, text.slice(0, at), undefined, false, (h) => (sanitized.push(h), h));
    // The header, then each row at each frame it was the last one (and once more as it ends): never the table again.
    expect(sanitized.length).toBeLessThan(text.length + 2 * 60);
    expect(view!.rows).toHaveLength(60);
  });

  it('keeps the references a table is drawn with, and draws whole what ends the table', () => {
    const refs = { '1': { href: 'https://example.com/r', title: '' } };
    const view = drawTable(null, '| a |\n|---|\n| [x][1] |', refs, true, asIs)!;
    expect(tableViewHtml(view)).toBe(markdownToHtml('| a |\n|---|\n| [x][1] |', refs, { nested: true }));
    expect(view.rows[0]).toContain('href="https://example.com/r"');
    expect(drawTable(null, '| a |\n|---|\n| 1 |\n- item', undefined, false, asIs)).toBeNull();
    expect(drawTable(null, '| a | b |\n|--', undefined, false, asIs)).toBeNull();
  });
});
