/**
 * A table whose header row has streamed but whose delimiter row (`|---|---|`) has not: markdown reads the header
 * as a paragraph until the delimiter row is whole, so a streaming answer showed "| Name | Age |" as raw text for a
 * few tokens and then jumped into a table. For a streaming tail only (render.ts), the missing or half-written
 * delimiter row is written in, so the header shows as the table it is becoming: at the top level, in a list item,
 * and in a quote (`> | a | b |`, each row behind the quote's `>`). Pure; it looks at the last two or three lines,
 * and at the whole tail only when they are such a table's start.
 */
import { rowCells as cells } from './table-code-pipes';

/**
 * What comes before a row's first pipe: a quote's markers (`> `, `> > `) and an indent of at most 7 spaces (a table
 * in a list item), how models write every table row.
 */
const LEAD = /^(?: {0,3}> ?)*(?: {0,7})/;
/** What a delimiter row is made of: pipes, dashes, colons and spaces (or nothing yet). */
const DELIMITER_SO_FAR = /^ *\|?[\s:|-]*$/;
/** A fence or display formula opened in the tail: a pipe line there is code or math, not a table. */
const OPENS_BLOCK = /^(?: {0,3}> ?)* *(?:```|~~~|\$\$|\\\[)/m;

/** The line's lead (quote markers and indent) and what follows it. */
function lead(line: string): [string, string] {
  const at = LEAD.exec(line)![0].length;
  return [line.slice(0, at), line.slice(at)];
}

/** A row of a table: a line that starts with a pipe after its lead. */
const isRow = (line: string | undefined): line is string => line !== undefined && lead(line)[1].startsWith('|');

/** The quote markers alone (`>`, `> >`): how the row after a quoted header starts, before anything else has come. */
const quoteOnly = (line: string) => /^(?: {0,3}> ?)+$/.test(line);

/**
 * A delimiter row for the header `header`, behind the same lead (a table in a quote or a list item), that keeps the
 * alignment colons already written in `sofar`.
 */
function delimiterRow(header: string, columns: number, sofar = ''): string {
  const written = cells(sofar);
  const out: string[] = [];
  for (let i = 0; i < columns; i++) {
    const cell = (written[i] ?? '').trim();
    if (cell.includes('-')) out.push(cell);
    else out.push(cell.startsWith(':') ? ':---' : '---');
  }
  return `${lead(header)[0]}| ${out.join(' | ')} |`;
}

/**
 * `tail` with a table's pending delimiter row completed, when it ends with a header row (whole or still
 * streaming) or with a header row and part of its delimiter row; otherwise `tail` itself.
 */
export function withPendingTable(tail: string): string {
  const body = tail.endsWith('\n') ? tail.slice(0, -1) : tail;
  const end = body.lastIndexOf('\n');
  const last = body.slice(end + 1);
  if (!last.includes('|') && !quoteOnly(last)) return tail;
  const start = end < 0 ? -1 : body.lastIndexOf('\n', end - 1);
  const before = end < 0 ? undefined : body.slice(start + 1, end);
  const beforeThat = start < 0 ? undefined : body.slice(body.lastIndexOf('\n', start - 1) + 1, start);
  if (isRow(before) && !isRow(beforeThat)) {
    const [headerLead, header] = lead(before);
    const [lastLead, sofar] = lead(last);
    // The next line behind the header's own quote markers, with nothing but a delimiter row's makings after them.
    if (lastLead.replace(/ /g, '') === headerLead.replace(/ /g, '') && DELIMITER_SO_FAR.test(sofar)) {
      const columns = cells(header).length;
      if (columns === 0 || OPENS_BLOCK.test(body)) return tail;
      return `${body.slice(0, end + 1)}${delimiterRow(before, columns, sofar)}\n`;
    }
  }
  if (isRow(last) && !isRow(before)) {
    if (OPENS_BLOCK.test(body)) return tail;
    const columns = cells(lead(last)[1]).length;
    // A lone `|`: the row has only begun; held back for the token that says how it goes on.
    if (columns === 0) return body.slice(0, end + 1);
    return `${body}\n${delimiterRow(last, columns)}\n`;
  }
  return tail;
}
