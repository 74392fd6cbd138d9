import { isBlank, type Turn } from '../turn';

export interface TurnOutput {
  /** Native reasoning joined, then inline-extracted reasoning after a blank line; '' when blank. */
  reasoning: string;
  /** The answer: text runs joined; '' when blank (think-only or whitespace-only output is "no answer"). */
  content: string;
  /** Text and reasoning runs (both origins) in stream order, one per non-empty block. */
  runs: { kind: 'reasoning' | 'text'; text: string }[];
}

/**
 * What a finished turn says, for every consumer that reads a turn as strings (titles, export, copy, tool
 * loops), so none of them re-derives reasoning or blankness on its own (DESIGN.md §4, seed 002). The edge trim
 * already happened once, in the reducer at `finish`; this only reads.
 */
export function turnOutput(turn: Pick<Turn, 'blocks'>): TurnOutput {
  const runs: TurnOutput['runs'] = [];
  let content = '';
  let native = '';
  let inline = '';
  for (const block of turn.blocks) {
    if (block.type === 'text') content += block.text;
    else if (block.type === 'reasoning' && block.origin === 'native') native += block.text;
    else if (block.type === 'reasoning') inline += block.text;
    else continue;
    if (block.text !== '') runs.push({ kind: block.type, text: block.text });
  }
  return { reasoning: joinReasoning(native, inline), content: isBlank(content) ? '' : content, runs };
}

/** Inline-extracted reasoning rides after the server-parsed reasoning, separated by one blank line. */
function joinReasoning(native: string, inline: string): string {
  if (isBlank(native)) return isBlank(inline) ? '' : inline;
  if (isBlank(inline)) return native;
  return `${native}\n\n${inline}`;
}
