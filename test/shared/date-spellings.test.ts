import { describe, expect, it } from 'vitest';
import { dateGlob, dateGlobRegExp, dateLiteral, dateLiteralRegExp, dateSpellings, typedDate } from '../../src/shared/number-separators';

const spelled = (word: string) => dateSpellings(word)?.map((s) => s.join('-'));

describe('dateSpellings (a whole date typed, and the other ways its day is written)', () => {
  it('spells the day year, day and month first, with and without leading zeros ("2024-1-15" too), as typed first', () => {
    expect(spelled('15.01.2024')).toEqual(['15-01-2024', '2024-01-15', '01-15-2024', '15-1-2024', '1-15-2024', '2024-1-15']);
    expect(spelled('2024/1/15')).toEqual(['2024-1-15', '2024-01-15', '15-01-2024', '01-15-2024', '15-1-2024', '1-15-2024']);
  });

  it('spells both days where the day and the month could be either, one where they are the same', () => {
    expect(spelled('03/02/2024')).toEqual(['03-02-2024', '2024-02-03', '02-03-2024', '3-2-2024', '2-3-2024', '2024-2-3', '2024-03-02', '2024-3-2']);
    expect(spelled('5.5.2024')).toEqual(['5-5-2024', '2024-05-05', '05-05-2024', '2024-5-5']);
  });

  it('leaves alone what is no whole date: part-typed, no month, a version', () => {
    for (const word of ['15.01.20', '15.01.', '2024-01', '2024-01-', '13.13.2024', '2024-13-01', '2024-01-00', '1.2.3', '15-01-20245']) expect(spelled(word), word).toBeUndefined();
  });

  it('marks a spelling with no digit before it, nor after it unless it is the one typed', () => {
    const marks = (glob: string, text: string) => [...text.matchAll(dateGlobRegExp(glob))].map((m) => m[0]);
    expect(marks(dateGlob(['1', '15', '2024']), '11/15/2024, 1/15/2024, 1.15.20245')).toEqual(['1/15/2024']);
    expect(marks(dateGlob(['2024', '01', '1'], true), '2024-01-15 and 2024.01.1')).toEqual(['2024-01-1', '2024.01.1']);
  });
});

describe('typedDate (a whole date in a query\'s words, in numbers or with an English month)', () => {
  const at = (query: string, i = 0) => typedDate(query.split(' '), i);

  it('reads a day, a month by its long or short name and a year, either way round, in one word or three', () => {
    for (const query of ['15 January 2024', 'January 15, 2024', 'jan 15 2024', 'Jan. 15th, 2024', '15th JAN 2024', '15 Jan 2024.']) expect(at(query), query).toEqual({ words: 3, days: [['2024', 1, 15]] });
    expect(at('15-Jan-2024')).toEqual({ words: 1, days: [['2024', 1, 15]] });
    expect(at('due 9 Sept 2024', 1)).toEqual({ words: 3, days: [['2024', 9, 9]] });
    expect(at('2024-1-15')).toEqual({ words: 1, typed: ['2024', '1', '15'], days: [['2024', 1, 15]] });
  });

  it('reads no date in a month, a day or a year alone, a two-digit year, another language or an impossible day', () => {
    for (const query of ['may', '15', '2024', 'May 2024', '15 May', '15/01/24', '15 Jan 24', '15. Januar 2024', '32 January 2024', '15 Janu 2024', '2024 January 15']) expect(at(query), query).toBeUndefined();
  });

  it('marks each spelling of the day whole, and no other day or word', () => {
    const marks = (query: string, text: string) => dateLiteral(at(query)!).flatMap((entry) => [...text.toLowerCase().matchAll(dateLiteralRegExp(entry))].map((m) => text.slice(m.index, m.index + m[0].length)));
    const text = 'On 15 January 2024, Jan 15th 2024 and 2024-1-15; not 115 Jan 2024, Jan 15 20245, 15 janitor 2024 or 15 Jan';
    expect(marks('2024-01-15', text).sort()).toEqual(['15 January 2024', '2024-1-15', 'Jan 15th 2024']);
    expect(marks('Jan 15, 2024', text).sort()).toEqual(['15 January 2024', '2024-1-15', 'Jan 15th 2024']);
  });
});
