/**
 * A pipe inside a code span in a table row. Models write command tables as "| `ps aux | grep node` | Find it |", and
 * GFM splits a cell at every pipe but an escaped one, code or not: the row read "`ps aux" and "grep node`", and its
 * last cell, past the header's columns, was dropped, so the user lost what the command does. In a table's rows (a
 * header row followed by its delimiter row, and the rows after them), such a pipe is escaped before parsing, which
 * GFM reads as a pipe in the cell (markdown-it: "`a \| b`" shows as `a | b`). Not in code blocks, nor in prose, where
 * a backslash in a code span would show, nor in a row indented 4 spaces or more (ROW). Pure.
 */
import { scanLine, startScan, type BlockScan } from './split-blocks';

/**
 * A table row as models write them: a pipe first, after a quote's markers and an indent of at most 3 spaces (a table
 * in a list item's first level). A row indented more may be code (an indented block, or a code block in a nested
 * list item, which the line scan does not see): left as GFM reads it.
 */
const ROW = /^(?: {0,3}> ?)* {0,3}\|/;
/** A line's quote markers (`> `, `> > `), or nothing. */
const QUOTE_MARKERS = /^(?: {0,3}> ?)*/;
/** A quote's markers and an indent of at most 3 spaces: what comes before a delimiter row's first character. */
const DELIMITER_LEAD = /^(?: {0,3}> ?)* {0,3}/;
/** A delimiter cell: `---`, `:--`, `--:`, `:-:`. */
const DELIMITER_CELL = /^:?-+:?$/;
/** A code span: a run of backticks, text, and a run of as many (markdown's rule, without escapes before it). */
const CODE_SPAN = /(?<!`)(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g;

/** Where each quote level's marker ends in a line's markers (`> > ` → [2, 4]). */
function markerEnds(markers: string): number[] {
  const ends: number[] = [];
  for (const marker of markers.matchAll(/ {0,3}> ?/g)) ends.push(marker.index + marker[0].length);
  return ends;
}

/** The row with each unescaped pipe inside its code spans escaped. */
export function escapeCodeSpanPipes(row: string): string {
  if (!row.includes('`')) return row;
  return row.replace(CODE_SPAN, (span) => span.replace(/(?<!\\)\|/g, '\\|'));
}

/**
 * How many columns the line declares as a delimiter row (`|---|:--:|`), read by markdown-it's rule (its table.mjs):
 * it starts with two of `|`, `-`, `:` or a space, not `- ` (a list item), holds nothing else, and has no empty cell
 * but at its ends. 0 when it is not one: a lone `-` (a list item or a rule not yet written on) is not.
 */
function delimiterColumns(line: string): number {
  const row = line.slice(DELIMITER_LEAD.exec(line)![0].length).trimEnd();
  if (!/^[|:-][|:\s-]/.test(row) || /^-\s/.test(row) || !/^[|:\s-]+$/.test(row)) return 0;
  const cells = row.split('|').map((cell) => cell.trim());
  let columns = 0;
  for (let i = 0; i < cells.length; i++) {
    if (cells[i] === '' && (i === 0 || i === cells.length - 1)) continue;
    if (!DELIMITER_CELL.test(cells[i]!)) return 0;
    columns++;
  }
  return columns;
}

/**
 * The cells of a row (after its quote markers and indent) as markdown-it counts them: split at unescaped pipes, the
 * empty ends dropped; a pipe in a code span stays in its cell (escaped as above).
 */
export function rowCells(row: string): string[] {
  const parts = escapeCodeSpanPipes(row.trim()).split(/(?<!\\)\|/);
  if (parts[0]?.trim() === '') parts.shift();
  if (parts.length > 0 && parts[parts.length - 1]!.trim() === '') parts.pop();
  return parts;
}

/** The text with the pipes in code spans of its tables' rows escaped; the same string when there is none. */
export function tableCodePipes(text: string): string {
  if (!text.includes('`') || !text.includes('|')) return text;
  const lines = text.split('\n');
  const scan = startScan();
  // Code in a quote: each quote level's lines, its markers taken off, read as a text of their own (the top-level scan
  // does not see a `> ```` fence): quotes[d] is the quote d + 1 levels deep. A line with fewer markers ends the
  // deeper ones; one with more starts them. A nested quote's lines are its outer quote's too: a `$$` formula or a code
  // block opened in the outer one goes on through them (reset at each change of markers, the formula was lost there,
  // and rows in it were escaped: a backslash shown in the formula, growing-quote property test).
  const quotes: BlockScan[] = [];
  let inTable = false;
  let changed = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const levels = markerEnds(QUOTE_MARKERS.exec(line)![0]);
    quotes.length = Math.min(quotes.length, levels.length);
    while (quotes.length < levels.length) quotes.push(startScan());
    // Inside a code block or a display formula (markdown-it draws an open one as a draft to its container's end),
    // at the top level or in any quote around the line: no table there.
    const inCode = [scan, ...quotes].some((s) => s.fence !== null || s.math || s.bracketMath);
    let fenceLine = scanLine(scan, line);
    levels.forEach((end, d) => {
      if (scanLine(quotes[d]!, line.slice(end))) fenceLine = true;
    });
    if (fenceLine || inCode || !ROW.test(line)) {
      inTable = false;
      continue;
    }
    const escaped = escapeCodeSpanPipes(line);
    // A header is escaped only where markdown-it then reads a table: its delimiter row declares as many columns as
    // the escaped header has. Elsewhere the escape would show, as `a\|b` in a paragraph (a backslash in a code span
    // is not an escape).
    if (!inTable && delimiterColumns(lines[i + 1] ?? '') !== rowCells(line.slice(DELIMITER_LEAD.exec(line)![0].length)).length) continue;
    inTable = true;
    if (escaped !== line) {
      lines[i] = escaped;
      changed = true;
    }
  }
  return changed ? lines.join('\n') : text;
}
