/**
 * A PDF's text, page by page, with pdf.js (the legacy build, the one made for Node). Runs inside the extraction
 * worker only. No OCR: a PDF whose pages carry no text layer (a scan) is reported as such.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { DocumentText } from '../../shared/attachment-text';
import { ExtractionError } from './extraction-error';
import type { ReadingPace } from './reading-pace';

/** pdf.js needs its character maps to read text in CJK fonts, and standard font data for the base-14 fonts. */
function dataUrls(): { cMapUrl: string; standardFontDataUrl: string } {
  const root = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  // The Node build reads these with fs; the trailing slash is required.
  return { cMapUrl: `${join(root, 'cmaps')}/`, standardFontDataUrl: `${join(root, 'standard_fonts')}/` };
}

interface TextItemLike {
  str?: string;
  hasEOL?: boolean;
}

function pageText(items: readonly TextItemLike[]): string {
  let s = '';
  for (const item of items) {
    if (typeof item.str === 'string') s += item.str;
    if (item.hasEOL) s += '\n';
  }
  return s
    .split('\n')
    .map((l) => l.replace(/[ \t]+$/, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export async function pdfText(bytes: Uint8Array, name: string, pace?: ReadingPace): Promise<DocumentText> {
  const urls = dataUrls();
  const task = getDocument({
    data: bytes,
    ...urls,
    cMapPacked: true,
    // Nothing here renders: no font faces, no eval'd font programs, no console noise.
    disableFontFace: true,
    isEvalSupported: false,
    useSystemFonts: false,
    verbosity: 0,
  });
  let doc;
  try {
    doc = await task.promise;
  } catch (err) {
    await task.destroy().catch(() => undefined);
    // pdf.js exports neither exception class from its entry; their names are part of its API (api.d.ts).
    const kind = err instanceof Error ? err.name : '';
    if (kind === 'PasswordException') {
      throw new ExtractionError('encrypted', `“${name}” is password-protected, so its text cannot be read. Save a copy without the password and attach that.`);
    }
    if (kind === 'InvalidPDFException') {
      throw new ExtractionError('damaged', `“${name}” is damaged or incomplete: its PDF structure could not be read.`);
    }
    throw new ExtractionError('damaged', `“${name}” could not be read as a PDF (${err instanceof Error ? err.message : String(err)}).`);
  }
  try {
    const pages: string[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      await pace?.between();
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      pages.push(pageText(content.items as TextItemLike[]));
      page.cleanup();
    }
    if (pages.every((p) => p === '')) {
      throw new ExtractionError('no-text', `“${name}” has no text layer (it looks like a scan or images only); Firebrand does not read text from images.`);
    }
    return { format: 'pdf', pages };
  } catch (err) {
    if (err instanceof ExtractionError) throw err;
    throw new ExtractionError('damaged', `“${name}” is damaged: a page could not be read (${err instanceof Error ? err.message : String(err)}).`);
  } finally {
    await doc.destroy().catch(() => undefined);
  }
}
