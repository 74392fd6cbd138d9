import { describe, expect, it } from 'vitest';
import { dateGlob, dateGlobRegExp, dateLiteral, dateLiteralRegExp, dateSpellings, typedDate } from '../../src/shared/number-separators';

const spelled = (word: string) => dateSpellings(word)?.map((s) => s.join('-'));

describe('dateSpellings (a whole date typed, and the other ways its day is written)', () => {
  it('spells the day year, day and month first, with and without leading zeros ("2024-1-15" too), as typed first', () => {
    expect(spelled('15.01.2024')).toEqual(['15-01-2024', '2024-01-15', '01-15-2024', '2024-1-15', '15-1-2024', '1-15-2024']);
    expect(spelled('2024/1/15')).toEqual(['2024-1-15', '2024-01-15', '15-01-2024', '01-15-2024', '15-1-2024', '1-15-2024']);
  });

  it('spells both days where the day and the month could be either, one where they are the same', () => {
    const padded = ['03-02-2024', '2024-02-03', '02-03-2024', '2024-2-3', '3-2-2024', '2-3-2024'];
    expect(spelled('03/02/2024')?.slice(0, 6)).toEqual(padded);
    expect(spelled('03/02/2024')).toEqual(expect.arrayContaining(['2024-03-02', '2024-3-2']));
    expect(spelled('5.5.2024')).toEqual(['5-5-2024', '2024-05-05', '05-05-2024', '2024-5-5', '2024-05-5', '5-05-2024', '05-5-2024', '2024-5-05']);
  });

  // Search: "3.02.2024" written in a message was found by no other spelling of the day, nor "2024-02-03" by it.
  it('spells a day with the leading zero of one number and not the other ("3.02.2024", "03.2.2024")', () => {
    expect(spelled('2024-02-03')).toEqual(expect.arrayContaining(['3-02-2024', '03-2-2024', '02-3-2024', '2-03-2024', '2024-2-03', '2024-02-3']));
    expect(spelled('3.02.2024')?.[0]).toBe('3-02-2024');
  });

  // Search: "15/01/24" found only "15/01/24" as typed.
  it('reads a year of two digits last as JavaScript does: 00-49 are 20xx, 50-99 19xx', () => {
    expect(spelled('15/01/24')?.slice(0, 3)).toEqual(['15-01-24', '2024-01-15', '15-01-2024']);
    expect(spelled('15.01.49')?.[1]).toBe('2049-01-15');
    expect(spelled('15.01.50')?.[1]).toBe('1950-01-15');
    expect(spelled('24/01/15')?.[1]).toBe('2015-01-24');
  });

  // Search: "2024-01" and "01/2024" found those numbers as typed only, not "15/01/2024" nor "January 2024".
  it('spells a month by its year and number either way round, alone or with any day', () => {
    for (const word of ['2024-01', '01/2024', '1.2024']) expect(spelled(word), word).toEqual(expect.arrayContaining(['2024-01', '01-2024', '2024-1', '1-2024', '2024-01-[0-9][0-9]', '[0-9][0-9]-01-2024']));
  });

  // Search: "March 2024" found "15/03/2024" and not the US "3/15/2024".
  it('spells a month with any day between it and its year, month first as the US writes it', () => {
    expect(spelled('2024-03')).toEqual(expect.arrayContaining(['03-[0-9][0-9]-2024', '3-[0-9]-2024', '3-[0-9][0-9]-2024']));
  });

  it('leaves alone what is no whole date: part-typed, no month, a version', () => {
    for (const word of ['15.01.202', '15.01.', '2024-01-', '13.13.2024', '2024-13-01', '2024-13', '13/2024', '2024-01-00', '1.2.3', '15-01-20245', '1.2.24.5']) expect(spelled(word), word).toBeUndefined();
  });

  it('marks a spelling with no digit before it, nor after it unless it is the one typed', () => {
    const marks = (glob: string, text: string) => [...text.matchAll(dateGlobRegExp(glob))].map((m) => m[0]);
    expect(marks(dateGlob(['1', '15', '2024']), '11/15/2024, 1/15/2024, 1.15.20245')).toEqual(['1/15/2024']);
    expect(marks(dateGlob(['2024', '01', '1'], true), '2024-01-15 and 2024.01.1')).toEqual(['2024-01-1', '2024.01.1']);
  });
});

describe('typedDate (a whole date in a query\'s words, in numbers or with a month\'s name)', () => {
  const at = (query: string, i = 0) => typedDate(query.split(' '), i);

  it('reads a day, a month by its long or short name and a year, either way round, in one word or three', () => {
    for (const query of ['15 January 2024', 'January 15, 2024', 'jan 15 2024', 'Jan. 15th, 2024', '15th JAN 2024', '15 Jan 2024.']) expect(at(query), query).toEqual({ words: 3, days: [['2024', 1, 15]] });
    expect(at('15-Jan-2024')).toEqual({ words: 1, days: [['2024', 1, 15]] });
    expect(at('due 9 Sept 2024', 1)).toEqual({ words: 3, days: [['2024', 9, 9]] });
    expect(at('2024-1-15')).toEqual({ words: 1, typed: ['2024', '1', '15'], days: [['2024', 1, 15]] });
  });

  it('reads no date in a month, a day or a year alone, a day and a month that do not say so, or an impossible day', () => {
    for (const query of ['may', '15', '2024', '15 May', 'May 15', 'January 24', '32 January 2024', '15 Janu 2024', '2024 January 15', 'the may', '15 janvier', 'gen 2024', 'set 2024', 'out 2024']) expect(at(query), query).toBeUndefined();
  });

  // Search: each of these found nothing, or found its words anywhere.
  it('reads "of" and "de" between, another language\'s month, a year of two digits, a day in any year and a month', () => {
    for (const query of ['15 of January 2024', '15th of January, 2024', '15. Januar 2024', '15 janvier 2024', '15 de enero de 2024', '15 gennaio 2024', '15 januari 2024', '15 JANVIER 2024', 'Jan 15, 24', '15 Jan 24']) {
      expect(at(query)?.days, query).toEqual([['2024', 1, 15]]);
    }
    expect(at('the 15th of January')).toEqual({ words: 4, days: [['', 1, 15]] });
    expect(at('January 15th')).toEqual({ words: 2, days: [['', 1, 15]] });
    expect(at('15 de marzo')).toEqual({ words: 3, days: [['', 3, 15]] });
    for (const query of ['January 2024', 'Jan 2024', 'janeiro 2024', 'enero de 2024', 'Januar 2024']) expect(at(query), query).toEqual({ words: query.split(' ').length, days: [['2024', 1, 0]] });
    expect(at('3 février 2024')?.days).toEqual([['2024', 2, 3]]);
    expect(at('3 fevrier 2024')?.days).toEqual([['2024', 2, 3]]);
    expect(at('1er mars 2024')?.days).toEqual([['2024', 3, 1]]);
    expect(at('15 März 2024')?.days).toEqual([['2024', 3, 15]]);
  });

  // Search: each of these was words ("del", "setiembre", "1º" were no part of a date).
  it('reads Spanish "del" before the year, "setiembre", and the first day with its ordinal indicator ("1º", "1.º")', () => {
    expect(at('15 de marzo del 2024')).toEqual({ words: 5, days: [['2024', 3, 15]] });
    expect(at('marzo del 2024')).toEqual({ words: 3, days: [['2024', 3, 0]] });
    expect(at('10 de setiembre de 2024')?.days).toEqual([['2024', 9, 10]]);
    expect(at('setiembre 2024')?.days).toEqual([['2024', 9, 0]]);
    expect(at('1º de mayo de 2024')?.days).toEqual([['2024', 5, 1]]);
    expect(at('1.º de mayo')).toEqual({ words: 3, days: [['', 5, 1]] });
    expect(at('1º mayo')).toEqual({ words: 2, days: [['', 5, 1]] });
  });

  it('marks each spelling of the day whole, and no other day or word', () => {
    const marks = (query: string, text: string) => dateLiteral(at(query)!).flatMap((entry) => [...text.toLowerCase().matchAll(dateLiteralRegExp(entry))].map((m) => text.slice(m.index, m.index + m[0].length)));
    const text = 'On 15 January 2024, Jan 15th 2024 and 2024-1-15; not 115 Jan 2024, Jan 15 20245, 15 janitor 2024 or 15 Jan';
    expect(marks('2024-01-15', text).sort()).toEqual(['15 January 2024', '2024-1-15', 'Jan 15th 2024']);
    expect(marks('Jan 15, 2024', text).sort()).toEqual(['15 January 2024', '2024-1-15', 'Jan 15th 2024']);
  });
});
