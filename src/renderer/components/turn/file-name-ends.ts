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
