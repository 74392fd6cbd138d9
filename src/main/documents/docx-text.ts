/**
 * A Word (.docx) file's text with mammoth: mammoth turns the document into semantic HTML (headings, lists,
 * tables), which html-to-text lays out for the model. Runs inside the extraction worker only.
 */
import mammoth from 'mammoth';
import type { DocumentText } from '../../shared/attachment-text';
import { ExtractionError } from './extraction-error';
import { htmlToText } from './html-to-text';

/** The OLE compound-file signature: an encrypted .docx, or an old binary .doc renamed. */
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

export async function docxText(bytes: Uint8Array, name: string): Promise<DocumentText> {
  if (OLE.every((v, i) => bytes[i] === v)) {
    throw new ExtractionError('encrypted', `“${name}” is password-protected or an old binary Word file; save it as an unprotected .docx and attach that.`);
  }
  let html: string;
  try {
    html = (await mammoth.convertToHtml({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) })).value;
  } catch (err) {
    throw new ExtractionError('damaged', `“${name}” could not be read as a Word document (${err instanceof Error ? err.message : String(err)}).`);
  }
  const text = htmlToText(html);
  if (text === '') throw new ExtractionError('no-text', `“${name}” has no text (only images or empty pages).`);
  return { format: 'docx', text };
}
