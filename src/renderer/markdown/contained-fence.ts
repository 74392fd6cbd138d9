/**
 * A code block still streaming inside a list item (`1. Run:\n   ```bash`) or a quote (`> ```py`), read line by line as
 * markdown-it reads it, so growing-fence.ts can draw it at the cost of its new text as it does a top-level one. Drawn
 * whole, the whole list or quote was parsed, highlighted and set again at every token: O(n^2) over its stream.
 *
 * What a code line is inside its container depends on two columns only: the one a line must reach to stay in the list
 * item (a line less indented ends the item, and the code block with it), and how much indent markdown-it takes off
 * each code line (the fence line's own). Both are asked of markdown-it once per block, by parsing the text before
 * the code with a probe line after it, not worked out here from list markers: its answer is the rule. A list item in a
 * quote is read as a list item once each line's `>` and its space are off; a quote in a list item as a quote once the
 * item's indent is off (its `>` may stand anywhere right of the item's content column: markdown-it's blockquote rule
 * checks no indent on the lines after its first). A tab is read as markdown-it reads it: to the next multiple of 4
 * columns, counted in a quote from where the line's `>` and the space after it end (StateBlock's bsCount), the part of
 * one past the stripped indent kept as spaces. A line that is no quote line of a block in a quote (a lazy line, a
 * blank one) ends the block, as markdown-it ends it (its fence rule does not go on lazily). A block in a fold, or in
 * deeper containers (a quote in a quote, a list in a quote in a list), is not read here (null: the chunk is drawn
 * whole, as before).
 */
import type { Token } from 'markdown-it';
import { mathEnabled, parseMarkdown } from './to-html';

/** The container an open code block is in, as its code lines are read. */
export interface FenceContainer {
  /**
   * 'quoted-list': a list item in a quote (its columns counted after the quote's `>` and its one space). 'listed-quote':
   * a quote in a list item.
   */
  kind: 'list' | 'quote' | 'quoted-list' | 'listed-quote';
  /** The column a line must reach to stay in the list item (0 in a quote and in a list item's quote). */
  inner: number;
  /** In a list item's quote: the column its lines' `>` must reach to stay in the item (the item's content column). */
  outer: number;
  /** Columns of indent markdown-it takes off each code line (after a quote's `>` and its one space). */
  strip: number;
}

/** An open code block in a container: where it opens in the tail and how its lines are read. */
export interface ContainedFence {
  /** Where the fence's line starts, and where the code starts (after that line). */
  lineStart: number;
  codeStart: number;
  marker: string;
  info: string;
  container: FenceContainer;
}

/** Whether `text` (a line's text after its indent) closes a fence opened with `marker`. */
function closes(text: string, marker: string): boolean {
  const m = /^(`{3,}|~{3,})[ \t]*$/.exec(text);
  return !!m && m[1]![0] === marker[0] && m[1]!.length >= marker.length;
}

/**
 * The code a line of the block holds (without its newline), or null when the line ends the block: it closes it,
 * leaves the container, or is one not read here (a tab in its indent).
 */
export function containedCodeLine(container: FenceContainer, marker: string, line: string): string | null {
  let body = line;
  let bsCount = 0;
  if (container.kind !== 'list') {
    const quoted = quoteLine(line, container.kind === 'listed-quote' ? container.outer : 0);
    // Not a quote line: a blank one ends the quote, any other is no code of a block in it (markdown-it: no lazy code).
    if (!quoted) return null;
    ({ body, bsCount } = quoted);
  }
  // The columns of its indent, a tab to the next multiple of 4 (counted from where a quote's markup ends: bsCount), and
  // how many of its characters markdown-it strips: those it reads while fewer than `strip` columns are behind it
  // (StateBlock.getLines). A tab that runs past `strip` is stripped whole, and the columns it had past it are given
  // back as spaces (`pad`), as markdown-it does.
  let column = 0;
  let stripped = 0;
  let pad = 0;
  let at = 0;
  for (; at < body.length && (body[at] === ' ' || body[at] === '\t'); at++) {
    const next = body[at] === '\t' ? column + 4 - ((column + bsCount) % 4) : column + 1;
    if (column < container.strip) {
      stripped = at + 1;
      pad = Math.max(0, next - container.strip);
    }
    column = next;
  }
  const code = `${' '.repeat(pad)}${body.slice(stripped)}`;
  if (at === body.length) return code;
  if (column < container.inner) return null;
  if (column - container.inner < 4 && closes(body.slice(at), marker)) return null;
  return code;
}

/**
 * A quote line's text after its `>` and the space or tab markdown-it takes with it, and the columns its tabs count
 * from (markdown-it's blockquote rule: bsCount); null when the line is none of the quote's, its `>` left of `from`.
 */
function quoteLine(line: string, from: number): { body: string; bsCount: number } | null {
  let column = 0;
  let at = 0;
  for (; line[at] === ' ' || line[at] === '\t'; at++) column += line[at] === '\t' ? 4 - (column % 4) : 1;
  if (line[at] !== '>' || column < from) return null;
  at++;
  // A space after the `>` is the marker's; so is a tab that ends at the next column (else it is kept, one column less).
  const spaceAfter = line[at] === ' ' || line[at] === '\t';
  if (line[at] === ' ' || (line[at] === '\t' && (column + 1) % 4 === 3)) at++;
  return { body: line.slice(at), bsCount: column + 1 + (spaceAfter ? 1 : 0) };
}

/** A line's text past any quote markers, list markers and indent: where a fence marker would start. */
const CONTAINER_MARKUP = /^(?:[ \t]*(?:>|(?:[-*+]|\d{1,9}[.)])(?=[ \t]|$)))*[ \t]*/;

/** The last fence line that a quick read of the lines leaves open; only a candidate, which markdown-it confirms. */
function candidate(tail: string): { lineStart: number; lineEnd: number; line: number } | null {
  let open: { lineStart: number; lineEnd: number; line: number; marker: string } | null = null;
  let at = 0;
  for (let line = 0; at < tail.length; line++) {
    const end = tail.indexOf('\n', at);
    const lineEnd = end === -1 ? tail.length : end;
    const text = tail.slice(at, lineEnd);
    const body = text.slice(CONTAINER_MARKUP.exec(text)![0].length);
    const fence = /^(`{3,}|~{3,})(.*)$/.exec(body);
    if (fence) {
      if (open === null) {
        if (!(fence[1]![0] === '`' && fence[2]!.includes('`'))) open = { lineStart: at, lineEnd, line, marker: fence[1]! };
      } else if (closes(body, open.marker)) open = null;
    }
    if (end === -1) break;
    at = end + 1;
  }
  return open;
}

/** The content of the text's last code block, when it is the last block and runs to the end; null otherwise. */
function lastFenceContent(tokens: Token[]): { token: Token; stack: string[] } | null {
  let last = tokens.length - 1;
  while (last >= 0 && tokens[last]!.nesting === -1) last--;
  const token = tokens[last];
  if (!token || token.type !== 'fence') return null;
  const stack: string[] = [];
  for (let i = 0; i < last; i++) {
    const t = tokens[i]!;
    if (t.nesting === 1) stack.push(t.type);
    else if (t.nesting === -1) stack.pop();
  }
  return { token, stack };
}

/**
 * The code block markdown-it opens on line `line` of `prefix` (the text up to the end of that line), with the blocks
 * it is in, when it is the text's last block; null otherwise. A quick read of the lines cannot tell all that ends a
 * block: a line indented less than its list item ends the item and its block, and a fence line after it opens one.
 */
export function confirmedFence(prefix: string, line: number): { token: Token; stack: string[] } | null {
  const found = lastFenceContent(parseMarkdown(prefix));
  return found && found.token.content === '' && found.token.map?.[0] === line ? found : null;
}

/** The code markdown-it gives the open block when `line` follows the text before the code; null when it ends it. */
function probe(prefix: string, line: string): string | null {
  const found = lastFenceContent(parseMarkdown(`${prefix}${line}\n`));
  return found && found.token.content.endsWith('x\n') ? found.token.content : null;
}

/** Probe lines put this many spaces before their text: more than a fence's indent can be in any list we read. */
const PROBE_INDENT = 40;

/**
 * The code block the tail ends inside, when it is in a list item or a quote and read here; null otherwise (also for
 * one at the top level: growing-fence.ts draws those itself). Parses the text before the code a few times: called
 * until a block is found, and once per block.
 */
export function findContainedFence(tail: string): ContainedFence | null {
  const open = candidate(tail);
  if (!open || open.lineEnd === tail.length) return null;
  const prefix = tail.slice(0, open.lineEnd + 1);
  // Asked again at each token while the block is not drawn here (a line it cannot read): answered from the last time,
  // as long as KaTeX has not come since (it reads `$$` lines anew).
  const key = `${mathEnabled() ? '$' : ''}${prefix}`;
  if (last?.key === key) return last.found;
  const found = containedFence(prefix, open);
  last = { key, found };
  return found;
}

/** The last answer of findContainedFence, by the text up to the fence's line. */
let last: { key: string; found: ContainedFence | null } | undefined;

function containedFence(prefix: string, open: { lineStart: number; lineEnd: number; line: number }): ContainedFence | null {
  const found = confirmedFence(prefix, open.line);
  if (!found) return null;
  const { stack } = found;
  const listTypes = (types: string[]) => types.length > 0 && types.every((type) => type === 'bullet_list_open' || type === 'ordered_list_open' || type === 'list_item_open');
  // A list item in a quote: its lines are a quote's, read as a list item's once the `>` and its space are off.
  const quotedList = stack[0] === 'blockquote_open' && listTypes(stack.slice(1));
  // A quote in a list item: its lines are the item's, read as a quote's once the item's indent is off.
  const listedQuote = stack.at(-1) === 'blockquote_open' && listTypes(stack.slice(0, -1));
  const inList = listTypes(stack) || quotedList;
  const inQuote = stack.length === 1 && stack[0] === 'blockquote_open';
  if (!inList && !inQuote && !listedQuote) return null;
  let outer = 0;
  if (listedQuote) {
    // The item's content column, asked of markdown-it: a quote line goes on the block from there on (and only there:
    // a `>` left of it is no line of the item). Its fence line's `>` is at that column or right of it.
    const fenceLine = prefix.slice(open.lineStart, open.lineEnd);
    let high = columnOf(fenceLine, fenceLine.lastIndexOf('>', fenceLine.search(/`{3,}|~{3,}/)));
    if (high < 0) return null;
    for (let low = 0; low < high; ) {
      const mid = (low + high) >> 1;
      if (probe(prefix, `${' '.repeat(mid)}> ${' '.repeat(PROBE_INDENT)}x`) === null) low = mid + 1;
      else high = mid;
    }
    outer = high;
  }
  const lead = listedQuote ? `${' '.repeat(outer)}> ` : inQuote || quotedList ? '> ' : '';
  const deep = probe(prefix, `${lead}${' '.repeat(PROBE_INDENT)}x`);
  if (deep === null) return null;
  const strip = PROBE_INDENT - (deep.length - deep.trimStart().length);
  let inner = 0;
  if (inList) {
    // The fence is less than 4 columns past the item's content column (else it would be indented code).
    inner = Math.max(0, strip - 3);
    while (inner <= strip && probe(prefix, `${lead}${' '.repeat(inner)}x`) === null) inner++;
    if (inner > strip) return null;
  }
  const { token } = found;
  const kind = listedQuote ? 'listed-quote' : quotedList ? 'quoted-list' : inList ? 'list' : 'quote';
  return { lineStart: open.lineStart, codeStart: open.lineEnd + 1, marker: token.markup, info: token.info, container: { kind, inner, outer, strip } };
}

/** The column where a line's character `at` stands, its tabs to the next multiple of 4 (-1 for no character). */
function columnOf(line: string, at: number): number {
  if (at < 0) return -1;
  let column = 0;
  for (let i = 0; i < at; i++) column += line[i] === '\t' ? 4 - (column % 4) : 1;
  return column;
}
