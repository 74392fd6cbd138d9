/**
 * Reads one file's text; runs in the document reader's process (./extract-process.ts). Dynamic imports load
 * pdf.js and mammoth only for the files that need them.
 */
import type { DocumentText } from '../../shared/attachment-text';
import { ExtractionError } from './extraction-error';
import { plainText, withEncoding, type ExtractorKind } from './extractor-kind';
import type { ReadingPace } from './reading-pace';

/** More text than any context window holds (a million tokens is about four million characters). */
export const MAX_TEXT_CHARS = 4_000_000;

export async function extractText(kind: ExtractorKind, bytes: Uint8Array, name: string, pace?: ReadingPace): Promise<DocumentText> {
  let doc: DocumentText;
  if (kind === 'pdf') doc = await (await import('./pdf-text')).pdfText(bytes, name, pace);
  else if (kind === 'docx') doc = await (await import('./docx-text')).docxText(bytes, name);
  else if (kind === 'html') {
    const { htmlToText } = await import('./html-to-text');
    const page = withEncoding('html', bytes);
    doc = { ...page, text: htmlToText(page.text) };
  } else doc = plainText(bytes);
  const chars = doc.format === 'pdf' ? doc.pages.reduce((n, p) => n + p.length, 0) : doc.text.length;
  if (chars > MAX_TEXT_CHARS) {
    throw new ExtractionError('too-large', `“${name}” holds ${chars.toLocaleString('en')} characters of text, more than any context window takes.`);
  }
  return doc;
}
