/**
 * A table whose header row has streamed but whose delimiter row (`|---|---|`) has not: markdown reads the header
 * as a paragraph until the delimiter row is whole, so a streaming answer showed "| Name | Age |" as raw text for a
 * few tokens and then jumped into a table. For a streaming tail only (render.ts), the missing or half-written
 * delimiter row is written in, so the header shows as the table it is becoming. Pure; it looks at the last two
 * or three lines, and at the whole tail only when they are such a table's start.
 */

/** A row of a table: a line that starts with a pipe (how models write every table row), at most in a list item. */
const PIPE_ROW = /^ {0,7}\|/;
/** What a delimiter row is made of: pipes, dashes, colons and spaces (or nothing yet). */
const DELIMITER_SO_FAR = /^ *\|?[\s:|-]*$/;
/** A fence or display formula opened in the tail: a pipe line there is code or math, not a table. */
const OPENS_BLOCK = /^ *(?:```|~~~|\$\$|\\\[)/m;

/** The cells of a row as markdown-it counts them: split at unescaped pipes, the empty ends dropped. */
function cells(row: string): string[] {
  const parts = row.trim().split(/(?<!\\)\|/);
  if (parts[0]?.trim() === '') parts.shift();
  if (parts.length > 0 && parts[parts.length - 1]!.trim() === '') parts.pop();
  return parts;
}

/**
 * A delimiter row for the header `header`, indented as it is (a table in a list item), that keeps the alignment
 * colons already written in `sofar`.
 */
function delimiterRow(header: string, columns: number, sofar = ''): string {
  const written = cells(sofar);
  const out: string[] = [];
  for (let i = 0; i < columns; i++) {
    const cell = (written[i] ?? '').trim();
    if (cell.includes('-')) out.push(cell);
    else out.push(cell.startsWith(':') ? ':---' : '---');
  }
  return `${/^ */.exec(header)![0]}| ${out.join(' | ')} |`;
}

/**
 * `tail` with a table's pending delimiter row completed, when it ends with a header row (whole or still
 * streaming) or with a header row and part of its delimiter row; otherwise `tail` itself.
 */
export function withPendingTable(tail: string): string {
  const body = tail.endsWith('\n') ? tail.slice(0, -1) : tail;
  const end = body.lastIndexOf('\n');
  const last = body.slice(end + 1);
  if (!last.includes('|')) return tail;
  const start = end < 0 ? -1 : body.lastIndexOf('\n', end - 1);
  const before = end < 0 ? undefined : body.slice(start + 1, end);
  const beforeThat = start < 0 ? undefined : body.slice(body.lastIndexOf('\n', start - 1) + 1, start);
  const isRow = (line: string | undefined) => line !== undefined && PIPE_ROW.test(line);
  if (isRow(before) && !isRow(beforeThat) && DELIMITER_SO_FAR.test(last)) {
    const columns = cells(before!).length;
    if (columns === 0 || OPENS_BLOCK.test(body)) return tail;
    return `${body.slice(0, end + 1)}${delimiterRow(before!, columns, last)}\n`;
  }
  if (isRow(last) && !isRow(before)) {
    if (OPENS_BLOCK.test(body)) return tail;
    const columns = cells(last).length;
    // A lone `|`: the row has only begun; held back for the token that says how it goes on.
    if (columns === 0) return body.slice(0, end + 1);
    return `${body}\n${delimiterRow(last, columns)}\n`;
  }
  return tail;
}
