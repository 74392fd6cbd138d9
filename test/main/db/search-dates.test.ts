import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MATCH_END, MATCH_START } from '../../../src/main/db/search';
import { datedChat as deadlines, tick } from './helpers';

const dated = ([id, words]: readonly [string, string], date: string) => [id, words.replace(date, `${MATCH_START}${date}${MATCH_END}`)];

describe('search for a date written with its month\'s name, or without leading zeros', () => {
  // Search: "2024-01-15" found nothing where the model wrote "January 15, 2024" or "2024-1-15", nor "15 January 2024"
  // the message that said "2024-01-15" (it found 15, January and 2024 anywhere); each finds the others, marked whole.
  it('finds the same day however it is written, in numbers or with an English month, each way round', () => {
    const says = [
      ['m1', 'Released on 15 January 2024 after review'],
      ['m2', 'Invoice dated January 15, 2024, paid'],
      ['m3', 'Due Jan 15 2024 at the latest'],
      ['m4', 'Kickoff 15 Jan. 2024 in Lisbon'],
      ['m5', 'Logged 15-JAN-2024 by the server'],
      ['m6', 'Meeting on Jan. 15th, 2024 at noon'],
      ['m7', 'Shipped 2024-01-15 to everyone'],
      ['m8', 'Written 2024-1-15 by hand'],
      ['m9', 'Treffen am 15.1.2024 um zwölf'],
      ['x1', 'Not these: 15 January 2023, January 16, 2024, 115 Jan 2024, 15 2024 January'],
      ['x2', 'Nor these: janitor 15 2024, 15 maybe 2024, 2024 01 15 apart, 2024-11-15, 12024-1-15'],
    ] as const;
    const { hit } = deadlines(says);
    const dates = ['15 January 2024', 'January 15, 2024', 'Jan 15 2024', '15 Jan. 2024', '15-JAN-2024', 'Jan. 15th, 2024', '2024-01-15', '2024-1-15', '15.1.2024'];
    const all = says.slice(0, 9).map((said, i) => dated(said, dates[i]!));
    const queries = ['2024-01-15', '15.01.2024', '01/15/2024', '2024-1-15', '1/15/2024', '15.1.2024', '15 January 2024', 'January 15, 2024', '15 Jan 2024', 'Jan 15 2024', 'jan. 15th 2024', '15-Jan-2024', 'JANUARY 15 2024'];
    for (const query of queries) expect(hit(query), query).toEqual(all);
  });

  it('finds a day of one digit with its leading zero, its ordinal, and both days where day and month could be either', () => {
    const says = [
      ['e1', 'Shipped 3 February 2024.'],
      ['e2', 'Shipped March 2nd, 2024.'],
      ['e3', 'Shipped 03 Feb 2024.'],
      ['e4', 'Shipped 2024-2-3.'],
      ['x1', 'Not 4 February 2024, nor March 20, 2024, nor 13 Feb 2024, nor 3 Febuary 2024.'],
    ] as const;
    const { ids } = deadlines(says);
    expect(ids('03/02/2024')).toEqual(['e1', 'e2', 'e3', 'e4']);
    expect(ids('2024-02-03')).toEqual(['e1', 'e3', 'e4']);
    expect(ids('3 Feb 2024')).toEqual(['e1', 'e3', 'e4']);
    expect(ids('March 2 2024')).toEqual(['e2']);
    // September's three names.
    const sept = deadlines([['s1', 'Due Sept. 9, 2024'], ['s2', 'Due 9 September 2024'], ['s3', 'Due 2024-09-09'], ['x1', 'Not Sep 19 2024']]);
    expect(sept.ids('9 Sep 2024')).toEqual(['s1', 's2', 's3']);
    expect(sept.ids('2024-09-09')).toEqual(['s1', 's2', 's3']);
  });

  it('finds it with other words, in a title, and marks the date whole', () => {
    const { hit, store, search } = deadlines([
      ['d1', 'Invoice dated January 15, 2024, paid'],
      ['d2', 'Invoice dated 2024-01-16, paid'],
    ]);
    expect(hit('invoice 2024-01-15 paid')).toEqual([['d1', `${MATCH_START}Invoice${MATCH_END} dated ${MATCH_START}January 15, 2024${MATCH_END}, ${MATCH_START}paid${MATCH_END}`]]);
    expect(hit('15 January 2024 invoice').map(([id]) => id)).toEqual(['d1']);
    store.createConversation('c2', 'Plans for 15 Jan 2024', null, tick());
    expect(search.search('2024-01-15')[0]).toMatchObject({ conversationId: 'c2', turnId: null, snippet: `Plans for ${MATCH_START}15 Jan 2024${MATCH_END}` });
  });

  // A word or a number on its own is no date: "may", "15" and "2024" find what they found before, no more; nor a day
  // and a month that do not say they are one ("15 may": "15th" or "15 of May" do).
  it('leaves a month\'s name, a day or a year on its own, and a day without its year, as words', () => {
    const { ids } = deadlines([
      ['w1', 'You may go now'],
      ['w2', 'Maybe later'],
      ['w3', 'On 15 May 2024 we met'],
      ['w4', 'Version 2024.1 has 15 fixes'],
      ['w5', 'It was 2024-05-15 then'],
      ['w6', 'About 150 items in 2024'],
      ['w7', 'Nothing here'],
    ]);
    expect(ids('may')).toEqual(['w1', 'w2', 'w3']);
    expect(ids('15')).toEqual(['w3', 'w4', 'w5', 'w6']);
    expect(ids('2024')).toEqual(['w3', 'w4', 'w5', 'w6']);
    expect(ids('15 may')).toEqual(['w3']);
    expect(ids('15 May 2024')).toEqual(['w3', 'w5']);
    // A month and a year are a month (search-dates-more.test.ts), and a year of two digits a year: "15/05/24" is 2024.
    expect(ids('may 2024')).toEqual(['w3', 'w5']);
    expect(ids('15/05/24')).toEqual(['w3', 'w5']);
  });

  it('takes any month-like words and numbers as a query that cannot throw', () => {
    const { search } = deadlines([['d1', 'Due 15 January 2024']]);
    const word = fc.constantFrom('15', '15th,', '3rd', '31', '0', 'Jan', 'jan.', 'May', 'Sept', 'janitor', '2024', '2024,', '24', '"x"', 'OR', 'C++', '1.2', '15-Jan-2024', '2024-01-15', '2024-01', '01/2024', '15/01/24', 'the', 'of', 'de', '15.', '1er', 'janvier', 'März', 'NEAR');
    fc.assert(fc.property(fc.array(word, { maxLength: 6 }), (words) => Array.isArray(search.search(words.join(' ')))), { numRuns: 300 });
  });
});
