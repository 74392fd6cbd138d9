/**
 * What the model reads for a document or text attachment (DESIGN.md §9): the extracted text inside one envelope,
 * PDF pages marked `[page N]` so the model can cite them. One function builds it for every dialect, and
 * `documentChars` measures it from page lengths alone, so the composer's chip, the preflight and the wire all
 * count the same characters (a property test keeps the two equal).
 */
import { CHARS_PER_TOKEN } from './context-estimate';

/** A 1-based, inclusive page range the user chose for a PDF that does not fit whole. */
export interface PageRange {
  from: number;
  to: number;
}

/**
 * A text encoding other than UTF-8 that a text or HTML attachment was read in (src/main/blobs/text-encoding.ts):
 * UTF-16 behind its byte-order mark, or a Windows code page guessed from the bytes (main's code-page.ts), named as
 * TextDecoder names it.
 */
export type LegacyTextEncoding = 'utf-16le' | 'utf-16be' | GuessedCodePage;

/** The code pages guessed where no mark says what the bytes are: the reading is a guess the user should know of. */
export type GuessedCodePage = 'windows-1252' | 'windows-1251' | 'shift_jis' | 'gb18030' | 'big5' | 'euc-kr';

/** How the chip names an encoding a file was read in. */
export const ENCODING_LABEL: Record<LegacyTextEncoding, string> = {
  'utf-16le': 'UTF-16',
  'utf-16be': 'UTF-16',
  'windows-1252': 'Latin-1 (Windows-1252)',
  'windows-1251': 'Cyrillic (Windows-1251)',
  shift_jis: 'Japanese (Shift_JIS)',
  gb18030: 'Chinese (GBK)',
  big5: 'Traditional Chinese (Big5)',
  'euc-kr': 'Korean (EUC-KR)',
};

/** The encoding was guessed (a code page), not said by a byte-order mark. */
export function isGuessedCodePage(encoding: LegacyTextEncoding | undefined): encoding is GuessedCodePage {
  return encoding !== undefined && encoding !== 'utf-16le' && encoding !== 'utf-16be';
}

/**
 * Extracted text, stored once per original (src/main/documents). PDFs keep their pages apart. `encoding`: the
 * bytes were not UTF-8 (absent: they were).
 */
export type DocumentText =
  | { format: 'pdf'; pages: string[] }
  | { format: 'docx' | 'html' | 'text'; text: string; encoding?: LegacyTextEncoding };

/** Why a file's text could not be read, for the user (the chip) and, in history, for the model. */
export interface ExtractionFailure {
  code: 'encrypted' | 'damaged' | 'no-text' | 'unsupported' | 'too-large' | 'timeout' | 'failed';
  message: string;
}

export function pageCount(doc: DocumentText): number | null {
  return doc.format === 'pdf' ? doc.pages.length : null;
}

/** The range actually applied: clamped to the document; `undefined` means every page. */
export function effectiveRange(range: PageRange | undefined, pages: number | null): PageRange | undefined {
  if (!range || pages === null || pages === 0) return undefined;
  const from = Math.min(Math.max(1, Math.floor(range.from)), pages);
  const to = Math.min(Math.max(from, Math.floor(range.to)), pages);
  return from === 1 && to === pages ? undefined : { from, to };
}

function quoteName(name: string): string {
  return name.replaceAll('"', "'");
}

function openTag(name: string, range: PageRange | undefined, pages: number | null): string {
  const span = range && pages !== null ? ` pages="${range.from}-${range.to} of ${pages}"` : '';
  return `<file name="${quoteName(name)}"${span}>`;
}

const CLOSE = '</file>';
const PAGE_SEPARATOR = '\n\n';

function pageMarker(page: number): string {
  return `[page ${page}]`;
}

/** Exactly what a dialect sends for this attachment (the selection applied). */
export function attachmentText(name: string, doc: DocumentText, range?: PageRange): string {
  const pages = pageCount(doc);
  const applied = effectiveRange(range, pages);
  let body: string;
  if (doc.format === 'pdf') {
    const from = applied?.from ?? 1;
    const to = applied?.to ?? doc.pages.length;
    const parts: string[] = [];
    for (let p = from; p <= to; p++) parts.push(`${pageMarker(p)}\n${doc.pages[p - 1] ?? ''}`);
    body = parts.join(PAGE_SEPARATOR);
  } else {
    body = doc.text;
  }
  return `${openTag(name, applied, pages)}\n${body}\n${CLOSE}`;
}

/** The length of `attachmentText` from the page (or text) lengths alone: the range chooser's arithmetic. */
export function documentChars(name: string, lengths: { pages: number[] } | { text: number }, range?: PageRange): number {
  if ('text' in lengths) return openTag(name, undefined, null).length + 1 + lengths.text + 1 + CLOSE.length;
  const pages = lengths.pages.length;
  const applied = effectiveRange(range, pages);
  const from = applied?.from ?? 1;
  const to = applied?.to ?? pages;
  let body = 0;
  for (let p = from; p <= to; p++) body += pageMarker(p).length + 1 + (lengths.pages[p - 1] ?? 0);
  if (to >= from) body += PAGE_SEPARATOR.length * (to - from);
  return openTag(name, applied, pages).length + 1 + body + 1 + CLOSE.length;
}

/** What the model is told when an attachment's text cannot be given (bytes gone, extraction failed). */
export function attachmentUnavailable(name: string, reason: string): string {
  return `${openTag(name, undefined, null)}\n[This file is not available: ${reason}]\n${CLOSE}`;
}

/** Tokens of a text of `chars` characters by the uncalibrated estimate (same rule as the meter). */
export function textTokens(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** The longest run of pages from page 1 whose text fits `budget` tokens by the estimate; null when not even page 1 does. */
export function pagesThatFit(name: string, pageLengths: number[], budget: number): PageRange | null {
  let best: PageRange | null = null;
  for (let to = 1; to <= pageLengths.length; to++) {
    if (textTokens(documentChars(name, { pages: pageLengths }, { from: 1, to })) > budget) break;
    best = { from: 1, to };
  }
  return best;
}

/** Reads what the user typed in the page-range field ("3", "3-7", "3–7"); a string is the reason it is refused. */
export function parsePageRange(input: string, pages: number): PageRange | string {
  const m = /^\s*(\d+)\s*(?:[-–—]\s*(\d+)\s*)?$/.exec(input);
  if (!m) return `Write pages as 3 or 3-7 (this file has ${pageCountWords(pages)}).`;
  const from = Number(m[1]);
  const to = m[2] === undefined ? from : Number(m[2]);
  // Each refusal says what to type instead: "This file has 40 pages." named the problem and left the fix to the user.
  if (from < 1) return `Pages are counted from 1: ${pagesToChoose(pages)}.`;
  if (to < from) return `Write the lower page first, as 3-7 (this file has ${pageCountWords(pages)}).`;
  if (to > pages) return `This file has ${pageCountWords(pages)}: ${pagesToChoose(pages)}.`;
  return { from, to };
}

/** "choose pages from 1 to 40", or "choose page 1" of a one-page file: the ranges a document has. */
function pagesToChoose(pages: number): string {
  return pages === 1 ? 'choose page 1' : `choose pages from 1 to ${pages}`;
}

/** "1 page", "40 pages": a document's length in words ("1 pages" was said of a one-page PDF). */
export function pageCountWords(pages: number): string {
  return pages === 1 ? '1 page' : `${pages} pages`;
}

/** "page 3" or "pages 3–7": chosen pages in words, as the chip, its page row and the preview say them ("pages 3–3" was said). */
export function rangeWords(range: PageRange): string {
  return range.from === range.to ? `page ${range.from}` : `pages ${range.from}–${range.to}`;
}

export function formatRange(range: PageRange): string {
  return range.from === range.to ? String(range.from) : `${range.from}-${range.to}`;
}
