/**
 * A table still streaming at the end of an answer, drawn row by row: its header once, each finished row once, and
 * only the last row at each token. A table is one chunk, so it was parsed, sanitized and set into the page whole at
 * every frame (a 300-row table: bench/streaming-code). markdown-it reads each body row by the header's columns and
 * alignments alone, so each row is drawn as a table of the header and that one row (to-html.ts tableRowsHtml), and
 * the tail is drawn whole where that does not give one table of that row (a line that ends the table), or where the
 * header is still streaming (pending-table.ts draws that). Pure but for the sanitizer it is given (render.ts gives
 * DOMPurify).
 */
import { withPendingTable } from './pending-table';
import { grewFrom } from './text-growth';
import { tableRowsHtml, type LinkReferences } from './to-html';

/** A streaming tail that is one table, ready to draw. */
export interface TableView {
  raw: string;
  references: LinkReferences | undefined;
  nested: boolean;
  /** What `<thead>` holds, sanitized. */
  head: string;
  /** Where each body row's line starts in `raw`. */
  starts: number[];
  /** What each body row's `<tr>` holds, sanitized; the last one is still streaming. */
  rows: string[];
  /** A row before the last did not start with a pipe (PIPE_FIRST). */
  plain: boolean;
}

/** What a delimiter row is made of (markdown-it's table rule checks the rest): pipes, dashes, colons and spaces. */
export const DELIMITER_ROW = /^[ |:-]*-[ |:-]*$/;

/** A row as table-code-pipes.ts reads one: a pipe first, after at most 3 spaces. */
const PIPE_FIRST = /^ {0,3}\|/;

/**
 * markdown-it stops filling a table's short rows after 65,536 cells in all (MAX_AUTOCOMPLETED_CELLS), a count over the
 * whole table that a row drawn on its own does not see: a table that could reach it is drawn whole.
 */
const MAX_CELLS = 65_536;

/**
 * The view of `tail`, a streaming answer's last chunk, from `prev` (the view before this token); null when the tail
 * is not one table whose header and delimiter rows have come whole.
 */
export function drawTable(prev: TableView | null | undefined, tail: string, references: LinkReferences | undefined, nested: boolean, sanitize: (html: string) => string): TableView | null {
  const firstEnd = tail.indexOf('\n');
  const headEnd = firstEnd === -1 ? -1 : tail.indexOf('\n', firstEnd + 1);
  // Most tails are no table: told by their first two lines' characters before anything is parsed, at every frame.
  if (headEnd === -1 || !tail.slice(0, firstEnd).includes('|') || !DELIMITER_ROW.test(tail.slice(firstEnd + 1, headEnd))) return null;
  if (withPendingTable(tail) !== tail) return null;
  const head = tail.slice(0, headEnd);
  const same = prev && prev.references === references && prev.nested === nested && grewFrom(tail, prev.raw) && prev.starts.length > 0 ? prev : undefined;
  // Only the new text is looked at (the rest was): a scan of the whole tail at every token grew with the table.
  if (/[\r\0]/.test(same ? tail.slice(same.raw.length) : tail)) return null;
  let headHtml = same?.head;
  if (headHtml === undefined) {
    const html = tableRowsHtml(head, null, references, { nested });
    const inner = html && between(sanitize(html), '<thead>', '</thead>');
    if (inner === null || inner === undefined) return null;
    headHtml = inner;
  }
  // The rows before the last are kept; the last is read again from its line's start.
  const starts = same ? same.starts.slice(0, -1) : [];
  const rows = same ? same.rows.slice(0, -1) : [];
  let plain = same?.plain ?? false;
  const pipesFirst = head.split('\n').every((line) => PIPE_FIRST.test(line));
  for (let at = same ? same.starts[same.starts.length - 1]! : headEnd + 1; at <= tail.length; ) {
    const end = tail.indexOf('\n', at);
    const line = tail.slice(at, end === -1 ? tail.length : end);
    const finished = end !== -1;
    // A newline that ended the last row: the next row has not begun.
    if (!finished && line === '') break;
    // table-code-pipes.ts escapes a pipe in a code span in a row of a table whose rows all start with a pipe, the
    // header and delimiter rows too; elsewhere it looks at the lines around, which a row drawn on its own lacks.
    if (!PIPE_FIRST.test(line)) plain = true;
    else if ((plain || !pipesFirst) && line.includes('`')) return null;
    const html = tableRowsHtml(head, line, references, { nested });
    const inner = html && between(sanitize(html), '<tbody>', '</tbody>');
    if (inner === null || inner === undefined || !inner.startsWith('\n<tr>') || !inner.endsWith('</tr>\n')) return null;
    rows.push(inner.slice('\n<tr>'.length, -'</tr>\n'.length));
    starts.push(at);
    if (!finished) break;
    at = end + 1;
  }
  if (rows.length * (head.split('|').length + 1) > MAX_CELLS) return null;
  return { raw: tail, references, nested, head: headHtml, starts, rows, plain };
}

/** What lies between the first `open` and the last `close` in `html`; null when it holds no such pair. */
function between(html: string, open: string, close: string): string | null {
  const from = html.indexOf(open);
  const to = html.lastIndexOf(close);
  return from === -1 || to < from ? null : html.slice(from + open.length, to);
}

/** The view's HTML as one string, as markdownToHtml writes a table (for tests and bench/streaming-code). */
export function tableViewHtml(view: TableView): string {
  const body = view.rows.length === 0 ? '' : `<tbody>\n${view.rows.map((row) => `<tr>${row}</tr>\n`).join('')}</tbody>\n`;
  return `<table${view.nested ? '' : ' dir="auto"'}>\n<thead>${view.head}</thead>\n${body}</table>\n`;
}
