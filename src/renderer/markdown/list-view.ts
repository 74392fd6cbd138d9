/**
 * A streaming list drawn item by item (growing-list.ts reads where its items start): each finished item is parsed
 * and sanitized once, as a list of one item, and only the last item at each token. All of them again only when the
 * list turns loose (a blank line between two items, or two blocks of an item): every item's text then goes in `<p>`.
 * A last item that ends in a list or a table of its own is drawn as its head and that list, itself item by item, or
 * that table, row by row (Sublist).
 * Pure but for the sanitizer it is given (render.ts gives DOMPurify), so the draft's HTML is tested against
 * markdownToHtml of the same text without a DOM.
 */
import { growList, listItems, type ListDraft } from './growing-list';
import { withPendingTable } from './pending-table';
import { DELIMITER_ROW, drawTable, tableViewHtml, type TableView } from './table-view';
import { grewFrom } from './text-growth';
import { listItemHtml, parseListItem, type LinkReferences, type ListItemParse } from './to-html';

/** One item of the view. */
interface ItemView {
  /** Its parse, until its HTML is made. */
  parse: ListItemParse | null;
  /** A blank line between two of its own blocks. */
  loose: boolean;
  /** Whether `html` was made for a loose list. */
  drawnLoose: boolean;
  /** What its `<li>` holds, sanitized. */
  html: string;
  /**
   * The last item, when it ends in a list or a table of its own: drawn as its head and that list, item by item, or
   * that table, row by row.
   */
  sublist?: Sublist;
}

/**
 * The last item of a list ending in a list of its own ("2. The tips:" and 300 sub-items under it), or a table: what
 * comes before that list (its head) is drawn once, and the list as a list of its own, item by item (a table as a
 * table of its own, row by row). Drawn whole, the item cost the whole sub-list at every token (about 11 ms a token
 * for 300 sub-items, bench/streaming-code).
 */
interface Sublist extends SublistLines {
  /** The item's text it was drawn from. */
  itemText: string;
  /** The item's text up to the sub-list's first line. */
  headText: string;
  /** The head's parse, with a one-item list like the sub-list's first line after it, or the table's first two lines. */
  parse: ListItemParse;
  /** That stand-in's HTML, to be cut off the head's. */
  stand: string;
  /** The head's HTML, sanitized, with the blank line markdown-it puts before the sub-list (once drawn). */
  head: string;
  /** Whether `head` was drawn for a loose list; null until drawn. */
  drawnLoose: boolean | null;
  /** The sub-list, or the table (one of the two). */
  list: ListView | null;
  table: TableView | null;
}

/** A streaming tail that is one list, ready to draw. */
export interface ListView {
  draft: ListDraft;
  references: LinkReferences | undefined;
  nested: boolean;
  /** `<ol>` or `<ul>`. */
  tag: 'ol' | 'ul';
  /** An ordered list's first number, when not 1 (markdown-it writes `start` only then). */
  start: number | undefined;
  /** Every item, the last one (still streaming) included. */
  items: ItemView[];
}

/**
 * The view of `tail`, a streaming answer's last chunk, from `prev` (the view before this token); null when the tail
 * is not one list as markdown-it reads it, or is one drawn whole for another reason (a table's header row waiting
 * for its delimiter row: pending-table.ts draws that from the whole tail). `indent`: how far the answer indents the
 * list's lines (a sub-list's, drawn from its lines less its item's indent: Sublist).
 */
export function drawList(prev: ListView | null | undefined, tail: string, references: LinkReferences | undefined, nested: boolean, sanitize: (html: string) => string, indent = 0): ListView | null {
  const draft = growList(prev?.draft, tail);
  if (!draft || withPendingTable(tail) !== tail) return null;
  const texts = listItems(draft);
  // An earlier item is the same text when the tail only grew and the item starts and ends where it did.
  const same = prev && prev.references === references && prev.nested === nested && grewFrom(tail, prev.draft.raw) ? prev : undefined;
  // An item of the same list after each: whether the item makes the list loose shows in that item's paragraph.
  const next = `${draft.ordered ? '1' : ''}${draft.kind} x`;
  const parseItem = (text: string) => parseListItem(text, next, references, { nested });
  const items: (ItemView | null)[] = texts.map((text, i) => {
    const old = same?.items[i];
    if (i === texts.length - 1) {
      const before = same?.draft.starts[i] === draft.starts[i] ? old?.sublist : undefined;
      const sub = drawSublist(before, text, draft.column, indent, next, references, sanitize);
      if (sub) return { parse: null, loose: sub.parse.loose, drawnLoose: false, html: '', sublist: sub };
      return lastItem(text, parseItem, (whole) => parseListItem(whole, '', references, { nested }));
    }
    if (old && same.draft.starts[i] === draft.starts[i] && same.draft.starts[i + 1] === draft.starts[i + 1]) return old;
    const parse = parseItem(text);
    return parse && { parse, loose: parse.loose, drawnLoose: false, html: '' };
  });
  if (items.some((item) => item === null)) return null;
  const loose = draft.blankBetween || items.some((item) => item!.loose);
  const drawn: ItemView[] = [];
  for (const [i, item] of (items as ItemView[]).entries()) {
    if (item.sublist) {
      const sub = drawHead(item.sublist, loose, sanitize);
      if (!sub) return null;
      drawn.push({ ...item, sublist: sub });
      continue;
    }
    if (item.parse === null && item.drawnLoose === loose) {
      drawn.push(item);
      continue;
    }
    const parse = item.parse ?? parseItem(texts[i]!);
    const html = parse && innerHtml(sanitize(listItemHtml(parse, loose)));
    if (html === null || html === undefined) return null;
    drawn.push({ parse: null, loose: item.loose, drawnLoose: loose, html });
  }
  return { draft, references, nested, tag: draft.ordered ? 'ol' : 'ul', start: draft.ordered && draft.start !== 1 ? draft.start : undefined, items: drawn };
}

/** The start of an item's first line, still streaming ("2", "-"): it may yet start the next item. */
const ITEM_SO_FAR = /\n {0,3}(?:[-+*]|\d{1,9}[.)]?)$/;

/**
 * The last item without its last line, when that line may yet start the next item: "1. a\n\n2" reads as a list and
 * a paragraph "2" until the `.` comes, and drawn so for a token it would also drop every item's drawn HTML (the
 * tail drawn whole). Held back a token, as a table's lone `|` is (pending-table.ts).
 */
function heldBack(text: string): string | null {
  const found = ITEM_SO_FAR.exec(text);
  return found ? text.slice(0, found.index + 1) : null;
}

/**
 * The last item's view, drawn from its own parse (with an item put after it, its code's last line would gain a line
 * break). Whether it makes the list loose is read with that item after it, and without the blank lines it ends with
 * (no item follows them yet); only for an item with a blank line in it: without one, it cannot.
 */
function lastItem(text: string, withNext: (text: string) => ListItemParse | null, alone: (text: string) => ListItemParse | null): ItemView | null {
  const held = heldBack(withoutBlankEnd(text));
  for (const drawn of held === null ? [text] : [text, held]) {
    const parse = alone(drawn);
    if (!parse) continue;
    const body = withoutBlankEnd(drawn);
    const loose = BLANK_LINE.test(body) ? withNext(body)?.loose : false;
    if (loose === undefined) return null;
    return { parse, loose, drawnLoose: false, html: '' };
  }
  return null;
}

const BLANK_LINE = /\n[ \t]*\n/;
const withoutBlankEnd = (text: string) => text.replace(/(?:\n[ \t]*)+$/, '');

/** What the `<li>` of a list of one item holds; null when the list's HTML is not a plain `<li>` in a list. */
function innerHtml(list: string): string | null {
  const open = list.indexOf('<li');
  const close = list.lastIndexOf('</li>');
  return open === -1 || !list.startsWith('<li>', open) || close < open ? null : list.slice(open + 4, close);
}

/**
 * The last item's view as its head and its sub-list or table (Sublist's comment), or null when it is not one: the
 * item's text goes on, after its first line, to a line that starts a list indented as the item's content (`column`),
 * with text after its marker, or a table (firstLines), and every line from there on is indented as far (blank lines
 * aside), so that those lines less the indent are the sub-list's text. Whether they are a list there is markdown-it's
 * to say: the head is parsed with a one-item list like the sub-list's first line after it (an ordered list not
 * starting at 1, or a line in an open code block, is no list there), or with the table's header and delimiter rows,
 * and the sub-list is drawn only where that parse ends in that list or table. `outer`: the indent of the lists this
 * one is in. `prev`: the item's view before this token (its head kept while its text is the same).
 */
function drawSublist(prev: Sublist | undefined, text: string, column: number, outer: number, next: string, references: LinkReferences | undefined, sanitize: (html: string) => string): Sublist | null {
  const indent = ' '.repeat(column);
  // A pipe in a code span of a table's row is escaped only in a row indented less than 4 spaces in the answer
  // (table-code-pipes.ts): where the items' indents (this one's and `outer`, its lists') take such a row to 4, a table
  // or an item drawn on its own would read it otherwise, and the item is drawn whole.
  const deep = Math.max(0, 4 - outer - column);
  const lines = prev && grewFrom(text, prev.itemText) ? grownLines(prev, text, indent, deep) : firstLines(text, indent, deep);
  if (!lines || lines.codePipes) return null;
  const isList = SUBLIST_START.test(lines.subText.slice(0, 16));
  const list = isList ? drawList(prev?.list, lines.subText, references, true, sanitize, outer + column) : null;
  const table = isList ? null : drawTable(prev?.table, lines.subText, references, true, sanitize);
  if (!list && !table) return null;
  const headText = text.slice(0, lines.start);
  const same = list ? prev?.list && prev.list.tag === list.tag && prev.list.start === list.start : prev?.table && prev.table.head === table!.head;
  if (prev && same && prev.headText === headText) return { ...prev, ...lines, itemText: text, list, table };
  let standText: string;
  let stand: string;
  if (list) {
    stand = `<${list.tag}${list.start !== undefined ? ` start="${list.start}"` : ''}>\n<li>x</li>\n</${list.tag}>\n`;
    // The stand-in indented as the sub-list's first line: one more indented may be in an item of the head's instead.
    const lead = /^ */.exec(lines.subText)![0];
    standText = `${indent}${lead}${list.tag === 'ol' ? list.draft.start : ''}${list.draft.kind} x`;
  } else {
    stand = `<table>\n<thead>${table!.head}</thead>\n</table>\n`;
    standText = lines.subText.split('\n', 2).map((line) => `${indent}${line}`).join('\n');
  }
  const parse = parseListItem(`${headText}${standText}`, next, references, { nested: true });
  return parse && { ...lines, itemText: text, headText, parse, stand, head: '', drawnLoose: null, list, table };
}

/** Where an item's sub-list starts, and its lines less the item's indent. */
interface SublistLines {
  start: number;
  subText: string;
  /** Where the last line starts, in the item's text and in `subText`: the lines before it are read once. */
  lastLine: number;
  subLastLine: number;
  /** A line of the sub-list indented 4 or more in the answer holds a pipe and a backtick (drawSublist). */
  codePipes: boolean;
}

/**
 * The sub-list's lines in an item's text read for the first time (drawSublist's comment), or null. A table starts at
 * a line with a pipe indented as the item's content whose next line, indented as far, is made as a delimiter row is.
 */
function firstLines(text: string, indent: string, deep: number): SublistLines | null {
  for (let at = text.indexOf('\n') + 1; at > 0 && at < text.length; at = text.indexOf('\n', at) + 1) {
    if (!text.startsWith(indent, at)) continue;
    const end = text.indexOf('\n', at);
    const line = text.slice(at + indent.length, end === -1 ? text.length : end);
    const nextEnd = end === -1 ? -1 : text.indexOf('\n', end + 1);
    const nextLine = end === -1 ? '' : text.slice(end + 1, nextEnd === -1 ? text.length : nextEnd);
    const tableStart = line.includes('|') && nextLine.startsWith(indent) && DELIMITER_ROW.test(nextLine.slice(indent.length));
    if (tableStart || SUBLIST_START.test(line.slice(0, 16))) return grownLines({ start: at, subText: '', lastLine: at, subLastLine: 0, codePipes: false }, text, indent, deep);
  }
  return null;
}

/** The sub-list's lines once the item's text grew: only the lines from the last one read before are read again. */
function grownLines(prev: SublistLines, text: string, indent: string, deep: number): SublistLines | null {
  const lines = text.slice(prev.lastLine).split('\n');
  if (lines.some((line) => !line.startsWith(indent) && line.trim() !== '')) return null;
  const sub = lines.map((line) => line.slice(indent.length));
  const subText = prev.subText.slice(0, prev.subLastLine) + sub.join('\n');
  const codePipes = prev.codePipes || sub.some((line) => line.includes('`') && line.includes('|') && line.length - line.trimStart().length >= deep);
  return { start: prev.start, subText, lastLine: text.lastIndexOf('\n') + 1, subLastLine: subText.lastIndexOf('\n') + 1, codePipes };
}

/** A sub-list's first line: a marker, spaces, then text (an empty item cannot start a list after a paragraph). */
const SUBLIST_START = /^ {0,3}(?:[-+*]|\d{1,9}[.)]) +\S/;

/** The sub-list item's head drawn for a list as loose as `loose`, or null when its parse does not end in the stand-in. */
function drawHead(sub: Sublist, loose: boolean, sanitize: (html: string) => string): Sublist | null {
  if (sub.drawnLoose === loose) return sub;
  const html = innerHtml(sanitize(listItemHtml(sub.parse, loose)));
  if (html === null || !html.endsWith(sub.stand)) return null;
  return { ...sub, head: html.slice(0, html.length - sub.stand.length), drawnLoose: loose };
}

/** The view's HTML as one string, as markdownToHtml writes a list (for tests and bench/streaming-code). */
export function listViewHtml(view: ListView): string {
  const attrs = `${view.start !== undefined ? ` start="${view.start}"` : ''}${view.nested ? '' : ' dir="auto"'}`;
  return `<${view.tag}${attrs}>\n${view.items.map((item) => `<li>${itemHtml(item)}</li>\n`).join('')}</${view.tag}>\n`;
}

/** What an item's `<li>` holds: its HTML, or its head and sub-list or table. */
function itemHtml(item: ItemView): string {
  const sub = item.sublist;
  if (!sub) return item.html;
  return `${sub.head}${sub.list ? listViewHtml(sub.list) : tableViewHtml(sub.table!)}`;
}
