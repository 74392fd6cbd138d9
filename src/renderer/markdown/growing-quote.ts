/**
 * A quote at the end of a streaming answer (`> ` on every line), drawn as its content's chunks. A quote is one chunk
 * however long it grows (split-blocks.ts cuts only at the top level), so it was parsed again at every token: about
 * 6 ms a token at the end of 300 quoted lines. Here each line's marker is taken off once, as the line comes, and the
 * content is cut into chunks as an answer is: GrowingTail.tsx draws the finished ones once, inside the quote, and
 * the last one as a growing tail (a list, a table, a code block or a quote in it drawn in parts too).
 *
 * Only a tail that markdown-it reads as one quote holding exactly that content is drawn so; null for the rest, which
 * is drawn whole:
 * - a line without a marker (a lazy line, which continues a paragraph in the quote, or one that ends it);
 * - a tab in a line (markdown-it counts a tab's columns from the line's start, marker included, which the content
 *   would not keep);
 * - a link reference definition in the quote, which the quote's other chunks may use (answerReferences reads only
 *   the top level's).
 * Pure.
 */
import { asRead } from './line-breaks';
import { grewFrom } from './text-growth';

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
  /** The quote's content: `read`, and the last line's when it has its marker. */
  content: string;
}

/** A quote's marker: `>` after at most 3 spaces, and the one space after it that belongs to the marker. */
const MARKER = /^ {0,3}> ?/;
/** A line that starts a link reference definition (to-html.ts). */
const DEFINITION = /^ {0,3}\[[^\]]+\]:/;
/** What may still become a marker: a last line of at most 3 spaces. */
const MAY_BE_MARKER = /^ {0,3}$/;

/** The line without its marker; null when it has none or markdown-it would read the line differently in the quote. */
function quoted(line: string): string | null {
  const marker = MARKER.exec(line);
  if (!marker) return null;
  const rest = line.slice(marker[0].length);
  if (rest.includes('\t') || DEFINITION.test(rest)) return null;
  return rest;
}

/**
 * The draft of `raw`, a streaming answer's last chunk, when the whole of it is one quote; null otherwise. `prev`: the
 * draft before this token, whose read lines are not read again.
 */
export function growQuote(prev: QuoteDraft | null | undefined, raw: string): QuoteDraft | null {
  const tail = asRead(prev, raw);
  let { scanned, read } = prev && grewFrom(tail, prev.tail) ? prev : { scanned: 0, read: '' };
  if (scanned === 0 && !MARKER.test(tail)) return null;
  for (let end = tail.indexOf('\n', scanned); end !== -1; end = tail.indexOf('\n', scanned)) {
    const line = quoted(tail.slice(scanned, end));
    if (line === null) return null;
    read += `${line}\n`;
    scanned = end + 1;
  }
  const last = tail.slice(scanned);
  if (MAY_BE_MARKER.test(last)) return { raw, tail, scanned, read, content: read };
  const line = quoted(last);
  return line === null ? null : { raw, tail, scanned, read, content: read + line };
}
