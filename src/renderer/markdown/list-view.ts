/**
 * A streaming list drawn item by item (growing-list.ts reads where its items start): each finished item is parsed
 * and sanitized once, as a list of one item, and only the last item at each token. All of them again only when the
 * list turns loose (a blank line between two items, or two blocks of an item): every item's text then goes in `<p>`.
 * Pure but for the sanitizer it is given (render.ts gives DOMPurify), so the draft's HTML is tested against
 * markdownToHtml of the same text without a DOM.
 */
import { growList, listItems, type ListDraft } from './growing-list';
import { withPendingTable } from './pending-table';
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
 * for its delimiter row: pending-table.ts draws that from the whole tail).
 */
export function drawList(prev: ListView | null | undefined, tail: string, references: LinkReferences | undefined, nested: boolean, sanitize: (html: string) => string): ListView | null {
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
    if (i === texts.length - 1) return lastItem(text, parseItem, (whole) => parseListItem(whole, '', references, { nested }));
    if (old && same.draft.starts[i] === draft.starts[i] && same.draft.starts[i + 1] === draft.starts[i + 1]) return old;
    const parse = parseItem(text);
    return parse && { parse, loose: parse.loose, drawnLoose: false, html: '' };
  });
  if (items.some((item) => item === null)) return null;
  const loose = draft.blankBetween || items.some((item) => item!.loose);
  const drawn: ItemView[] = [];
  for (const [i, item] of (items as ItemView[]).entries()) {
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

/** The view's HTML as one string, as markdownToHtml writes a list (for tests and bench/streaming-code). */
export function listViewHtml(view: ListView): string {
  const attrs = `${view.start !== undefined ? ` start="${view.start}"` : ''}${view.nested ? '' : ' dir="auto"'}`;
  return `<${view.tag}${attrs}>\n${view.items.map((item) => `<li>${item.html}</li>\n`).join('')}</${view.tag}>\n`;
}
