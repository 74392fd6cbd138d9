/**
 * A document's pages in words, where the chip, its page row, the page field's refusal and the preview say them: one
 * page is "1 page" and "page 3", not "1 pages" and "pages 3–3"; the preview's note starts with a capital on its own.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { documentChars, parsePageRange, textTokens } from '../../src/shared/attachment-text';
import type { AttachmentInspection } from '../../src/shared/ipc';
import { PageRangeRow } from '../../src/renderer/components/composer/PageRange';
import { FileChipView } from '../../src/renderer/components/turn/Attachments';
import { previewNote } from '../../src/renderer/components/turn/AttachmentPreview';

const block = { type: 'attachment', id: 'a'.repeat(64), kind: 'document', name: 'report.pdf', mime: 'application/pdf', size: 20_000 } as const;
const inspection = (over: Partial<AttachmentInspection>): AttachmentInspection => ({
  tokens: 20,
  tokensSource: 'estimate',
  pageCount: 1,
  pageChars: [80],
  textChars: null,
  pages: null,
  error: null,
  image: null,
  ...over,
});
const text = (html: string) => html.replace(/<[^>]+>/g, '');

describe('pages in words', () => {
  it('says "1 page" on the chip of a one-page PDF, and "page 3 of 40" where one page of forty was chosen', () => {
    const one = text(renderToStaticMarkup(<FileChipView block={block} cost={{ status: 'done', inspection: inspection({}) }} />));
    expect(one).toContain('~20 tokens · 1 page');
    expect(one).not.toContain('1 pages');
    const chosen = text(renderToStaticMarkup(<FileChipView block={{ ...block, pages: { from: 3, to: 3 } }} cost={{ status: 'done', inspection: inspection({ pageCount: 40, pages: { from: 3, to: 3 } }) }} />));
    expect(chosen).toContain('~20 tokens · page 3 of 40');
    // Several pages are still a range.
    const range = text(renderToStaticMarkup(<FileChipView block={block} cost={{ status: 'done', inspection: inspection({ pageCount: 40, pages: { from: 2, to: 4 } }) }} />));
    expect(range).toContain('~20 tokens · pages 2–4 of 40');
  });

  it('says "Sending page 3 of 40." under a chip with one page chosen, and refuses a second page of a one-page file in the singular', () => {
    const row = text(
      renderToStaticMarkup(
        <PageRangeRow block={{ ...block, pages: { from: 3, to: 3 } }} inspection={inspection({ pageCount: 40, pageChars: Array(40).fill(80), pages: { from: 3, to: 3 } })} room={{ left: 10_000, forPages: 9_000 }} onPages={() => undefined} />,
      ),
    );
    expect(row).toContain('Sending page 3 of 40.');
    // Only page 1 fits what is left: "page 1 of 40 fits", and its button says "Send page 1".
    const pageChars = Array<number>(40).fill(80);
    const onePage = textTokens(documentChars(block.name, { pages: pageChars }, { from: 1, to: 1 }));
    const over = text(
      renderToStaticMarkup(<PageRangeRow block={block} inspection={inspection({ tokens: 5_000, pageCount: 40, pageChars })} room={{ left: onePage + 5, forPages: onePage }} onPages={() => undefined} />),
    );
    expect(over).toContain(': page 1 of 40 fits with room for the answer.');
    expect(over).toContain('Send page 1');
    expect(over).not.toContain('1–1');
    expect(parsePageRange('2', 1)).toBe('This file has 1 page: choose page 1.');
    expect(parsePageRange('two', 1)).toBe('Write pages as 3 or 3-7 (this file has 1 page).');
    // Import words pass: a range past the end said only "This file has 10 pages.", not what to choose instead.
    expect(parsePageRange('1-11', 10)).toBe('This file has 10 pages: choose pages from 1 to 10.');
    expect(parsePageRange('0-3', 10)).toBe('Pages are counted from 1: choose pages from 1 to 10.');
    expect(parsePageRange('7-3', 10)).toBe('Write the lower page first, as 3-7 (this file has 10 pages).');
  });

  it('starts the preview’s note with a capital, with pages chosen or not', () => {
    expect(previewNote(undefined)).toBe('Exactly as the model reads it');
    expect(previewNote({ from: 3, to: 3 })).toBe('Page 3, exactly as the model reads it');
    expect(previewNote({ from: 2, to: 4 })).toBe('Pages 2–4, exactly as the model reads it');
  });
});
