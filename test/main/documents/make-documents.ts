/**
 * Real documents made by real tools while the tests run: PDFs printed by Chromium's `page.pdf()` from HTML
 * (multi-page text, and a "scan" that is one picture and no text layer), a DOCX with a table written by the
 * `docx` package, and a truncated PDF cut from the printed one. The password-protected PDF is a committed
 * fixture (test/fixtures/documents/README.md says how qpdf made it).
 *
 * Printed PDFs are kept in a cache folder by a hash of their HTML (as the scripted GGUFs are), so Chromium is
 * started once per machine for each document rather than once per test file and run.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/** Bump when the way documents are printed changes, so older cached files are not reused. */
const PRINT_VERSION = 1;

/** Each HTML printed to an A5 PDF by Chromium, from the cache where it was printed before. */
export async function printHtml(htmls: readonly string[]): Promise<Uint8Array[]> {
  const dir = process.env.FIREBRAND_TEST_DOCUMENTS ?? join(tmpdir(), 'firebrand-test-documents');
  const paths = htmls.map((html) => join(dir, `${createHash('sha256').update(`${PRINT_VERSION}\n${html}`).digest('hex').slice(0, 24)}.pdf`));
  const missing = htmls.map((html, i) => ({ html, path: paths[i]! })).filter((d) => !existsSync(d.path));
  if (missing.length > 0) {
    mkdirSync(dir, { recursive: true });
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      for (const { html, path } of missing) {
        await page.setContent(html);
        // Written beside and renamed: test files running in parallel may print the same document at once.
        const partial = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.partial`;
        writeFileSync(partial, await page.pdf({ format: 'A5' }));
        renameSync(partial, path);
      }
    } finally {
      await browser.close();
    }
  }
  return paths.map((path) => new Uint8Array(readFileSync(path)));
}

const pagesHtml = (pages: readonly string[]) => `<html><body style="font-family: sans-serif">${pages.map((p) => `<p>${p}</p>`).join(pageBreak)}</body></html>`;

/** A multi-page PDF of `pages` paragraphs, one per page, printed by Chromium. */
export async function printPdf(pages: readonly string[]): Promise<Uint8Array> {
  const [pdf] = await printHtml([pagesHtml(pages)]);
  return pdf!;
}

export async function makeDocuments(): Promise<TestDocuments> {
  const png = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#dde' } })
    .composite([{ input: await sharp({ create: { width: 400, height: 40, channels: 3, background: '#222' } }).png().toBuffer(), top: 80, left: 100 }])
    .png()
    .toBuffer();
  const [multiPage, scanned] = (await printHtml([
    pagesHtml(PAGE_TEXT),
    `<html><body style="margin:0"><img src="data:image/png;base64,${png.toString('base64')}" style="width:100%"></body></html>`,
  ])) as [Uint8Array, Uint8Array];
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
