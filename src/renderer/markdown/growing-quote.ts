/**
 * A quote at the end of a streaming answer (`> ` on every line), drawn as its content's chunks. A quote is one chunk
 * however long it grows (split-blocks.ts cuts only at the top level), so it was parsed again at every token: about
 * 6 ms a token at the end of 300 quoted lines. Here each line's marker is taken off once, as the line comes, and the
 * content is cut into chunks as an answer is: GrowingTail.tsx draws the finished ones once, inside the quote, and
 * the last one as a growing tail (a list, a table, a code block or a quote in it drawn in parts too).
 *
 * A line without a marker that continues a paragraph open at the end of the quote (a lazy line, CommonMark 5.1) is
 * its content as the same line with a marker would be: one that starts with a letter and holds no `|` (nothing a
 * block or a table's row starts with), after a line that ends inside a paragraph (worked out once, from markdown-it's
 * tokens of the content's last chunk, when a lazy line comes). It was drawn whole at every token, and a model that
 * wraps a long quote writes its marker on the first line only.
 *
 * Only a tail that markdown-it reads as one quote holding exactly that content is drawn so; null for the rest, which
 * is drawn whole:
 * - any other line without a marker (one that ends the quote, or that it would read otherwise than with a marker:
 *   `===` is a heading's underline only with one, `- x` a list in the quote only with one);
 * - a tab in a line (markdown-it counts a tab's columns from the line's start, marker included, which the content
 *   would not keep);
 * - a link reference definition in the quote, which the quote's other chunks may use (answerReferences reads only
 *   the top level's).
 * Pure.
 */
import { asRead } from './line-breaks';
import { splitMarkdownBlocks } from './split-blocks';
import { grewFrom } from './text-growth';
import { parseMarkdown } from './to-html';

/** A streaming tail that is one quote. */
export interface QuoteDraft {
  /** The tail as it came. */
  raw: string;
  /** The tail as markdown-it reads it (line-breaks.ts). */
  tail: string;
  /** Where the lines not read yet start in `tail`: its last line, which may still grow. */
  scanned: number;
  /** The content of the lines before `scanned`, each with its marker taken off. */
  read: string;
  /** The quote's content: `read`, and the last line's when it has its marker or is a lazy line. */
  content: string;
  /** Whether `read` ends inside a paragraph, which a lazy line continues; undefined until a lazy line asks. */
  open?: boolean;
}

/** A quote's marker: `>` after at most 3 spaces, and the one space after it that belongs to the marker. */
const MARKER = /^ {0,3}> ?/;
/** A line that starts a link reference definition (to-html.ts). */
const DEFINITION = /^ {0,3}\[[^\]]+\]:/;
/** What may still become a marker: a last line of at most 3 spaces. */
const MAY_BE_MARKER = /^ {0,3}$/;

/**
 * A line without a marker that, after an open paragraph, is read as the same line with one: a letter first (after at
 * most 3 spaces: no marker, heading, list, fence, rule, underline, HTML, math or definition starts so) and no `|`
 * (a table's header or row) nor tab. Of a last line still growing, what it has so far.
 */
const LAZY = /^ {0,3}\p{L}[^|\t]*$/u;

/** The line without its marker; null when it has none or markdown-it would read the line differently in the quote. */
function quoted(line: string): string | null {
  const marker = MARKER.exec(line);
  if (!marker) return null;
  const rest = line.slice(marker[0].length);
  if (rest.includes('\t') || DEFINITION.test(rest)) return null;
  return rest;
}

/**
 * Whether the content read so far (whole lines) ends inside a paragraph: its last line is in one, not after a blank
 * line, in a code block, a heading, a table or a fold. Parses only the content's last chunk, once per lazy line that
 * follows a line with a marker.
 */
function endsInParagraph(read: string): boolean {
  if (!read.endsWith('\n') || /(^|\n)[ \t]*\n$/.test(read)) return false;
  const chunk = splitMarkdownBlocks(read).at(-1);
  if (chunk === undefined) return false;
  const last = read.slice(read.lastIndexOf(chunk));
  // A fold (details.ts) reads its own lines: a lazy line is not taken into it.
  if (last.includes('<details')) return false;
  const lines = last.slice(0, -1).split('\n').length;
  return parseMarkdown(last).some((t) => t.type === 'paragraph_open' && t.map?.[1] === lines);
}

/**
 * The draft of `raw`, a streaming answer's last chunk, when the whole of it is one quote; null otherwise. `prev`: the
 * draft before this token, whose read lines are not read again.
 */
export function growQuote(prev: QuoteDraft | null | undefined, raw: string): QuoteDraft | null {
  const tail = asRead(prev, raw);
  let { scanned, read, open } = prev && grewFrom(tail, prev.tail) ? prev : { scanned: 0, read: '', open: undefined };
  if (scanned === 0 && !MARKER.test(tail)) return null;
  /** The line as the quote's content: without its marker, or a lazy line as it is; null when neither. */
  const content = (line: string): string | null => {
    const marked = quoted(line);
    if (marked !== null || MARKER.test(line)) return marked;
    if (!LAZY.test(line)) return null;
    open ??= endsInParagraph(read);
    return open ? line : null;
  };
  for (let end = tail.indexOf('\n', scanned); end !== -1; end = tail.indexOf('\n', scanned)) {
    const text = tail.slice(scanned, end);
    const line = content(text);
    if (line === null) return null;
    // A lazy line leaves the paragraph open; after a line with a marker it is worked out again when asked.
    if (MARKER.test(text)) open = undefined;
    read += `${line}\n`;
    scanned = end + 1;
  }
  const last = tail.slice(scanned);
  if (MAY_BE_MARKER.test(last)) return { raw, tail, scanned, read, content: read, open };
  const line = content(last);
  return line === null ? null : { raw, tail, scanned, read, content: read + line, open };
}
