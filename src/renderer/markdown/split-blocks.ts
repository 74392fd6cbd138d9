/**
 * Cuts markdown into top-level chunks at blank lines outside code fences, so a streaming answer re-renders
 * only its growing tail: every chunk but the last is finished and its HTML is cached. A blank line followed
 * by an indented line (a list item's next paragraph, indented code) does not cut, so those stay whole.
 */
import { fenceItem, indentOf, readListLine, startListLines, type ListLines } from './list-items';
import { grewFrom } from './text-growth';

/** A line that opens or closes a `<details>` fold, as details.ts reads them. */
const DETAILS_OPEN = /^ {0,3}<details( open)?>\s*(?:<summary>.*<\/summary>)?\s*$/i;
/** Indented four spaces or more, a `</details>` line is code, which closes nothing (details.ts). */
const DETAILS_CLOSE = /^ {0,3}(?=\S).*<\/details>\s*$/i;

/** Where a scan of an answer's lines is: what is open at the end of the lines read so far. */
export interface BlockScan {
  /** The open fence's marker (```` ``` ````, `~~~~`), or null. */
  fence: string | null;
  /** Inside a $$ display formula. */
  math: boolean;
  /** Inside a \[ … \] display formula, which a line ending in `\]` closes. */
  bracketMath: boolean;
  /** How many `<details>` are open (details.ts): one may hold blank lines, and a chunk of it alone is no fold. */
  details: number;
  /** The content column of the list item the open fence is in, when sure (list-items.ts); 0 otherwise. */
  fenceItem: number;
  /** The lines read so far, as far as list items go (list-items.ts). */
  list: ListLines;
}

export const startScan = (): BlockScan => ({ fence: null, math: false, bracketMath: false, details: 0, fenceItem: 0, list: startListLines() });

/** Reads one more line into `scan`; true when it is a fence's opening or closing line. */
export function scanLine(scan: BlockScan, line: string): boolean {
  // A code block in a list item ends with the item, at a line indented less than its content (never closed: a model
  // that forgot the fence, a cut stream); the line is then read as any line after the item.
  if (scan.fence !== null && scan.fenceItem > 0 && line.trim() !== '' && indentOf(line) < scan.fenceItem) {
    scan.fence = null;
    scan.fenceItem = 0;
    // No paragraph is open after a code block: a `2.` item there is one.
    scan.list.after = 'none';
  }
  const outside = scan.fence === null && !scan.math && !scan.bracketMath && scan.details === 0;
  const found = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
  // A backtick line whose info string holds a backtick opens no fence (CommonMark; "```js `x`" is a paragraph).
  const marker = found && !(scan.fence === null && found[1]![0] === '`' && found[2]!.includes('`')) ? found[1] : undefined;
  // A $$ display formula may hold blank lines: like a fence, it is not cut.
  const trimmed = line.trim();
  // As the KaTeX plugin reads it: a line that starts with `$$` and holds no other opens one (a `$$…$$` line, or one
  // that goes on with prose, does not: tex-delimiters.ts), and any line with a `$$` closes it.
  if (scan.fence === null && !marker && !scan.bracketMath) {
    if (scan.math) scan.math = !trimmed.includes('$$');
    else scan.math = trimmed.startsWith('$$') && trimmed.split('$$').length === 2;
  }
  // So may a \[ … \] one (tex-delimiters.ts): a line that starts with `\[` and has no `\]` opens it.
  if (scan.bracketMath) scan.bracketMath = !trimmed.endsWith('\\]');
  else if (scan.fence === null && !scan.math && trimmed.startsWith('\\[') && !trimmed.includes('\\]')) scan.bracketMath = true;
  let fenceLine = false;
  if (marker && !scan.math && !scan.bracketMath) {
    if (scan.fence === null) {
      scan.fence = marker;
      scan.fenceItem = fenceItem(scan.list, indentOf(line));
      fenceLine = true;
    } else if (marker[0] === scan.fence[0] && marker.length >= scan.fence.length && trimmed === marker) {
      scan.fence = null;
      scan.fenceItem = 0;
      fenceLine = true;
    }
  }
  // Counted in a formula too: details.ts finds a fold's end by its tags alone, outside code.
  if (scan.fence === null && !marker) {
    if (DETAILS_OPEN.test(line)) scan.details++;
    else if (scan.details > 0 && DETAILS_CLOSE.test(line) && !/<details/i.test(line)) scan.details--;
  }
  readListLine(scan.list, line, outside, fenceLine && scan.fence === null);
  return fenceLine;
}

/**
 * A line that starts a list item at the top level of a chunk (a list marker, then a space, a tab or the line's end),
 * not a thematic break ("- - -"). A blank line before one may not end the list: markdown-it goes on with the same list,
 * a loose one, its items' text in <p>.
 */
const LIST_ITEM = /^ {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const startsItem = (line: string) => LIST_ITEM.test(line) && !THEMATIC_BREAK.test(line);
/** The start of a list item's first line, still streaming ("2", "-"). */
const ITEM_SO_FAR = /^ {0,3}(?:[-+*]|\d{1,9}[.)]?)$/;
/**
 * Whether the text's last line, still streaming, may yet start a list item. A cut there would not be taken back when it
 * does (splitGrowing splits again from the last chunk only), so it is not cut: "- - -", a break now, is one of them
 * ("- - -x" is an item).
 */
const mayStartItem = (line: string) => ITEM_SO_FAR.test(line) || LIST_ITEM.test(line);

/** Where a split of a text stands before one of its lines: what is open, and the chunk being gathered. */
interface SplitCursor {
  /** Where the line starts in the text. */
  at: number;
  scan: BlockScan;
  /** Where the chunk being gathered starts and ends in the text (start -1: it has no line yet). */
  chunkStart: number;
  chunkEnd: number;
  /**
   * The current chunk has a list item's first line: a blank line followed by another item is not cut there (a loose
   * list, "1. a\n\n2. b", was cut into two lists while it streamed, its items without the <p> spacing of the finished
   * answer's one list). Kept even where the list has ended since: not cutting never changes what is drawn.
   */
  listInChunk: boolean;
  /** How many chunks were finished before the line. */
  finished: number;
}

const cloneScan = (scan: BlockScan): BlockScan => ({ ...scan, list: { ...scan.list, below: [...scan.list.below] } });

/** The next non-blank line after the one that ends at `end` (-1: the text's last), and whether it is the text's last. */
function nextNonBlank(text: string, end: number): { line: string; last: boolean } | undefined {
  for (let at = end + 1; end !== -1; at = end + 1) {
    end = text.indexOf('\n', at);
    const line = text.slice(at, end === -1 ? text.length : end);
    if (line.trim() !== '') return { line, last: end === -1 };
  }
  return undefined;
}

/**
 * The text's chunks from `from` on, after `blocks` (the chunks finished before it), and the cursor to go on from when
 * the text grows: before its trailing lines (its last line and the blank lines before it), the first a longer text may
 * read otherwise. Every line before that one is whole and followed by a non-blank one, so what was decided there holds.
 */
function splitFrom(text: string, from: SplitCursor, blocks: string[]): { chunks: string[]; resume: SplitCursor } {
  const scan = cloneScan(from.scan);
  let { chunkStart, chunkEnd, listInChunk } = from;
  let resume = from;
  let afterText = false;
  for (let at = from.at; ; ) {
    if (afterText) resume = { at, scan: cloneScan(scan), chunkStart, chunkEnd, listInChunk, finished: blocks.length };
    const end = text.indexOf('\n', at);
    const line = text.slice(at, end === -1 ? text.length : end);
    const blank = line.trim() === '';
    afterText = !blank;
    const outside = scan.fence === null && !scan.math && !scan.bracketMath && scan.details === 0;
    scanLine(scan, line);
    if (outside && startsItem(line)) listInChunk = true;
    const { fence, math, bracketMath, details } = scan;
    if (fence === null && !math && !bracketMath && details === 0 && blank && chunkStart >= 0) {
      // A forward scan, not a copy of the rest: this runs every frame of a stream, and copying the rest of the answer
      // at each blank line made a long answer's frames quadratic (bench/smoothness.bench.ts).
      const next = nextNonBlank(text, end);
      if (!(next && (/^\s/.test(next.line) || (listInChunk && (next.last ? mayStartItem(next.line) : startsItem(next.line)))))) {
        blocks.push(text.slice(chunkStart, chunkEnd));
        chunkStart = -1;
        listInChunk = false;
      }
    } else if (!(chunkStart < 0 && blank)) {
      if (chunkStart < 0) chunkStart = at;
      chunkEnd = end === -1 ? text.length : end;
    }
    if (end === -1) break;
    at = end + 1;
  }
  if (chunkStart >= 0) blocks.push(text.slice(chunkStart, chunkEnd));
  return { chunks: blocks, resume };
}

const START: SplitCursor = { at: 0, scan: startScan(), chunkStart: -1, chunkEnd: 0, listInChunk: false, finished: 0 };

export function splitMarkdownBlocks(text: string): string[] {
  return splitFrom(text, START, []).chunks;
}

/** A text's chunks, kept to split the next, longer text from where its last lines begin. */
export interface SplitState {
  text: string;
  chunks: string[];
  /** Where to go on from (splitFrom). */
  resume?: SplitCursor;
}

/**
 * splitMarkdownBlocks(text), reusing `prev` when `text` only grew (a streaming answer): the split goes on from before
 * the previous text's last lines, with what was open there, and the finished chunks keep their identity (the same
 * array when none finished). Each frame then costs the new lines, not the last chunk: splitting that chunk again at
 * every token scanned all of a long code block's lines each time (about 90 µs a token at 600 lines).
 */
export function splitGrowing(prev: SplitState | undefined, text: string): SplitState {
  if (!prev?.resume || !grewFrom(text, prev.text)) return { text, ...split(text) };
  if (text.length === prev.text.length) return prev;
  const { resume } = prev;
  const { chunks, resume: next } = splitFrom(text, resume, prev.chunks.slice(0, resume.finished));
  const same = chunks.length === prev.chunks.length && chunks[chunks.length - 1] === prev.chunks[prev.chunks.length - 1];
  return { text, chunks: same ? prev.chunks : chunks, resume: next };
}

function split(text: string): { chunks: string[]; resume: SplitCursor } {
  return splitFrom(text, START, []);
}
