/**
 * How the bytes of a text attachment are read: UTF-8 (a byte-order mark dropped), UTF-16 behind its byte-order mark
 * (Notepad's "Unicode"), or, for bytes that are not UTF-8 and hold no NUL and next to no control characters, the
 * Windows code page they look like (code-page.ts: Shift_JIS, GBK, Big5, Korean's, Cyrillic, else Windows-1252, what
 * old Windows tools and spreadsheets save a .txt or .csv as). The blob keeps the user's bytes; every reader decodes
 * them here, so the check on the way in and the text the model reads agree.
 * Small on purpose: the dialects and the checks use it without loading anything large.
 */

import type { LegacyTextEncoding } from '../../shared/attachment-text';
import { utf16Bom } from '../../shared/readable-types';
import { guessCodePage } from './code-page';

export type TextEncoding = 'utf-8' | LegacyTextEncoding;

/**
 * The encoding `bytes` are text in, or undefined when they are not text (a code page is guessed last, and only where
 * nothing says the bytes are binary). Valid UTF-8 is UTF-8 whatever it holds, as before: the NUL check on the way
 * in is binaryInText's (sniff.ts), and files stored before keep being read as they were.
 */
export function textEncodingOf(bytes: Uint8Array): TextEncoding | undefined {
  const bom = utf16Bom(bytes);
  if (bom) {
    const text = decodes(bytes, bom);
    return text !== undefined && !controlHeavy(text) ? bom : undefined;
  }
  if (decodes(bytes, 'utf-8') !== undefined) return 'utf-8';
  if (bytes.includes(0) || controlHeavy(bytes)) return undefined;
  return guessCodePage(bytes);
}

/** The text of `bytes` and the encoding it was read in; bytes that are not text are decoded as UTF-8, lossily. */
export function decodeText(bytes: Uint8Array): { text: string; encoding: TextEncoding } {
  const encoding = textEncodingOf(bytes) ?? 'utf-8';
  if (encoding === 'windows-1252') return { text: windows1252(bytes), encoding };
  // A code page's bytes that do not decode past the part weighed (code-page.ts) read as U+FFFD, not as an error.
  // TextDecoder drops a leading byte-order mark (ignoreBOM is false): a UTF-8 file saved "with BOM" starts clean.
  return { text: new TextDecoder(encoding, { fatal: false }).decode(bytes), encoding };
}

/**
 * 0x80-0x9F in Windows-1252 (the WHATWG table; the five bytes it leaves unassigned stand for themselves). Node's
 * TextDecoder('windows-1252') reads these as ISO-8859-1's invisible C1 controls (Node 20: "12 \x80" for "12 €"),
 * so the table is here; every other byte is the code point of the same number in both.
 */
const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

function windows1252(bytes: Uint8Array): string {
  const chunks: string[] = [];
  const step = 0x2000;
  for (let start = 0; start < bytes.length; start += step) {
    const codes = Array.from(bytes.subarray(start, start + step), (b) => (b >= 0x80 && b <= 0x9f ? CP1252_HIGH[b - 0x80]! : b));
    chunks.push(String.fromCharCode(...codes));
  }
  return chunks.join('');
}


function decodes(bytes: Uint8Array, encoding: 'utf-8' | 'utf-16le' | 'utf-16be'): string | undefined {
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Whether text (or single-byte text's bytes) holds more control characters than any text file: more than one in a
 * hundred, not counting tab, line feed, form feed, carriage return and escape (a coloured log). Random or compressed
 * bytes hold about one in eight.
 */
function controlHeavy(text: Uint8Array | string): boolean {
  const length = text.length;
  let controls = 0;
  for (let i = 0; i < length; i++) {
    const c = typeof text === 'string' ? text.charCodeAt(i) : text[i]!;
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0b && c !== 0x0c && c !== 0x0d && c !== 0x1b) || c === 0x7f) controls++;
  }
  return controls * 100 > length;
}
