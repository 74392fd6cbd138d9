import { describe, expect, it } from 'vitest';
import { markOffsets, searchTerms } from '../../src/renderer/components/turn/use-search-highlight';

/** The marked pieces of `text`. */
const marked = (text: string, terms: string[]) => markOffsets(text, terms).map(([a, b]) => text.slice(a, b));

describe('markOffsets (the searched words marked in an opened message)', () => {
  it('folds case and accents as the search index does', () => {
    expect(marked('Meet me at the Café, naïve ÉCOLE', ['cafe', 'naive', 'ecole'])).toEqual(['Café', 'naïve', 'ÉCOLE']);
    expect(marked('the cafe', ['CAFÉ'])).toEqual(['cafe']);
  });

  it('maps offsets back where folding changes the length', () => {
    // "İ" lowers to two code units: the old offsets marked "ity " for "city".
    expect(marked('İstanbul city', ['city', 'istanbul'])).toEqual(['city', 'İstanbul']);
    // A decomposed accent folds to nothing and stays inside the mark.
    expect(marked('the cafe\u0301 is open', ['cafe'])).toEqual(['cafe\u0301']);
  });

  it('keeps the letters of scripts NFD would take apart', () => {
    // "하" is no syllable of "한국": Hangul is not decomposed into letters.
    expect(marked('한국어', ['하'])).toEqual([]);
    expect(marked('한국어', ['국'])).toEqual(['국']);
  });

  // Search audit: "x*y" and "C" were found, and nothing was marked in the opened chat ("xy"; one letter dropped).
  it('marks what search found: a word with symbols inside, a one-letter word where words start, an emoji, a version', () => {
    const text = 'Fixed x*y in C, a C compiler and Objective-C; shipped v1.2.3 🚀 (abc)';
    const mark = (query: string) => marked(text, searchTerms(query));
    expect(mark('x*y')).toEqual(['x*y']);
    expect(mark('C')).toEqual(['C', 'C', 'c', 'C']);
    expect(mark('1.2.3')).toEqual(['1.2.3']);
    expect(mark('🚀')).toEqual(['🚀']);
    expect(mark('"abc"*')).toEqual(['abc']);
  });

  // Search found "2024/01/15" for "2024-01-15", and the opened chat marked nothing.
  it('marks a date however it was written, as search found it, and not other numbers', () => {
    const text = 'Due 2024/01/15, moved from 2024.01.15 (not 2023-01-15, but 15.01.2024)';
    const mark = (query: string) => marked(text, searchTerms(query));
    expect(mark('2024-01-15')).toEqual(['2024/01/15', '2024.01.15', '15.01.2024']);
    expect(mark('2024/01/15')).toEqual(['2024/01/15', '2024.01.15', '15.01.2024']);
    // A month marks each day of it whole, as search finds them.
    expect(mark('2024-01')).toEqual(['2024/01/15', '2024.01.15', '15.01.2024']);
    // A whole date typed in another order marks the same day however it is written, in the order of the text.
    expect(mark('15/01/2024')).toEqual(['2024/01/15', '2024.01.15', '15.01.2024']);
    expect(mark('1/15/2024')).toEqual(['2024/01/15', '2024.01.15', '15.01.2024']);
    expect(marked('Due 1/15/2024; not 11/15/2024, 2024 01 15 or 2024-01-16', searchTerms('15.01.2024'))).toEqual(['1/15/2024']);
    // A number that is no date ("1.2", "01-15") is marked as typed, as search finds it.
    expect(mark('01-15')).toEqual(['01-15']);
  });

  // Search found "January 15, 2024" for "2024-01-15" and the reverse, and the opened chat marked "15" and "2024" apart.
  it('marks a date written with its month\'s name or without leading zeros, whole, as search found it', () => {
    const text = 'Due January 15, 2024 (was 15 Jan. 2024, then 2024-1-15; not 15 January 2023 nor 2024-01-16)';
    const mark = (query: string) => marked(text, searchTerms(query));
    const all = ['January 15, 2024', '15 Jan. 2024', '2024-1-15'];
    for (const query of ['2024-01-15', '15.1.2024', '15 January 2024', 'Jan 15, 2024', '15-jan-2024']) expect(mark(query), query).toEqual(all);
    // With other words around it, each marked; a month's name on its own is a word.
    expect(mark('due 15 January 2024')).toEqual(['Due', ...all]);
    expect(mark('jan')).toEqual(['Jan', 'Jan', 'Jan']);
  });

  // Search found these for the month, the day in another language, with "of" or mixed zeros, and the opened chat
  // marked their words apart, or nothing.
  it('marks a month, a day in another language, with "of", mixed zeros or a year of two digits, whole', () => {
    const text = 'Le 15 janvier 2024, am 15. Januar 2024, el 15 de enero de 2024, on the 15th of January 2024, 2024-01-03; not 15 février 2024 nor 2023-01-15';
    const mark = (query: string) => marked(text, searchTerms(query));
    const days = ['15 janvier 2024', '15. Januar 2024', '15 de enero de 2024', '15th of January 2024'];
    for (const query of ['15 janvier 2024', '15 gennaio 2024', '15 of January 2024', '15/01/24', '15.1.24']) expect(mark(query), query).toEqual(days);
    expect(mark('janvier 2024')).toEqual([...days, '2024-01-03']);
    expect(mark('the 15th of January')).toEqual(['15 janvier', '15. Januar', '15 de enero', '15th of January', '2023-01-15']);
    expect(marked('Due 3.02.2024 or 03.2.2024, not 3.2.20245', searchTerms('2024-02-03'))).toEqual(['3.02.2024', '03.2.2024']);
  });
});
