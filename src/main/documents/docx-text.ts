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
  } catch {
    // The reader's own words ("Corrupted zip: can't find end of central directory") told a user nothing they could
    // act on (documents pass): the chip says what the file is and what to do, as a damaged PDF's does.
    throw new ExtractionError('damaged', `“${name}” could not be read as a Word document: it is damaged, incomplete or not a .docx file. Open it in Word, save it as .docx again and attach that.`);
  }
  const text = htmlToText(html);
  if (text === '') throw new ExtractionError('no-text', `“${name}” has no text (only images or empty pages).`);
  return { format: 'docx', text };
}
