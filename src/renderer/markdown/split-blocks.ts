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

export function splitMarkdownBlocks(text: string): string[] {
  const lines = text.split('\n');
  const blocks: string[] = [];
  let current: string[] = [];
  const scan = startScan();
  // The current chunk has a list item's first line: a blank line followed by another item is not cut there (a loose
  // list, "1. a\n\n2. b", was cut into two lists while it streamed, its items without the <p> spacing of the finished
  // answer's one list). Kept even where the list has ended since: not cutting never changes what is drawn.
  let listInChunk = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const outside = scan.fence === null && !scan.math && !scan.bracketMath && scan.details === 0;
    scanLine(scan, line);
    if (outside && startsItem(line)) listInChunk = true;
    const { fence, math, bracketMath, details } = scan;
    if (fence === null && !math && !bracketMath && details === 0 && line.trim() === '' && current.length > 0) {
      // A forward scan, not lines.slice(i + 1).find(): this runs every frame of a stream, and copying the rest
      // of the answer at each blank line made a long answer's frames quadratic (bench/smoothness.bench.ts).
      let j = i + 1;
      while (j < lines.length && (lines[j] ?? '').trim() === '') j++;
      const next = lines[j];
      if (next !== undefined && (/^\s/.test(next) || (listInChunk && (j === lines.length - 1 ? mayStartItem(next) : startsItem(next))))) {
        current.push(line);
        continue;
      }
      blocks.push(current.join('\n'));
      current = [];
      listInChunk = false;
      continue;
    }
    if (current.length === 0 && line.trim() === '') continue;
    current.push(line);
  }
  if (current.length > 0) blocks.push(current.join('\n'));
  return blocks;
}

/** A text's chunks, kept to split the next, longer text from where its last chunk begins. */
export interface SplitState {
  text: string;
  chunks: string[];
}

/**
 * splitMarkdownBlocks(text), reusing `prev` when `text` only grew (a streaming answer): every chunk but the last
 * is finished (a cut is made only where no fence or formula is open, and what follows it cannot change), so only
 * the text from the last chunk on is split again, and the finished chunks keep their identity (the same array
 * when none finished). Each frame of a long answer then costs its last chunk, not the whole answer.
 */
export function splitGrowing(prev: SplitState | undefined, text: string): SplitState {
  if (!prev || prev.chunks.length === 0 || !grewFrom(text, prev.text)) return { text, chunks: splitMarkdownBlocks(text) };
  if (text.length === prev.text.length) return prev;
  const last = prev.chunks[prev.chunks.length - 1]!;
  // The last chunk is the text's last content: its last occurrence is where it begins.
  const start = prev.text.lastIndexOf(last);
  const tail = splitMarkdownBlocks(text.slice(start));
  const finished = prev.chunks.slice(0, -1);
  return { text, chunks: tail.length === 1 && tail[0] === last ? prev.chunks : finished.concat(tail) };
}
