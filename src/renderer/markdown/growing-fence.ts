/**
 * A code block still streaming at the end of an answer, drawn at the cost of what came since the last token. Drawn
 * whole (render.ts), an open fence's chunk was parsed and highlighted again at every token, so a long code block
 * cost O(n^2) over its stream and each frame grew with its length. Here its finished lines are highlighted once,
 * in pieces that never change again, and only the lines after the last piece are highlighted at each token.
 *
 * A piece ends where highlight.js is back at its grammar's top level (not inside a string, comment or signature
 * that goes on) and the next whole line does not change how the piece reads, so the pieces and the live lines,
 * each highlighted from the top, give the HTML that highlighting the whole code gives: the draft's HTML equals
 * markdownToHtml of the same text (test/renderer/growing-fence.test.ts, for any way the text is cut). A piece that
 * would not end at the top level (a long docstring) is not cut: the live lines grow until it ends.
 *
 * A fence that opens at the start of a line, outside any `<details>` or formula, or one in a list item or a quote
 * (contained-fence.ts reads its lines); otherwise null and the chunk is drawn whole. A `\r\n` or lone `\r` is read as
 * the line break markdown-it reads it as (line-breaks.ts).
 */
import { escapeHtml, codeBlockHead, codeBlockLabel, CODE_BLOCK_FOOT, fenceGrammar, fenceWord, grammarOnItsWay } from './to-html';
import { hljs } from './grammars';
import { markInvisible } from './invisible-chars';
import { scanLine, startScan } from './split-blocks';
import { asRead, readGrowth } from './line-breaks';
import { confirmedFence, containedCodeLine, findContainedFence, type FenceContainer } from './contained-fence';

/** A streaming tail that ends inside a code block. */
export interface FenceDraft {
  /**
   * The tail as it came. The draft keeps no copy of it as markdown-it reads it (its line breaks `\n`: line-breaks.ts),
   * only the code it has not cut into pieces yet (`code`, `unread`): each token is read at the cost of its own text.
   */
  raw: string;
  /** The markdown before the fence's line, drawn as any chunk is (render.ts). */
  before: string;
  /** The fence's marker, which a line of its own closes. */
  marker: string;
  /** Where the code starts in the tail: after the fence's line. */
  codeStart: number;
  /** The grammar it is highlighted with (null: plain code). */
  grammar: string | null;
  /** The code block's HTML up to the code's text. */
  head: string;
  /** Its language's label, as the head shows it. */
  label: string;
  /** The code's finished pieces, as HTML: each is kept as it is for the rest of the stream. */
  pieces: string[];
  /** Characters of code the pieces hold. */
  done: number;
  /** The HTML of the code after the pieces, drawn again at each token. */
  live: string;
  /** Lines of live code at which a cut was last tried (one is tried again only after PIECE_LINES more). */
  tried: number;
  /** Characters of live code at which a cut inside its last line was last tried (cutInLine). */
  triedInLine: number;
  /**
   * The list item or quote the block is in (null: at the top level). Its code is then not the tail's text: each line
   * is read without its container's markup, once, into `code`.
   */
  container: FenceContainer | null;
  /**
   * The code that no piece holds yet: at the top level, all of it to the end of the tail; in a container, that of the
   * whole lines read so far, each with its newline.
   */
  code: string;
  /** In a container: the tail's text from its first line not read yet (the last one, still growing). */
  unread: string;
  /**
   * Characters of the last line's code that pieces hold already (cut inside it: cutInLine): in a container, of the
   * line not read yet; at the top level, more than 0 while `code` starts inside a line.
   */
  lineDone: number;
}

/** Lines a piece is cut at, at least: each token highlights up to about this many lines again. */
const PIECE_LINES = 4;

/**
 * The chunk's whole HTML, as markdownToHtml draws the same text (tests and the bench use it). `beforeHtml`: the HTML
 * of draft.before; in a container, that is the whole chunk with the block's code still empty (its shell), and the
 * code goes where the block's code ends there (containedCodeAt).
 */
export function fenceDraftHtml(draft: FenceDraft, beforeHtml: string): string {
  if (draft.container) {
    const at = containedCodeAt(beforeHtml);
    return `${beforeHtml.slice(0, at)}${draft.pieces.join('')}${draft.live}${beforeHtml.slice(at)}`;
  }
  return `${beforeHtml}${draft.head}${draft.pieces.join('')}${draft.live}${CODE_BLOCK_FOOT}\n`;
}

/** Where the open block's code goes in its shell's HTML: the block runs to the end of the text, so it is the last. */
export function containedCodeAt(shellHtml: string): number {
  return shellHtml.lastIndexOf(CODE_BLOCK_FOOT);
}

/** Where the tail's last code block opens, when it is still open at the end and drawn here; null otherwise. */
function openFence(tail: string): { lineStart: number; codeStart: number; marker: string; info: string } | null {
  const scan = startScan();
  let open: { lineStart: number; codeStart: number; marker: string; info: string; line: number } | null = null;
  let at = 0;
  for (let n = 0; at <= tail.length; n++) {
    const end = tail.indexOf('\n', at);
    const line = tail.slice(at, end === -1 ? tail.length : end);
    const wasOutside = scan.fence === null && !scan.math && !scan.bracketMath && scan.details === 0;
    if (scanLine(scan, line) && scan.fence !== null) {
      const marker = scan.fence;
      const info = line.slice(marker.length);
      // Indented (in a list item, or a fence's content indent to strip), inside a fold or formula, or not yet a whole
      // line: drawn whole.
      const drawnHere = wasOutside && line.startsWith(marker) && end !== -1;
      open = drawnHere ? { lineStart: at, codeStart: end + 1, marker, info, line: n } : null;
    }
    if (end === -1) break;
    at = end + 1;
  }
  if (scan.fence === null || !open) return null;
  // Confirmed by markdown-it, once per block: a list item's block that an unindented line ended leaves the scan
  // inside it, and a fence line after it (a top-level one) taken for its close.
  const confirmed = confirmedFence(tail.slice(0, open.codeStart), open.line);
  return confirmed && confirmed.stack.length === 0 ? open : null;
}

/** Whether `line` closes a fence opened with `marker` (markdown-it: up to 3 spaces, the marker or longer, spaces). */
function closes(line: string, marker: string): boolean {
  const m = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
  return !!m && m[1]![0] === marker[0] && m[1]!.length >= marker.length;
}

function highlighted(code: string, grammar: string | null): { html: string; top: boolean } {
  if (grammar === null) return { html: escapeHtml(code), top: true };
  const result = hljs.highlight(code, { language: grammar, ignoreIllegals: true }) as { value: string; _top?: unknown };
  return { html: result.value, top: result._top === hljs.getLanguage(grammar) };
}

/**
 * The draft of `tail`, a streaming answer's last chunk, when it ends inside a code block drawn here; null
 * otherwise. `prev`: the draft of the text before this token, reused when `tail` only grew from it.
 */
export function growFence(prev: FenceDraft | null | undefined, raw: string): FenceDraft | null {
  const added = prev ? readGrowth(prev, raw) : null;
  let draft: FenceDraft;
  if (prev?.container && added !== null) {
    draft = { ...prev, raw, unread: prev.unread + added };
  } else if (prev && added !== null) {
    // Only the new text can close the fence: from the start of the line the last token ended in. A line a piece was
    // cut inside holds code before the cut, so it closes nothing ('x' stands for that code).
    const lineStart = prev.code.lastIndexOf('\n') + 1;
    const lastLine = lineStart === 0 && prev.lineDone > 0 ? 'x' : prev.code.slice(lineStart);
    for (const line of `${lastLine}${added}`.split('\n')) if (closes(line, prev.marker)) return null;
    draft = { ...prev, raw, code: prev.code + added };
  } else {
    const tail = asRead(null, raw);
    const top = openFence(tail);
    const contained = top ? null : findContainedFence(tail);
    const open = top ?? contained;
    if (!open) return null;
    const info = fenceWord(open.info);
    // A grammar on its way: drawn whole, which asks for it and draws the chunk again once it is in (render.ts).
    if (grammarOnItsWay(info)) return null;
    const grammar = fenceGrammar(info);
    // In a container, the markdown before the code is the chunk up to it (drawn as the block's shell: render.ts).
    const before = tail.slice(0, contained ? open.codeStart : open.lineStart);
    const code = tail.slice(open.codeStart);
    draft = { raw, before, marker: open.marker, codeStart: open.codeStart, grammar, head: markInvisible(codeBlockHead(info)), label: codeBlockLabel(info), pieces: [], done: 0, live: '', tried: 0, triedInLine: 0, container: contained?.container ?? null, code: contained ? '' : code, unread: contained ? code : '', lineDone: 0 };
  }
  const live = draft.container ? readContained(draft) : withoutBlankLastLine(draft.code);
  return live === null ? null : drawLive(draft, live);
}

/** markdown-it drops a last line of only spaces and tabs that has no newline yet (it counts no line there). */
function withoutBlankLastLine(code: string): string {
  const lastLine = code.lastIndexOf('\n') + 1;
  return lastLine < code.length && /^[ \t]+$/.test(code.slice(lastLine)) ? code.slice(0, lastLine) : code;
}

/**
 * A contained block's code after its pieces: the whole lines since the last token read into `draft.code` (once
 * each), and the last line, still growing, read on its own; null when a line ends the block.
 */
function readContained(draft: FenceDraft): string | null {
  const container = draft.container!;
  let read = 0;
  for (let end = draft.unread.indexOf('\n'); end !== -1; end = draft.unread.indexOf('\n', read)) {
    const code = containedCodeLine(container, draft.marker, draft.unread.slice(read, end));
    if (code === null) return null;
    draft.code += `${code.slice(draft.lineDone)}\n`;
    draft.lineDone = 0;
    read = end + 1;
  }
  if (read > 0) draft.unread = draft.unread.slice(read);
  // Nothing after the last newline is no line at all to markdown-it, nor is a last line of only spaces (in a list item;
  // after a quote's `>`, its spaces are code).
  const rest = draft.unread;
  const last = /^[ \t]*$/.test(rest) ? '' : containedCodeLine(container, draft.marker, rest);
  if (last === null) return null;
  return draft.code + last.slice(draft.lineDone);
}

/** The live code highlighted again, and cut into a new piece where it can be. */
function drawLive(draft: FenceDraft, code: string): FenceDraft {
  let live = code;
  const lines = countLines(live);
  if (lines >= draft.tried + PIECE_LINES + 1) {
    draft.tried = lines;
    // Cut before the last whole line, which is looked at to see that it does not change how the piece reads.
    const lastEnd = live.lastIndexOf('\n');
    const cut = live.lastIndexOf('\n', lastEnd - 1) + 1;
    if (cut > 0) {
      const piece = highlighted(live.slice(0, cut), draft.grammar);
      if (piece.top && /\S/.test(live.slice(cut, lastEnd)) && readsApart(draft.grammar, piece.html, live.slice(0, cut), live.slice(cut, lastEnd + 1))) {
        draft.pieces = draft.pieces.concat(markInvisible(piece.html));
        draft.done += cut;
        // Kept short: a long string built by appending is copied whole by the next slice of it.
        draft.code = draft.code.slice(cut);
        if (!draft.container) draft.lineDone = 0;
        draft.tried = 0;
        live = live.slice(cut);
      }
    }
  }
  live = cutInLine(draft, live);
  draft.live = markInvisible(highlighted(live, draft.grammar).html);
  return draft;
}

/**
 * A line longer than this is cut into pieces inside itself (cutInLine). The live part of a long line runs from about
 * LOOKAHEAD characters after a cut to this many, and is highlighted again at each token: at 1,000, about 650
 * characters a token, three times a token's near the line's start (bench/streaming-code, JSON in a list item); at
 * 400, about 320, and the whole stream's work less than half.
 */
const LONG_LINE = 400;
/** Characters after a cut inside a line that are looked at to see that they do not change how the piece reads. */
const LOOKAHEAD = 200;

/**
 * The live code, cut into a new piece inside its last line when that line is long: minified JSON, a data URL or a
 * generated table on one line never ended a line to cut at, so it was highlighted whole at every token (a line of
 * 34,000 characters of JSON took about 50 ms a token near its end). The cut comes after a comma, a semicolon or a
 * space, at least LOOKAHEAD characters before the end, and is kept only where highlight.js is at its grammar's top
 * level there and the text after it does not change how the piece reads (as for a cut between lines). In a list item
 * or a quote too (the line's code is read anew at each token, without its container's markup, and the part of it that
 * pieces hold is left out: draft.lineDone), where a line of a file the model writes out for a step is as long.
 */
function cutInLine(draft: FenceDraft, live: string): string {
  const lineStart = live.lastIndexOf('\n') + 1;
  if (live.length - lineStart <= LONG_LINE || live.length < draft.triedInLine + LONG_LINE / 2) return live;
  draft.triedInLine = live.length;
  let cut = live.length - LOOKAHEAD;
  const floor = Math.max(lineStart + 1, cut - LONG_LINE);
  while (cut > floor && !/[,; ]/.test(live[cut - 1]!)) cut--;
  if (cut <= floor) return live;
  const piece = highlighted(live.slice(0, cut), draft.grammar);
  if (!piece.top || !readsApart(draft.grammar, piece.html, live.slice(0, cut), live.slice(cut))) return live;
  draft.pieces = draft.pieces.concat(markInvisible(piece.html));
  draft.done += cut;
  draft.triedInLine = 0;
  // In a container, the whole lines before the cut are in the piece, and part of the last one.
  draft.lineDone += cut - lineStart;
  draft.code = draft.container ? '' : draft.code.slice(cut);
  return live.slice(cut);
}

/**
 * Whether `piece` (highlighted as `pieceHtml`, at its grammar's top level) and the text after it highlight, each from
 * the top, as the two together do: the draft draws them apart. Not only the piece's own HTML must stay as it was
 * (what was checked before): the text after it must read alone as it reads after the piece. A property-test
 * counterexample (seed -1321334948): a TypeScript piece that ended in `function`, then `foo()`, which highlight.js
 * reads as a signature across the line break (`function\s+foo(?=\s*\()`), drawn apart as a call. A piece that ends
 * in a keyword is not cut at all: a construct opened by one (`function`, `class`, `def`) may go on past any
 * lookahead, as a blank line may come before its name.
 */
function readsApart(grammar: string | null, pieceHtml: string, piece: string, after: string): boolean {
  if (grammar === null) return true;
  if (ENDS_IN_KEYWORD.test(pieceHtml) || tagMayCloseLater(piece, grammar)) return false;
  return highlighted(piece + after, grammar).html === pieceHtml + highlighted(after, grammar).html;
}

/** HTML that ends in a keyword's span, then only white space. */
const ENDS_IN_KEYWORD = /<span class="hljs-keyword">[^<]*<\/span>\s*$/;

/**
 * Whether code highlighted as JavaScript or TypeScript holds a `<name>` whose `</name` is not in it. highlight.js
 * reads `<name>` as the start of JSX only where the rest of the whole code holds `</name` (its XML_TAG rule looks
 * ahead to the end): a piece cut after such a tag could read otherwise once its close comes, any number of lines
 * later, so no line of lookahead can clear it (a property-test counterexample: `<details>`, then "```py", then
 * `</details>` in a ts block).
 */
function tagMayCloseLater(code: string, grammar: string | null): boolean {
  if (grammar !== 'javascript' && grammar !== 'typescript') return false;
  for (const m of code.matchAll(/<([A-Za-z0-9\\._:-]+)>/g)) {
    if (!code.includes(`</${m[1]!}`, m.index + m[0].length)) return true;
  }
  return false;
}

function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
