import { DOCX_MIME, SIGNATURES, SUPPORTED_IMAGE_TYPES, utf16Bom } from '../../shared/readable-types';
import { binaryFormatOf } from '../../shared/binary-formats';
import type { AttachmentBlock } from '../../shared/turn';
import { textEncodingOf } from './text-encoding';

// The types read and their signatures are one list with the page's (shared/readable-types.ts).
export { sniffMime } from '../../shared/readable-types';
export { DOCX_MIME, SUPPORTED_IMAGE_TYPES };

/** What the bytes must be for the claimed type; `undefined` when they may be stored as claimed. */
export function checkClaimedType(bytes: Uint8Array, mime: string): string | undefined {
  const sig = SIGNATURES[mime];
  if (sig) return sig(bytes) ? undefined : `its content is not a ${label(mime)} file`;
  // Other image types (SVG can carry script, others no model reads) are refused rather than passed through.
  if (mime.startsWith('image/')) return `${mime} images are not supported (use PNG, JPEG, GIF or WebP)`;
  if (mime.startsWith('text/') || mime === 'application/json') {
    // UTF-8, UTF-16 behind its byte-order mark, and a Windows code page (a CSV from an old or localized Windows
    // tool) are read (text-encoding.ts); what is none of them holds NULs or many control characters.
    if (textEncodingOf(bytes)) return undefined;
    return notText(bytes);
  }
  return undefined;
}

/**
 * Why bytes claimed as text, which pass as UTF-8, are still not a text file: they hold NUL bytes, which no text file
 * does. A binary file renamed `.txt`, or UTF-16 text saved without its byte-order mark (every other byte NUL), was
 * attached and sent to the model as garbage (documents audit #2). Checked on the way in only, an upload's or an
 * import's (an export whose attachment was relabelled text was imported as text): files already stored keep being
 * read as they were. UTF-16 behind its byte-order mark is text (its NULs are the high bytes of its characters).
 */
export function binaryInText(bytes: Uint8Array): string | undefined {
  if (!bytes.includes(0) || utf16Bom(bytes)) return undefined;
  return notText(bytes);
}

/** Why bytes are not text: UTF-16 with no byte-order mark (which cannot be told from binary for sure), or binary. */
function notText(bytes: Uint8Array): string {
  return looksUtf16(bytes) ? 'it is UTF-16 text without a byte-order mark; save it as UTF-8 and attach it again' : 'it holds binary data, not text';
}

/** UTF-16 with no byte-order mark: Latin text puts a NUL in nearly every high byte, and almost none in the low ones. */
function looksUtf16(bytes: Uint8Array): boolean {
  const pairs = Math.floor(Math.min(bytes.length, 4096) / 2);
  if (pairs === 0) return false;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < pairs * 2; i += 2) {
    if (bytes[i] === 0) even++;
    if (bytes[i + 1] === 0) odd++;
  }
  const [more, fewer] = even > odd ? [even, odd] : [odd, even];
  return more >= pairs * 0.3 && fewer <= pairs * 0.05;
}

/**
 * Whether bytes of no known type are text: UTF-8 with no NUL (which no text file holds and most binary files do), or
 * text in an encoding read besides (text-encoding.ts), and not the start of a known binary format (binary-formats.ts:
 * a 2-byte "MZ", a program's first bytes, holds no NUL yet was taken as text).
 */
export function isText(bytes: Uint8Array): boolean {
  return binaryFormatOf(bytes) === undefined && textEncodingOf(bytes) !== undefined && binaryInText(bytes) === undefined;
}

/**
 * The type to hand a browser for stored bytes: an image type only when the bytes carry that image's signature,
 * otherwise `application/octet-stream`, which no browser renders or runs (issue 15: an imported SVG opened at the
 * app's origin ran its script). The stored claim is never trusted for this.
 */
export function servedType(bytes: Uint8Array): string {
  for (const mime of SUPPORTED_IMAGE_TYPES) if (SIGNATURES[mime]?.(bytes)) return mime;
  return 'application/octet-stream';
}

/** How a dialect treats the attachment (DESIGN.md §5). */
export function attachmentKind(mime: string): AttachmentBlock['kind'] {
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('text/') || mime === 'application/json') return 'text';
  return 'document';
}

function label(mime: string): string {
  if (mime === DOCX_MIME) return 'Word (.docx)';
  return mime === 'application/pdf' ? 'PDF' : (mime.split('/')[1] ?? mime).toUpperCase();
}
