/**
 * Real documents made by real tools while the tests run: PDFs printed by Chromium's `page.pdf()` from HTML
 * (multi-page text, and a "scan" that is one picture and no text layer), a DOCX with a table written by the
 * `docx` package, and a truncated PDF cut from the printed one. The password-protected PDF is a committed
 * fixture (test/fixtures/documents/README.md says how qpdf made it).
 */
import { readFileSync } from 'node:fs';
import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow } from 'docx';
import sharp from 'sharp';
import { launchChromium } from '../../e2e/helpers/browser';

export interface TestDocuments {
  /** Three pages, each with its own sentence. */
  multiPage: Uint8Array;
  /** One page holding only a picture: no text layer. */
  scanned: Uint8Array;
  /** The first 40% of `multiPage`. */
  truncated: Uint8Array;
  passwordProtected: Uint8Array;
  docxWithTable: Uint8Array;
}

export const PAGE_TEXT = ['Quarterly report: the first page says hello.', 'Revenue grew by 12 percent in the north region.', 'The third page is the end.'];

const pageBreak = '<div style="break-after: page"></div>';

/** A multi-page PDF of `pages` paragraphs, one per page, printed by Chromium. */
export async function printPdf(pages: readonly string[]): Promise<Uint8Array> {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.setContent(`<html><body style="font-family: sans-serif">${pages.map((p) => `<p>${p}</p>`).join(pageBreak)}</body></html>`);
    return new Uint8Array(await page.pdf({ format: 'A5' }));
  } finally {
    await browser.close();
  }
}

export async function makeDocuments(): Promise<TestDocuments> {
  const png = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#dde' } })
    .composite([{ input: await sharp({ create: { width: 400, height: 40, channels: 3, background: '#222' } }).png().toBuffer(), top: 80, left: 100 }])
    .png()
    .toBuffer();
  const browser = await launchChromium();
  let multiPage: Uint8Array;
  let scanned: Uint8Array;
  try {
    const page = await browser.newPage();
    await page.setContent(`<html><body style="font-family: sans-serif">${PAGE_TEXT.map((p) => `<p>${p}</p>`).join(pageBreak)}</body></html>`);
    multiPage = new Uint8Array(await page.pdf({ format: 'A5' }));
    await page.setContent(`<html><body style="margin:0"><img src="data:image/png;base64,${png.toString('base64')}" style="width:100%"></body></html>`);
    scanned = new Uint8Array(await page.pdf({ format: 'A5' }));
  } finally {
    await browser.close();
  }
  const cell = (text: string) => new TableCell({ children: [new Paragraph(text)] });
  const row = (a: string, b: string) => new TableRow({ children: [cell(a), cell(b)] });
  const docx = new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: 'Budget 2026', heading: HeadingLevel.HEADING_1 }),
          new Paragraph('Spending by team, in euros.'),
          new Table({ rows: [row('Team', 'Amount'), row('Design', '12,000'), row('Research', '30,500')] }),
          new Paragraph('Approved on March 3.'),
        ],
      },
    ],
  });
  return {
    multiPage,
    scanned,
    truncated: multiPage.slice(0, Math.floor(multiPage.length * 0.4)),
    passwordProtected: new Uint8Array(readFileSync(new URL('../../fixtures/documents/password-protected.pdf', import.meta.url))),
    docxWithTable: new Uint8Array(await Packer.toBuffer(docx)),
  };
}
