import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attachmentText, documentChars, effectiveRange, pagesThatFit, parsePageRange, textTokens } from '../../src/shared/attachment-text';

const name = fc.string({ maxLength: 30 }).filter((s) => s.length > 0);

describe('attachment text', () => {
  it('is measured exactly from page lengths alone, for every document and page range (the chooser and the wire agree)', () => {
    fc.assert(
      fc.property(name, fc.array(fc.string({ maxLength: 50 }), { minLength: 1, maxLength: 12 }), fc.nat(15), fc.nat(15), (n, pages, a, b) => {
        const range = { from: Math.min(a, b) + 1, to: Math.max(a, b) + 1 };
        const lengths = { pages: pages.map((p) => p.length) };
        expect(documentChars(n, lengths, range)).toBe(attachmentText(n, { format: 'pdf', pages }, range).length);
        expect(documentChars(n, lengths)).toBe(attachmentText(n, { format: 'pdf', pages }).length);
      }),
    );
    fc.assert(
      fc.property(name, fc.string({ maxLength: 200 }), (n, text) => {
        expect(documentChars(n, { text: text.length })).toBe(attachmentText(n, { format: 'text', text }).length);
      }),
    );
  });

  it('applies a range clamped to the document; the whole document is no range', () => {
    expect(effectiveRange({ from: 2, to: 99 }, 5)).toEqual({ from: 2, to: 5 });
    expect(effectiveRange({ from: 1, to: 5 }, 5)).toBeUndefined();
    expect(effectiveRange({ from: 9, to: 3 }, 5)).toEqual({ from: 5, to: 5 });
    expect(effectiveRange({ from: 2, to: 3 }, null)).toBeUndefined();
  });

  it('finds the longest run of pages from page 1 that fits a budget', () => {
    const pages = [400, 400, 400, 400];
    const fit = pagesThatFit('r.pdf', pages, 250);
    expect(fit).toEqual({ from: 1, to: 2 });
    expect(textTokens(documentChars('r.pdf', { pages }, fit ?? undefined))).toBeLessThanOrEqual(250);
    expect(textTokens(documentChars('r.pdf', { pages }, { from: 1, to: 3 }))).toBeGreaterThan(250);
    expect(pagesThatFit('r.pdf', pages, 10)).toBeNull();
  });

  it('reads what the user types in the page-range field', () => {
    expect(parsePageRange('3-7', 10)).toEqual({ from: 3, to: 7 });
    expect(parsePageRange(' 4 ', 10)).toEqual({ from: 4, to: 4 });
    expect(parsePageRange('2–5', 10)).toEqual({ from: 2, to: 5 });
    expect(parsePageRange('5-2', 10)).toMatch(/Write the lower page first/);
    expect(parsePageRange('1-11', 10)).toBe('This file has 10 pages: choose pages from 1 to 10.');
    expect(parsePageRange('all', 10)).toMatch(/Write pages as/);
  });
});
