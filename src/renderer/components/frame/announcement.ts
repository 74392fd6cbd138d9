/**
 * What the answer announcer (Announcer.tsx) says when an answer finishes. A short answer is read whole. A long
 * one is read up to about a minute of speech, cut at the end of a sentence, then the announcer says the answer
 * goes on in the chat, where a screen reader can read it at its own pace: live-region speech cannot be paused,
 * re-read or skipped through, and a 20,000-token answer would be read for half an hour. The markdown is read
 * as speech (markdown/to-speech.ts): no heading marks, asterisks, backticks or table pipes are spoken.
 *
 * It also keeps the page smooth: the live region's text is laid out, as one line, even though it is not shown.
 * Shaping a whole long answer's text took about 30 ms (a 20,000-token answer), a long task as the answer ended.
 * (The count is grouped by formatExactTokens, not toLocaleString: a page's first toLocaleString costs ~40 ms.)
 */
import type { TurnStatus } from '../../../shared/turn';
import { formatExactTokens } from '../../format';

/** Longest answer read out whole: about 300 words. */
export const ANNOUNCE_MAX_CHARS = 2_000;
/**
 * Most of a long answer's source turned into speech: markdown of this length speaks at least the announcement
 * unless it is mostly code, and parsing a whole 60 kB answer as it finishes would be a long task again.
 */
export const SPEECH_SOURCE_CHARS = 3 * ANNOUNCE_MAX_CHARS;

/** A sentence or paragraph ends here: the cut goes after it. */
const SENTENCE_END = /[.!?:;…](?=\s)|\n\s*\n/g;

/** Markdown to what is spoken (markdown/to-speech.ts, which comes with the markdown chunk). */
export type ToSpeech = (markdown: string) => string;

/**
 * What to say of a finished answer of `status` with answer text `text` (markdown): '' for nothing. `toSpeech`
 * turns the markdown into plain spoken text; without it the source is read as it is. `problem` says how it ended
 * early (the card's words: "Cut off.", "Error. <the server's message>"): after the text, or in place of it.
 */
export function announcement(text: string, status: TurnStatus, model?: string, toSpeech?: ToSpeech, problem?: string): string {
  const who = model ? `${model}: ` : '';
  if (text === '') return problem ? who + problem : status === 'done' ? '' : `${who}the answer ended without text (${status}).`;
  const ended = problem ? ` … ${problem}` : '';
  const source = text.length <= SPEECH_SOURCE_CHARS ? text : text.slice(0, sourceCut(text));
  // Markup only (a rule, say) speaks as nothing: the source is read then, rather than silence.
  const spoken = (toSpeech && toSpeech(source)) || source;
  if (source === text && spoken.length <= ANNOUNCE_MAX_CHARS) return who + spoken + ended;
  const words = countWords(text);
  return `${who}${spoken.slice(0, spokenCut(spoken)).trimEnd()}${ended || ' …'} The answer goes on in the chat, ${formatExactTokens(words)} words in all.`;
}

/** How much of a long answer's spoken text is read: up to the last sentence end or paragraph break in the limit. */
function spokenCut(spoken: string): number {
  // All of it fits (a long answer that is mostly code speaks little): all of it is read.
  if (spoken.length <= ANNOUNCE_MAX_CHARS) return spoken.length;
  const head = spoken.slice(0, ANNOUNCE_MAX_CHARS + 1);
  let cut = -1;
  for (const m of head.matchAll(SENTENCE_END)) if (m.index + 1 <= ANNOUNCE_MAX_CHARS) cut = m.index + 1;
  // No sentence ends in the second half: cut at the last space rather than keep too little.
  if (cut < ANNOUNCE_MAX_CHARS / 2) cut = head.lastIndexOf(' ', ANNOUNCE_MAX_CHARS);
  return cut <= 0 ? ANNOUNCE_MAX_CHARS : cut;
}

/**
 * Where a long answer's source is cut before it is turned into speech: at a paragraph break, or else a line
 * break, in the second half of the limit, so the spoken text does not end mid-paragraph where it can be helped.
 */
function sourceCut(text: string): number {
  for (const mark of ['\n\n', '\n']) {
    const at = text.lastIndexOf(mark, SPEECH_SOURCE_CHARS - mark.length);
    if (at > SPEECH_SOURCE_CHARS / 2) return at;
  }
  return SPEECH_SOURCE_CHARS;
}

/** Words a listener would count: runs with a letter or digit (a list's dash or a table's pipe is none). */
function countWords(text: string): number {
  let n = 0;
  for (const _ of text.matchAll(/[^\s]*[\p{L}\p{N}][^\s]*/gu)) n++;
  return n;
}
