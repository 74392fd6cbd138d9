/**
 * Which extractor reads which stored type (DESIGN.md §9): PDF with pdf.js, DOCX with mammoth, HTML with a real
 * parser, the text kinds (plain, Markdown, CSV, JSON, code) as text (UTF-8, or UTF-16 or a Windows code page where
 * the bytes are in it: ../blobs/text-encoding.ts). Small and import-free on purpose: the
 * dialects and the replay command use it without loading any extractor.
 */
import type { DocumentText } from '../../shared/attachment-text';
import type { ExtractorKind } from '../../shared/readable-types';
import { decodeText } from '../blobs/text-encoding';

// Which type each extractor reads is one list with the page's, which refuses the rest before an upload.
export { extractorFor, type ExtractorKind } from '../../shared/readable-types';

/** Plain text is cheap to decode where it is; everything else is parsed in the extraction worker. */
export function needsWorker(kind: ExtractorKind): boolean {
  return kind !== 'text';
}

/** A text file's text, in the encoding its bytes are in (UTF-8, UTF-16 behind its mark, else a Windows code page). */
export function plainText(bytes: Uint8Array): DocumentText {
  return withEncoding('text', bytes);
}

/** Text of `format` decoded from `bytes`, the encoding recorded where it was not UTF-8 (the chip says so). */
export function withEncoding(format: 'text' | 'html', bytes: Uint8Array): DocumentText & { format: 'text' | 'html' } {
  const { text, encoding } = decodeText(bytes);
  return encoding === 'utf-8' ? { format, text } : { format, text, encoding };
}
