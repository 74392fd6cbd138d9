/**
 * Search for the forms of a date users type that still found nothing (or found their words anywhere): a month
 * without its day, "of" between, mixed leading zeros, a year of two digits, and a month's name in French, German,
 * Spanish, Italian, Portuguese or Dutch. Asked as the app's conversations:search asks (datedChat: SearchStore.find).
 */
import { describe, expect, it } from 'vitest';
import { MATCH_END, MATCH_START } from '../../../src/main/db/search';
import { datedChat } from './helpers';

/** The marked parts of a snippet. */
const marks = (snippet: string) => [...snippet.matchAll(new RegExp(`${MATCH_START}([^${MATCH_END}]*)${MATCH_END}`, 'gu'))].map((m) => m[1]);

describe('search for a date as users type it', () => {
  it('finds a month without its day, "January 2024", "Jan 2024", "2024-01" or "01/2024", in each way its days are written', () => {
    const says = [
      ['m1', 'Released on 15 January 2024 after review'],
      ['m2', 'Invoice dated January 3, 2024, paid'],
      ['m3', 'Shipped 2024-01-31 to everyone'],
      ['m4', 'Treffen am 15.01.2024 um zwölf'],
      ['m5', 'Planned for January 2024'],
      ['m6', 'Budget 01/2024 approved'],
      ['m7', 'Le 2 janvier 2024, rendez-vous'],
      ['x1', 'Not these: 15 February 2024, January 2023, 2024-02-01, 2023-01-15, 15.02.2024'],
      ['x2', 'Nor these: janitor 2024, January and then 2024 later, 12024-01-15, the next gen 2024 models'],
    ] as const;
    const { ids, hit } = datedChat(says);
    for (const query of ['January 2024', 'Jan 2024', 'jan. 2024', '2024-01', '2024/1', '01/2024', '1.2024', 'janvier 2024', 'enero de 2024']) {
      expect(ids(query), query).toEqual(['m1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7']);
    }
    // Each marked whole as it is written, the day with it.
    expect(hit('January 2024').flatMap(([, snippet]) => marks(snippet))).toEqual(['15 January 2024', 'January 3, 2024', '2024-01-31', '15.01.2024', 'January 2024', '01/2024', '2 janvier 2024']);
    // "May" and "2024" apart stay words (search-dates.test.ts), and a month of another year is another month.
    expect(ids('February 2024')).toEqual(['x1']);
    expect(ids('January 2023')).toEqual(['x1']);
  });

  it('finds "15 of January 2024" and "the 15th of January", the last in any year', () => {
    const says = [
      ['d1', 'Released on 15 January 2024 after review'],
      ['d2', 'Shipped 2024-01-15 to everyone'],
      ['d3', 'We met on the 15th of January, 2024 in Lisbon'],
      ['d4', 'A year before, on January 15th, 2023'],
      ['x1', 'Not these: 16 January 2024, the 15th of February, version 15.1, 2024-15-01 and 15 janitors'],
    ] as const;
    const { ids, hit } = datedChat(says);
    expect(ids('15 of January 2024')).toEqual(['d1', 'd2', 'd3']);
    expect(ids('15th of January 2024')).toEqual(['d1', 'd2', 'd3']);
    expect(ids('2024-01-15')).toEqual(['d1', 'd2', 'd3']);
    expect(ids('the 15th of January')).toEqual(['d1', 'd2', 'd3', 'd4']);
    expect(ids('January 15th')).toEqual(['d1', 'd2', 'd3', 'd4']);
    expect(hit('the 15th of January').map(([, snippet]) => marks(snippet))).toEqual([['15 January'], ['2024-01-15'], ['15th of January'], ['January 15th']]);
  });

  it('finds a day with the leading zero of one number and not the other, "3.02.2024", "03.2.2024", "3/02/2024"', () => {
    const says = [
      ['z1', 'Signed 3.02.2024 in Rome'],
      ['z2', 'Signed 03.2.2024 in Rome'],
      ['z3', 'Signed 3/02/2024 in Rome'],
      ['z4', 'Signed 2024-02-03 in Rome'],
      ['z5', 'Signed 3 February 2024 in Rome'],
      ['x1', 'Not 13.02.2024, 3.02.2023, 4.02.2024 nor 23.02.2024'],
    ] as const;
    const { ids } = datedChat(says);
    for (const query of ['3.02.2024', '03.2.2024', '3/02/2024', '2024-02-03', '03.02.2024', '3 Feb 2024']) expect(ids(query), query).toEqual(['z1', 'z2', 'z3', 'z4', 'z5']);
  });

  // "15/01/24" could be 2024 or 1924; JavaScript (V8's Date, which main and the renderer run) reads 00-49 as 20xx.
  it('finds a date typed with a year of two digits, "15/01/24", "15.01.24", "Jan 15, 24", as 2024', () => {
    const says = [
      ['y1', 'Due 2024-01-15, firm'],
      ['y2', 'Due January 15, 2024, firm'],
      ['y3', 'Due 15/01/24, firm'],
      ['y4', 'Back in 1999-01-15'],
      ['x1', 'Not 2023-01-15, 2124-01-15 nor 15/01/2025'],
    ] as const;
    const { ids } = datedChat(says);
    for (const query of ['15/01/24', '15.01.24', '1/15/24', 'Jan 15, 24', '15 Jan 24']) expect(ids(query), query).toEqual(['y1', 'y2', 'y3']);
    expect(ids('15.01.99')).toEqual(['y4']);
  });

  it('finds a date with its month in French, German, Spanish, Italian, Portuguese or Dutch, typed or written so', () => {
    const says = [
      ['l1', 'Réunion le 15 janvier 2024 à Paris'],
      ['l2', 'Treffen am 15. Januar 2024 in Berlin'],
      ['l3', 'Reunión el 15 de enero de 2024 en Madrid'],
      ['l4', 'Riunione il 15 gennaio 2024 a Roma'],
      ['l5', 'Reunião em 15 de janeiro de 2024 em Lisboa'],
      ['l6', 'Vergadering op 15 januari 2024 in Amsterdam'],
      ['l7', 'Meeting on 2024-01-15 in London'],
      ['x1', 'Pas le 15 février 2024, ni le 16 janvier 2024, nor 15 de enero de 2023, nor the janitor on 15 2024'],
    ] as const;
    const { ids, hit } = datedChat(says);
    const all = ['l1', 'l2', 'l3', 'l4', 'l5', 'l6', 'l7'];
    for (const query of ['15 janvier 2024', '15. Januar 2024', '15 de enero de 2024', '15 gennaio 2024', '15 de janeiro de 2024', '15 januari 2024', '15 JANVIER 2024', '2024-01-15', 'January 15, 2024']) {
      expect(ids(query), query).toEqual(all);
    }
    expect(hit('2024-01-15').map(([, snippet]) => marks(snippet))).toEqual([['15 janvier 2024'], ['15. Januar 2024'], ['15 de enero de 2024'], ['15 gennaio 2024'], ['15 de janeiro de 2024'], ['15 januari 2024'], ['2024-01-15']]);
    // A month's name with its accents or without, as it is often typed: "fevrier", "Marz".
    const accents = datedChat([['a1', 'Le 3 février 2024'], ['a2', 'Am 3. März 2024'], ['a3', 'Op 3 maart 2024']]);
    expect(accents.ids('3 fevrier 2024')).toEqual(['a1']);
    expect(accents.ids('2024-02-03')).toEqual(['a1']);
    expect(accents.ids('3 Marz 2024')).toEqual(['a2', 'a3']);
    expect(accents.ids('janeiro 2024')).toEqual([]);
    expect(accents.ids('março 2024')).toEqual(['a2', 'a3']);
  });
});
