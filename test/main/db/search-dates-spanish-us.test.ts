/**
 * Search for the dates a last note found still missed: Spanish "del" (de + el: "15 de marzo del 2024"), the
 * "setiembre" of Peru, Chile and Uruguay, the ordinal indicator of the first day ("1º de mayo", "1.º de mayo"), and a
 * US date, month first ("3/15/2024"), found by its month ("March 2024"). Asked as conversations:search asks
 * (datedChat: SearchStore.find).
 */
import { describe, expect, it } from 'vitest';
import { MATCH_END, MATCH_START } from '../../../src/main/db/search';
import { datedChat } from './helpers';

/** The marked parts of a snippet. */
const marks = (snippet: string) => [...snippet.matchAll(new RegExp(`${MATCH_START}([^${MATCH_END}]*)${MATCH_END}`, 'gu'))].map((m) => m[1]);

describe('search for a date as Spanish and US users write it', () => {
  it('finds "15 de marzo del 2024" and "marzo del 2024", typed or written so', () => {
    const says = [
      ['s1', 'La reunión fue el 15 de marzo del 2024 en Lima'],
      ['s2', 'Entregado el 2024-03-15'],
      ['x1', 'No el 16 de marzo del 2024, ni el 15 de marzo del 2023, ni del 15 de abril'],
    ] as const;
    const { ids, hit } = datedChat(says);
    for (const query of ['15 de marzo del 2024', '2024-03-15', 'March 15, 2024']) expect(ids(query), query).toEqual(['s1', 's2']);
    expect(hit('15 de marzo del 2024').map(([, snippet]) => marks(snippet))).toEqual([['15 de marzo del 2024'], ['2024-03-15']]);
    expect(ids('marzo del 2024')).toEqual(['s1', 's2', 'x1']);
  });

  it('finds "setiembre", as Peru, Chile and Uruguay write September', () => {
    const says = [
      ['p1', 'Vence el 10 de setiembre de 2024'],
      ['p2', 'Pagado el 10/09/2024'],
      ['p3', 'Informe de setiembre de 2024'],
      ['x1', 'No el 10 de octubre de 2024, ni el 11 de setiembre de 2024'],
    ] as const;
    const { ids } = datedChat(says);
    for (const query of ['10 de setiembre de 2024', '10 de septiembre de 2024', '2024-09-10', 'setiembre 10, 2024']) expect(ids(query), query).toEqual(['p1', 'p2']);
    expect(ids('setiembre de 2024')).toEqual(['p1', 'p2', 'p3', 'x1']);
    expect(ids('September 2024')).toEqual(['p1', 'p2', 'p3', 'x1']);
  });

  it('finds the first day written with its ordinal indicator, "1º de mayo" and "1.º de mayo"', () => {
    const says = [
      ['o1', 'Feriado el 1º de mayo de 2024'],
      ['o2', 'Desde el 1.º de mayo de 2024, nuevo horario'],
      ['o3', 'Abre el 2024-05-01'],
      ['x1', 'No el 11 de mayo de 2024 ni el 1º de junio de 2024'],
    ] as const;
    const { ids, hit } = datedChat(says);
    for (const query of ['1º de mayo de 2024', '1.º de mayo de 2024', '2024-05-01', 'May 1, 2024']) expect(ids(query), query).toEqual(['o1', 'o2', 'o3']);
    expect(hit('2024-05-01').map(([, snippet]) => marks(snippet))).toEqual([['1º de mayo de 2024'], ['1.º de mayo de 2024'], ['2024-05-01']]);
    expect(ids('1º de mayo')).toEqual(['o1', 'o2', 'o3']);
  });

  it('finds a US date, month first, by its month: "3/15/2024" for "March 2024"', () => {
    const says = [
      ['u1', 'Invoice due 3/15/2024, please pay'],
      ['u2', 'Invoice due 03/05/2024 for the rent'],
      ['u3', 'Shipped on March 2, 2024'],
      ['x1', 'Not 4/15/2024, 3/15/2023, 13/15/2024 nor 3 of 2024 and 15 2024'],
    ] as const;
    const { ids, hit } = datedChat(says);
    for (const query of ['March 2024', 'Mar 2024', '2024-03', '03/2024']) expect(ids(query), query).toEqual(['u1', 'u2', 'u3']);
    expect(hit('March 2024').map(([, snippet]) => marks(snippet))).toEqual([['3/15/2024'], ['03/05/2024'], ['March 2, 2024']]);
  });
});
