/**
 * A `<details>` fold still open at the end of a streaming answer (details.ts), drawn as its content's chunks. An
 * open fold holds blank lines, so it kept the rest of the answer in one chunk that was parsed again (and its code
 * highlighted again) at every token: O(n^2) over a long fold. Here the fold's shell is found once, where the lines
 * are read only as they come, and its content is cut into chunks as an answer is (split-blocks.ts): the finished
 * ones are drawn once, the last one as a growing tail (a code block in it as growing-fence.ts draws it).
 *
 * Where the fold closes is read as details.ts reads it (the same rules, line by line): a fold this module takes for
 * open is one markdown-it draws running to the end of the text. Pure.
 */
import { FENCE, OPEN, SUMMARY, TRAILING_CLOSE } from './details';
import { asRead } from './line-breaks';
import { grewFrom } from './text-growth';

/** A streaming tail that is one open fold. */
export interface FoldDraft {
  /** The tail as markdown-it reads it (line-breaks.ts): the offsets below are in it. */
  tail: string;
  /** The tail as it came. */
  raw: string;
  /** `<details open>`: the fold starts open. */
  open: boolean;
  /** The summary's markdown ('' when there is none). */
  summary: string;
  /** Where the content starts in the tail: after the opening line (and the summary's, when on its own). */
  innerStart: number;
  /** Where the lines not read yet start: the tail's last line, which may still grow. */
  scanned: number;
  /** How many folds are open at `scanned` (this one among them). */
  depth: number;
  /** The fence open at `scanned`, in which a `</details>` line is code. */
  fence: string | null;
}

/** The line's text after its indent (as details.ts's lineText at the top level), or null when indented as code. */
function lineText(line: string): string | null {
  let column = 0;
  let i = 0;
  for (; i < line.length && (line[i] === ' ' || line[i] === '\t'); i++) column = line[i] === '\t' ? column + 4 - (column % 4) : column + 1;
  return column >= 4 ? null : line.slice(i).trim();
}

/** Reads one line of the content into `state`; false when it closes the fold. */
function readLine(state: { depth: number; fence: string | null }, line: string): boolean {
  const text = lineText(line);
  if (text === null) return true;
  const marker = FENCE.exec(text)?.[0];
  if (marker) {
    if (state.fence === null) state.fence = marker;
    else if (marker[0] === state.fence[0] && marker.length >= state.fence.length && text === marker) state.fence = null;
    return true;
  }
  if (state.fence !== null) return true;
  if (OPEN.test(text)) state.depth++;
  else if (TRAILING_CLOSE.test(text) && !/<details/i.test(text) && --state.depth === 0) return false;
  return true;
}

/**
 * The draft of `tail`, a streaming answer's last chunk, when the whole of it is one fold still open; null
 * otherwise (also while its opening or summary line is not whole yet). `prev`: the draft before this token.
 */
export function growFold(prev: FoldDraft | null | undefined, raw: string): FoldDraft | null {
  const tail = asRead(prev, raw);
  let draft: FoldDraft;
  if (prev && grewFrom(tail, prev.tail)) {
    draft = { ...prev, tail, raw };
  } else {
    const firstEnd = tail.indexOf('\n');
    if (firstEnd === -1) return null;
    const first = lineText(tail.slice(0, firstEnd));
    const opening = first === null ? null : OPEN.exec(first);
    if (!opening) return null;
    let summary = opening[2];
    let innerStart = firstEnd + 1;
    if (summary === undefined) {
      const nextEnd = tail.indexOf('\n', innerStart);
      const next = lineText(tail.slice(innerStart, nextEnd === -1 ? tail.length : nextEnd));
      const written = next === null ? null : SUMMARY.exec(next);
      // A summary line still streaming, or what may become one: drawn whole until it is whole.
      const mayBeSummary = next !== null && (/^<summary>/i.test(next) || '<summary>'.startsWith(next.toLowerCase()));
      if (nextEnd === -1 && mayBeSummary) return null;
      if (written && nextEnd !== -1) {
        summary = written[1];
        innerStart = nextEnd + 1;
      }
    }
    draft = { tail, raw, open: !!opening[1], summary: summary ?? '', innerStart, scanned: innerStart, depth: 1, fence: null };
  }
  // The whole lines since the last token, once each.
  for (let end = tail.indexOf('\n', draft.scanned); end !== -1; end = tail.indexOf('\n', draft.scanned)) {
    if (!readLine(draft, tail.slice(draft.scanned, end))) return null;
    draft.scanned = end + 1;
  }
  // The last line, still growing, on a copy: a `text</details>` there closes the fold.
  if (draft.scanned < tail.length && !readLine({ depth: draft.depth, fence: draft.fence }, tail.slice(draft.scanned))) return null;
  return draft;
}
