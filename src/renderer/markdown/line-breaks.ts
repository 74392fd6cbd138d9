/**
 * A streaming tail as markdown-it reads it: its normalize step makes each `\r\n` and lone `\r` a `\n` and a NUL the
 * replacement character before anything is parsed. Line breaks written `\r\n` (models that learnt code from Windows
 * files send them, and some servers) kept a code block or a fold from being drawn at the cost of its new text
 * (growing-fence.ts, growing-fold.ts): it was drawn whole at every token. Pure.
 */
import { grewFrom } from './text-growth';

/** A draft of a tail: the text as it came, and as it is read. */
export interface ReadTail {
  raw: string;
  tail: string;
}

function normalized(text: string): string {
  return text.replace(/\r\n?|\0/g, (found) => (found === '\0' ? '\uFFFD' : '\n'));
}

/** `raw` as markdown-it reads it; only its new text is read when it grew from `prev`'s. */
export function asRead(prev: ReadTail | null | undefined, raw: string): string {
  if (!raw.includes('\r') && !raw.includes('\0')) return raw;
  if (!prev || !grewFrom(raw, prev.raw)) return normalized(raw);
  // A `\r` that ended the last token was read as a break already: the `\n` after it adds none.
  const added = raw.slice(prev.raw.endsWith('\r') && raw[prev.raw.length] === '\n' ? prev.raw.length + 1 : prev.raw.length);
  return prev.tail + normalized(added);
}

/**
 * The text `raw` added to `prev.raw`, as markdown-it reads it, when it only grew from it; null otherwise. A step that
 * keeps no copy of the whole tail (growing-fence.ts) reads each token at the cost of its own text: the tail read anew
 * as `prev.tail + added` was a new string of the whole tail at every token (copied whole by the next slice of it).
 */
export function readGrowth(prev: { raw: string }, raw: string): string | null {
  if (!grewFrom(raw, prev.raw)) return null;
  // A `\r` that ended the last token was read as a break already: the `\n` after it adds none.
  const added = raw.slice(prev.raw.endsWith('\r') && raw[prev.raw.length] === '\n' ? prev.raw.length + 1 : prev.raw.length);
  return added.includes('\r') || added.includes('\0') ? normalized(added) : added;
}
