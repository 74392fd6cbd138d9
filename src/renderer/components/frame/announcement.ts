/**
 * What the answer announcer (Announcer.tsx) says when an answer finishes. A short answer is read whole. A long
 * one is read up to about a minute of speech, cut at the end of a sentence, then the announcer says the answer
 * goes on in the chat, where a screen reader can read it at its own pace: live-region speech cannot be paused,
 * re-read or skipped through, and a 20,000-token answer would be read for half an hour.
 *
 * It also keeps the page smooth: the live region's text is laid out, as one line, even though it is not shown.
 * Shaping a whole long answer's text took about 30 ms (a 20,000-token answer), a long task as the answer ended.
 * (The count is grouped by formatExactTokens, not toLocaleString: a page's first toLocaleString costs ~40 ms.)
 */
import type { TurnStatus } from '../../../shared/turn';
import { formatExactTokens } from '../../format';

/** Longest answer read out whole: about 300 words. */
export const ANNOUNCE_MAX_CHARS = 2_000;

/** A sentence or paragraph ends here: the cut goes after it. */
const SENTENCE_END = /[.!?:;…](?=\s)|\n\s*\n/g;

/** What to say of a finished answer of `status` with answer text `text`: '' for nothing. */
export function announcement(text: string, status: TurnStatus, model?: string): string {
  const who = model ? `${model}: ` : '';
  if (text === '') return status === 'done' ? '' : `${who}the answer ended without text (${status}).`;
  if (text.length <= ANNOUNCE_MAX_CHARS) return who + text;
  const head = text.slice(0, ANNOUNCE_MAX_CHARS + 1);
  let cut = -1;
  for (const m of head.matchAll(SENTENCE_END)) if (m.index + 1 <= ANNOUNCE_MAX_CHARS) cut = m.index + 1;
  // No sentence ends in the second half: cut at the last space rather than keep too little.
  if (cut < ANNOUNCE_MAX_CHARS / 2) cut = head.lastIndexOf(' ', ANNOUNCE_MAX_CHARS);
  if (cut <= 0) cut = ANNOUNCE_MAX_CHARS;
  const words = countWords(text);
  return `${who}${text.slice(0, cut).trimEnd()} … The answer goes on in the chat, ${formatExactTokens(words)} words in all.`;
}

function countWords(text: string): number {
  let n = 0;
  for (const _ of text.matchAll(/\S+/g)) n++;
  return n;
}
