/**
 * The types of file Firebrand reads, one list for main and the page: main checks an upload's bytes against them and
 * refuses the rest before a byte is stored (main/blobs/blob-store.ts); the page refuses, before a byte is uploaded,
 * a file whose type (or first bytes) already says main would (renderer/store/attachments.ts). A 15 MB .zip went
 * the whole way to main to hear that. Both say the same words. Pure: bytes and strings only.
 */

import { binaryFormatOf } from './binary-formats';

export const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** Which extractor reads a stored type (DESIGN.md §9). */
export type ExtractorKind = 'pdf' | 'docx' | 'html' | 'text';

/** Magic bytes of the binary types read; a file claiming one of these must start with its signature. */
export const SIGNATURES: Record<string, (b: Uint8Array) => boolean> = {
  'image/png': (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  'image/jpeg': (b) => startsWith(b, [0xff, 0xd8, 0xff]),
  'image/gif': (b) => startsWith(b, ascii('GIF87a')) || startsWith(b, ascii('GIF89a')),
  'image/webp': (b) => startsWith(b, ascii('RIFF')) && startsWith(b.subarray(8), ascii('WEBP')),
  'application/pdf': (b) => startsWith(b, ascii('%PDF-')),
  // A .docx is a zip (Office Open XML); mammoth reads it in the extraction worker.
  [DOCX_MIME]: (b) => startsWith(b, [0x50, 0x4b, 0x03, 0x04]),
};

export const SUPPORTED_IMAGE_TYPES = Object.keys(SIGNATURES).filter((m) => m.startsWith('image/'));

/** What Firebrand reads, for the words that refuse anything else. */
export const READABLE_TYPES = 'PDF, Word (.docx), HTML and text files, and PNG, JPEG, GIF and WebP images';

/** The extractor for a stored mime, or undefined when Firebrand cannot read text from that type. */
export function extractorFor(mime: string): ExtractorKind | undefined {
  if (mime === 'application/pdf') return 'pdf';
  if (mime === DOCX_MIME) return 'docx';
  if (mime === 'text/html' || mime === 'application/xhtml+xml') return 'html';
  if (mime.startsWith('text/') || mime === 'application/json') return 'text';
  return undefined;
}

/**
 * The refusal of a file of a type Firebrand cannot read (a .doc, an .xlsx, a .zip, a program), main's and the page's.
 * The type is named as the user knows it, by the name's extension: its media type read as jargon
 * ("application/vnd.openxmlformats-officedocument.presentationml.presentation" for a .pptx) and said nothing at all
 * for a program or a file of no known type ("application/octet-stream").
 */
export function unreadableTypeMessage(name: string): string {
  const extension = /\.([a-z0-9]*[a-z][a-z0-9]*)$/i.exec(name)?.[1];
  const what = extension !== undefined && extension.length <= 8 ? `.${extension.toLowerCase()} files` : 'this type of file';
  return `“${name}” cannot be attached: Firebrand cannot read ${what}. It reads ${READABLE_TYPES}.`;
}

/**
 * Whether main refuses a file claimed as `mime` for its type, whatever its bytes. Main reads an upload as its claim
 * except an image type, text, or no known type (application/octet-stream), which the bytes may make a type it reads
 * (main/blobs/attachment-checks.ts, readableAs); any other claim no extractor takes (application/zip,
 * application/msword, an .xlsx's) is refused.
 */
export function unreadableByType(mime: string): boolean {
  const claimed = mime.toLowerCase();
  if (claimed.startsWith('image/') || claimed === 'application/octet-stream') return false;
  return extractorFor(claimed) === undefined;
}

/**
 * Whether main refuses a file of no known type (application/octet-stream) that starts with `head`: with no signature
 * of a type read (an image, a PDF), and either the magic number of a binary format (binary-formats.ts: a program, a
 * zip, however short) or a NUL in it (no UTF-16 text behind its byte-order mark), it is binary, not text, and main
 * keeps it as application/octet-stream, which no extractor takes. Main decides on all the bytes; a NUL in the first
 * ones decides the same.
 */
export function unreadableBinary(head: Uint8Array): boolean {
  const sniffed = sniffMime(head);
  // Every zip carries a .docx's signature: main does not take a file of no known type for one.
  if (sniffed !== undefined && sniffed !== DOCX_MIME) return false;
  return binaryFormatOf(head) !== undefined || (head.includes(0) && utf16Bom(head) === undefined);
}

/** The binary type the bytes' signature names, if they carry one we know. */
export function sniffMime(bytes: Uint8Array): string | undefined {
  for (const [mime, matches] of Object.entries(SIGNATURES)) if (matches(bytes)) return mime;
  return undefined;
}

/** The UTF-16 byte-order mark the bytes start with, if any. */
export function utf16Bom(b: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  if (b[0] === 0xff && b[1] === 0xfe) return 'utf-16le';
  if (b[0] === 0xfe && b[1] === 0xff) return 'utf-16be';
  return undefined;
}

function ascii(s: string): number[] {
  return [...s].map((c) => c.charCodeAt(0));
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((v, i) => bytes[i] === v);
}
