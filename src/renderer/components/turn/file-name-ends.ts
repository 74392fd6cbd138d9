/**
 * A file's name in two parts for a chip that is cut in the middle: the head gives way (an ellipsis at its end, as
 * wide as the chip allows, by CSS) and the tail, its extension and the few letters before it, always shows. Cut at
 * the end, "quarterly-report-final-v…" hid what told two drafts apart and what kind of file it was; now it reads
 * "quarterly-rep…final-v3.pdf". Only where the room ends is left to the layout, so a wide chip shows the name whole.
 */

/** Letters kept before the extension: "final-v3" of "quarterly-report-final-v3.pdf". */
const BEFORE_EXTENSION = 8;
/** Longer than this after the last dot is no extension ("notes.from the meeting about…"): the last letters are kept. */
const EXTENSION_MAX = 10;

/** `[head, tail]`, which joined are `name`; tail is '' for a name too short to be worth cutting in the middle. */
export function fileNameEnds(name: string): [string, string] {
  // By code points, so an emoji or a letter outside the BMP is not cut in two.
  const chars = Array.from(name);
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 && name.length - dot <= EXTENSION_MAX ? Array.from(name.slice(dot)).length : 0;
  const tail = Math.min(chars.length, extension + BEFORE_EXTENSION);
  // A head of a few letters only: nothing is gained by cutting it.
  if (chars.length - tail < 4) return [name, ''];
  return [chars.slice(0, chars.length - tail).join(''), chars.slice(chars.length - tail).join('')];
}

/** Where a name may be cut without cutting a word: after a space, a dash, an underscore or a dot. */
const WORD_EDGE = /[\s\-_.]/u;

/**
 * A file's name on two lines under a sent picture, too narrow (96 px) for a chip's cut: the CSS cut of one line left
 * "S…e update.png" of a screenshot's name. The second line is its end, the extension and the words before it in at
 * most `line` letters, from a word's start where one is near; the first is the rest, cut with "…" by the layout
 * where it is too long ("Screenshot 2026-12-0…" over "the update.png"). A name of one line's length is one line.
 * The whole name is the picture's hover and its preview's heading.
 */
export function captionLines(name: string, line: number): [string, string] {
  const chars = Array.from(name);
  if (chars.length <= line) return [name, ''];
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 && name.length - dot <= EXTENSION_MAX ? Array.from(name.slice(dot)).length : 0;
  // The earliest word's start that leaves at most a line; where that is the extension alone, or a word of a few
  // letters, a line's last letters say more ("IMG_20261207_103102.jpg": "103102.jpg", not "jpg").
  let from = chars.length - line;
  while (from < chars.length && !WORD_EDGE.test(chars[from - 1] ?? '')) from++;
  if (chars.length - from < Math.min(line, extension + 4)) from = chars.length - line;
  const head = chars.slice(0, from).join('').replace(/\s+$/u, '');
  return head === '' ? [name, ''] : [head, chars.slice(from).join('')];
}
