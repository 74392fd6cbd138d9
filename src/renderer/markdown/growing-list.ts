/**
 * A list still streaming at the end of an answer, cut into its items so that each finished item is drawn once. A list
 * is one chunk (split-blocks.ts keeps it whole, blank lines between its items and all), so it was parsed, sanitized
 * and set into the page whole at every frame: a 200-item list of tips cost the whole list per frame near its end.
 *
 * Only where an item starts is read here: a line indented less than the current item's content that starts an item
 * of the same list (the same bullet, or the same delimiter after a number), at most three spaces in. markdown-it ends
 * an item at any line indented less than its content (a code block in the item with it, never closed or not) and
 * goes on with the same list at such a line; any other line there is lazy text or the list's end, which the item's
 * own parse tells (render.ts draws each item as a list of one, and draws the tail whole when that is not what it
 * gets). A `<details>` fold does not end at a less indented line (details.ts): a list with one is drawn whole, as
 * is one with a link definition in it (DEFINITION), a tab in an indent, `\r` or NUL (line-breaks.ts), or an item whose
 * first line is a lone marker followed by more lines (an item that starts with a blank line).
 *
 * Whether the list is loose (its items' text in `<p>`) is a property of the whole list: a blank line between two
 * items makes it so (read here), and so does one between two blocks of an item (read from the item's parse).
 * Pure.
 */
import { grewFrom } from './text-growth';

/** A streaming tail that is one list. */
export interface ListDraft {
  raw: string;
  ordered: boolean;
  /** The first item's number (an ordered list's `start`). */
  start: number;
  /** The bullet (`-`, `+`, `*`) or, for an ordered list, the delimiter after the number (`.`, `)`). */
  kind: string;
  /** Where each item's first line starts in `raw`; the last is the item still streaming. */
  starts: number[];
  /** A blank line ends an item that another follows: the list is loose. */
  blankBetween: boolean;
  /** The content column of the last item's first line. */
  column: number;
  /** Where the reading stood before the text's last line: the next token's draft reads on from there. */
  resume?: ReadState;
}

/** What readItems knows at the start of a line. */
interface ReadState {
  lineStart: number;
  starts: number[];
  blankBetween: boolean;
  column: number;
  /** The current item's first line has nothing after its marker. */
  empty: boolean;
  /** The line before was blank. */
  lastBlank: boolean;
}

/** A list item's first line: its indent, marker, and what follows (spaces, then text or the line's end). */
const ITEM = /^( {0,3})(?:([-+*])|(\d{1,9})([.)]))(?:( +)(\S)?|$)/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;

interface ItemHead {
  ordered: boolean;
  number: number;
  kind: string;
  /** Where the item's content starts (its continuation lines are indented at least as far). */
  column: number;
  /** Nothing after the marker yet. */
  empty: boolean;
}

function itemHead(line: string): ItemHead | null {
  const m = ITEM.exec(line);
  if (!m || THEMATIC_BREAK.test(line)) return null;
  const [, indent, bullet, number, delimiter, spaces, text] = m;
  const markerEnd = indent!.length + (bullet ? 1 : number!.length + 1);
  // Five spaces or more before the text: the text is indented code in the item, a case not read here.
  if (text !== undefined && spaces!.length > 4) return null;
  const empty = text === undefined;
  return { ordered: !bullet, number: bullet ? 1 : Number(number), kind: bullet ?? delimiter!, column: empty ? markerEnd + 1 : markerEnd + spaces!.length, empty };
}

/**
 * A link definition's line, at any indent: one in an item defines its label for the whole answer, another item's
 * link too, which an item drawn on its own would not see (the answer's definitions read from other chunks are given).
 */
const DEFINITION = /^ *\[[^\]]+\]:/;

const indentOf = (line: string) => line.length - line.trimStart().length;

/**
 * The draft of `raw`, a streaming answer's last chunk, when it is one list as far as its lines tell; null otherwise.
 * `prev`: the draft before this token: only its last line is read again, or the last item's lines where that line was
 * the item's first (an item's first line that was still streaming may have turned out to be no item: "2" became
 * "2.5 kg").
 */
export function growList(prev: ListDraft | null | undefined, raw: string): ListDraft | null {
  if (prev && grewFrom(raw, prev.raw)) {
    const live = prev.starts[prev.starts.length - 1]!;
    // The last item's first line was whole (a line followed it): only the lines from the last one are read again, so
    // that a token costs what it adds however long the item is (one that ends in a list of 300: list-view.ts).
    if (prev.resume && prev.resume.lineStart > live) return readItems(raw, prev, prev.resume, false);
    const head = itemHead(lineAt(raw, live));
    if (head && head.kind === prev.kind && head.ordered === prev.ordered) {
      return readItems(raw, prev, itemStart(prev.starts.slice(0, -1), prev.blankBetween, live, head), true);
    }
  }
  const head = itemHead(lineAt(raw, 0));
  if (!head) return null;
  return readItems(raw, { raw, ordered: head.ordered, start: head.number, kind: head.kind, starts: [], blankBetween: false, column: head.column }, itemStart([], false, 0, head), true);
}

/** The reading's state at an item's first line (`head`, at `at`), after the items that `starts` holds. */
function itemStart(starts: number[], blankBetween: boolean, at: number, head: ItemHead): ReadState {
  return { lineStart: at, starts, blankBetween, column: head.column, empty: head.empty, lastBlank: false };
}

function lineAt(text: string, at: number): string {
  const end = text.indexOf('\n', at);
  return text.slice(at, end === -1 ? text.length : end);
}

/**
 * Reads the lines from the state's line to the end of the text, into `draft`. `first`: that line is an item's first
 * line (its start is not yet among the state's `starts`); else it is a later line of the last item, read as any.
 */
function readItems(raw: string, draft: ListDraft, from: ReadState, first: boolean): ListDraft | null {
  const starts = first ? [...from.starts, from.lineStart] : from.starts.slice();
  let { blankBetween, column, empty, lastBlank } = from;
  for (let lineStart = from.lineStart; ; ) {
    // The state before this line, kept for the last line (items are only ever added to `starts`: its count will do).
    const before = { lineStart, count: starts.length, blankBetween, column, empty, lastBlank };
    const end = raw.indexOf('\n', lineStart);
    const line = raw.slice(lineStart, end === -1 ? raw.length : end);
    if (/\r|\0|<details/i.test(line) || /^ *\t/.test(line) || DEFINITION.test(line)) return null;
    if (!(first && lineStart === from.lineStart)) {
      if (line.trim() === '') lastBlank = true;
      else {
        const indent = indentOf(line);
        const next = indent < column && indent <= 3 ? itemHead(line) : null;
        if (next && next.kind === draft.kind && next.ordered === draft.ordered) {
          if (lastBlank) blankBetween = true;
          starts.push(lineStart);
          column = next.column;
          empty = next.empty;
        } else if (empty) {
          // An item that starts with a blank line: its content's column is not read here.
          return null;
        }
        // Anything else is the item's (indented as its content) or lazy text, or the list has ended: the item's own
        // parse tells (render.ts).
        lastBlank = false;
      }
    }
    if (end === -1) {
      const { count, ...state } = before;
      return { ...draft, raw, starts, blankBetween, column, resume: { ...state, starts: starts.slice(0, count) } };
    }
    lineStart = end + 1;
  }
}

/** The draft's items' text: each from its first line to the next item's (the last to the end of the text). */
export function listItems(draft: ListDraft): string[] {
  return draft.starts.map((start, i) => draft.raw.slice(start, draft.starts[i + 1] ?? draft.raw.length));
}
