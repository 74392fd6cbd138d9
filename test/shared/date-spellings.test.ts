import { describe, expect, it } from 'vitest';
import { dateGlob, dateGlobRegExp, dateSpellings } from '../../src/shared/number-separators';

const spelled = (word: string) => dateSpellings(word)?.map((s) => s.join('-'));

describe('dateSpellings (a whole date typed, and the other ways its day is written)', () => {
  it('spells the day year, day and month first, with and without leading zeros, as typed first', () => {
    expect(spelled('15.01.2024')).toEqual(['15-01-2024', '2024-01-15', '01-15-2024', '15-1-2024', '1-15-2024']);
    expect(spelled('2024/1/15')).toEqual(['2024-1-15', '2024-01-15', '15-01-2024', '01-15-2024', '15-1-2024', '1-15-2024']);
  });

  it('spells both days where the day and the month could be either, one where they are the same', () => {
    expect(spelled('03/02/2024')).toEqual(['03-02-2024', '2024-02-03', '02-03-2024', '3-2-2024', '2-3-2024', '2024-03-02']);
    expect(spelled('5.5.2024')).toEqual(['5-5-2024', '2024-05-05', '05-05-2024']);
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
