/**
 * Which extractor reads which stored type (DESIGN.md §9): PDF with pdf.js, DOCX with mammoth, HTML with a real
 * parser, the text kinds (plain, Markdown, CSV, JSON, code) as UTF-8. Small and import-free on purpose: the
 * dialects and the replay command use it without loading any extractor.
 */
import type { DocumentText } from '../../shared/attachment-text';
import { DOCX_MIME } from '../blobs/sniff';

export type ExtractorKind = 'pdf' | 'docx' | 'html' | 'text';

/** The extractor for a stored mime, or undefined when Firebrand cannot read text from that type. */
export function extractorFor(mime: string): ExtractorKind | undefined {
  if (mime === 'application/pdf') return 'pdf';
  if (mime === DOCX_MIME) return 'docx';
  if (mime === 'text/html' || mime === 'application/xhtml+xml') return 'html';
  if (mime.startsWith('text/') || mime === 'application/json') return 'text';
  return undefined;
}

/** Plain text is cheap to decode where it is; everything else is parsed in the extraction worker. */
export function needsWorker(kind: ExtractorKind): boolean {
  return kind !== 'text';
}

export function plainText(bytes: Uint8Array): DocumentText {
  return { format: 'text', text: new TextDecoder('utf-8', { fatal: false }).decode(bytes) };
}
