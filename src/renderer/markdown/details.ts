/**
 * `<details><summary>…</summary> … </details>`, which models write to fold away a long part of an answer (the full
 * file, the derivation, "Click to expand"), as a real collapsible element. Markdown runs with raw HTML off
 * (to-html.ts), so it showed as escaped tags around the text. Only the bare tags, each on a line of its own (as
 * models write them, and as GitHub renders them); `<details open>` is the one attribute read. What the model wrote
 * never reaches the page as HTML: the tags are tokens markdown-it draws as bare `<details>` and `<summary>`, the
 * summary is inline markdown, and what is inside is markdown (a code block, a list, another `<details>`). A
 * `<details>` with any other attribute (`ontoggle=…`) stays text. An unclosed one (still streaming) runs to the
 * end of the text.
 */
import type { MarkdownIt, StateBlock } from 'markdown-it';

/** `<details>` or `<details open>`, and a summary on the same line. */
export const OPEN = /^<details( open)?>\s*(?:<summary>(.*)<\/summary>)?\s*$/i;
export const SUMMARY = /^<summary>(.*)<\/summary>$/i;
const CLOSE = /^<\/details>$/i;
/** Text that ends with the close, `last line.</details>`, as models also write it (a line with no open in it). */
export const TRAILING_CLOSE = /<\/details>$/i;
/** A fence, in which a `</details>` line is code. */
export const FENCE = /^(?:`{3,}|~{3,})/;

/** The line's text after its indent, or null when it is indented as code (four spaces or more). */
function lineText(state: StateBlock, line: number): string | null {
  if (state.sCount[line]! - state.blkIndent >= 4) return null;
  return state.src.slice(state.bMarks[line]! + state.tShift[line]!, state.eMarks[line]).trim();
}

/**
 * Where the `<details>` opened at `start` closes: its `</details>` line, and whether text comes before the tag on
 * it; `end` when it does not close.
 */
function closingLine(state: StateBlock, start: number, end: number): { line: number; trailing: boolean } {
  let depth = 1;
  let fence: string | null = null;
  for (let line = start + 1; line < end; line++) {
    const text = lineText(state, line);
    if (text === null) continue;
    const marker = FENCE.exec(text)?.[0];
    if (marker) {
      if (fence === null) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length && text === marker) fence = null;
      continue;
    }
    if (fence !== null) continue;
    if (OPEN.test(text)) depth++;
    else if (TRAILING_CLOSE.test(text) && !/<details/i.test(text) && --depth === 0) return { line, trailing: !CLOSE.test(text) };
  }
  return { line: end, trailing: false };
}

function details(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  const first = lineText(state, startLine);
  const open = first === null ? null : OPEN.exec(first);
  if (!open) return false;
  if (silent) return true;
  let contentStart = startLine + 1;
  let summary = open[2];
  // The summary on the next line, the other way models write it.
  if (summary === undefined && contentStart < endLine) {
    const next = lineText(state, contentStart);
    const written = next === null ? null : SUMMARY.exec(next);
    if (written) {
      summary = written[1];
      contentStart++;
    }
  }
  const { line: closeLine, trailing } = closingLine(state, contentStart - 1, endLine);
  // A close after text on its line: that line is content, read up to the tag.
  const close = trailing ? closeLine + 1 : closeLine;

  const opening = state.push('details_open', 'details', 1);
  opening.block = true;
  opening.map = [startLine, close];
  if (open[1]) opening.attrSet('open', '');
  // Still being written: no close yet, and the text is a streaming answer's tail (markdownToHtml's `streaming`). A
  // closed fold hides what streams into it, so its summary says it is not done (turns.css); a finished one does not.
  const writing = closeLine === endLine && !trailing && endLine === state.bMarks.length - 1;
  if (writing && (state.env as { streaming?: boolean }).streaming) opening.attrSet('data-writing', '');
  state.push('summary_open', 'summary', 1);
  const inline = state.push('inline', '', 0);
  // A details with no summary gets the browser's own word for it, written here so it reads the same everywhere.
  inline.content = (summary ?? '').trim() || 'Details';
  inline.map = [startLine, contentStart];
  inline.children = [];
  state.push('summary_close', 'summary', -1);

  const { parentType, lineMax } = state;
  state.parentType = 'details';
  state.lineMax = close;
  const lineEnd = state.eMarks[closeLine]!;
  const lineStart = state.bMarks[closeLine]!;
  if (trailing) state.eMarks[closeLine] = lineStart + state.src.slice(lineStart, lineEnd).toLowerCase().lastIndexOf('</details>');
  state.md.block.tokenize(state, contentStart, close);
  state.eMarks[closeLine] = lineEnd;
  state.parentType = parentType;
  state.lineMax = lineMax;

  state.push('details_close', 'details', -1).block = true;
  state.line = trailing ? close : Math.min(close + 1, endLine);
  return true;
}

/** The plugin: a block rule before the (disabled) HTML block rule; it may end a paragraph, as an HTML block does. */
export function detailsBlocks(md: MarkdownIt): void {
  md.block.ruler.before('html_block', 'details', details, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });
}
