/**
 * Which list item a code block opened by an indented fence line (`1. Run:\n   ```bash`) is in, read from the lines
 * before it, so the chunk splitter (split-blocks.ts) knows where the block ends when it is never closed: a line less
 * indented than the item's content ends the item, and the block with it (markdown-it's fence rule: "non-empty line
 * with negative indent should stop the list"). Without that, a model that forgot the closing fence, or a cut stream,
 * made the rest of the answer one chunk, drawn again at every token.
 *
 * Only what is sure is read: an answer is the item's when the nearest less indented line above the fence is a list
 * item's first line that markdown-it cannot read as anything else (a `2.` after a heading or a thematic break is one:
 * no paragraph is open there for it to go on lazily). Anything in doubt (a lazy line, an empty item, a quote, a tab)
 * leaves the block open to its closing fence, as before: never a wrong cut, at worst the old cost.
 */

/** A line's first list marker, with text after it (an empty item is not read: it cannot interrupt a paragraph). */
const ITEM = /^( ?)([-+*]|\d{1,9}[.)])( +)\S/;
/** A list marker with nothing after it: an empty item, where no paragraph is open (an item's first line holds one) for it to go on. */
const EMPTY_ITEM = /^ ?([-+*]|\d{1,9}[.)]) *$/;
/** A thematic break ("- - -", "* * *") is no list item. */
const BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
/**
 * An ATX heading's line. Like a thematic break (or a setext heading's `---` underline, which the same pattern reads),
 * it leaves no paragraph open: a `2.` item right after it starts a list (markdown-it: no lazy line to go on).
 */
const HEADING = /^ {0,3}#{1,6}(?:[ \t]|$)/;

/** A line read by the splitter: how far it is indented, and the content column of the item it starts (0: none). */
interface ReadLine {
  indent: number;
  item: number;
}

/** What the lines read so far say about the list items around: see fenceItem. */
export interface ListLines {
  /** For t = 1..3: the last non-blank line indented less than t columns, or null. */
  below: (ReadLine | null)[];
  /**
   * What the last line read leaves open: no paragraph ('none': it was blank or closed a code block, or none was read, as
   * at a chunk's start after a blank line), a sure item's first line ('item'), or maybe a paragraph ('text').
   */
  after: 'none' | 'item' | 'text';
  /** How far the last non-blank line read is indented. */
  lastIndent: number;
}

export const startListLines = (): ListLines => ({ below: [null, null, null, null], after: 'none', lastIndent: 0 });

/** Columns of a line's indent; 4 for one with a tab in it (as far as it matters here: no fence line, no item's). */
export function indentOf(line: string): number {
  let n = 0;
  while (line[n] === ' ') n++;
  return line[n] === '\t' ? Math.max(4, n) : n;
}

/**
 * Reads one more line. `outside`: the splitter's scan was outside any code block, formula or fold before it (a
 * marker inside one starts no item). `closed`: the line closed a code block.
 */
export function readListLine(lines: ListLines, line: string, outside: boolean, closed: boolean): void {
  if (line.trim() === '') {
    lines.after = 'none';
    return;
  }
  const indent = indentOf(line);
  let item = 0;
  const marker = outside && indent <= 1 ? ITEM.exec(line) : null;
  if (marker && !BREAK.test(line)) {
    const [, lead, mark, spaces] = marker;
    // Five spaces or more after the marker: the content is indented code, its column one past the marker.
    const column = lead!.length + mark!.length + (spaces!.length > 4 ? 1 : spaces!.length);
    // An ordered item that does not start at 1 cannot interrupt a paragraph (it goes on lazily): sure where none is
    // open, or right after an item's first line (the next item ends that item's paragraph). Sure too after a line of
    // a list item whose content starts right of this marker: markdown-it lets any list interrupt a paragraph indented
    // more than it (list rule: isTerminatingParagraph only where sCount >= blkIndent), and with no paragraph there, the
    // item ends at this less indented line anyway ("- Run:\n  x\n2. Then:" is a new list's item).
    const ordered = /\d/.test(mark![0]!);
    const inItemRightOfIt = lines.lastIndent > indent && fenceItem(lines, lines.lastIndent) > indent;
    const sure = !ordered || /^1\D/.test(mark!) || lines.after !== 'text' || inItemRightOfIt;
    if (sure) item = column;
  }
  for (let t = 1; t <= 3; t++) if (indent < t) lines.below[t] = { indent, item };
  // An empty item ("1. " as a model starts a list it fills in later) leaves no paragraph open: a "2." after it is an
  // item, sure. Read as text, it left a code block in the next item open to its closing fence, and the table after
  // that item, read as code, had the pipes in its code spans split into cells (growing-list property test). Its own
  // column is not claimed: what follows it may be its content or not.
  const empty = outside && indent <= 1 && lines.after === 'none' && EMPTY_ITEM.test(line) && !BREAK.test(line);
  const endsParagraph = closed || empty || (outside && (HEADING.test(line) || BREAK.test(line)));
  lines.after = endsParagraph ? 'none' : item > 0 ? 'item' : 'text';
  lines.lastIndent = indent;
}

/**
 * The content column of the list item a fence line indented `indent` columns is in, when that is sure; 0 otherwise
 * (at the top level, or not known). Every line between the item's first line and the fence is indented at least as
 * much as the item's content, so all of them are the item's.
 */
export function fenceItem(lines: ListLines, indent: number): number {
  let t = indent;
  while (t >= 1 && t <= 3) {
    const above = lines.below[t];
    if (!above) return 0;
    if (above.item > 0) return above.item <= t ? above.item : 0;
    // A line of the item's text indented less than the fence: the item must start above it, indented less still.
    if (above.indent < 2) return 0;
    t = above.indent;
  }
  return 0;
}
