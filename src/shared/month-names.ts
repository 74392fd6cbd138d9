/**
 * The names of the months a date is typed or written with, in English and in the languages most users of a desktop
 * app write besides it: French, German, Spanish, Italian, Portuguese and Dutch ("15 janvier 2024", "15. Januar 2024",
 * "15 de enero de 2024", "15 gennaio 2024", "janeiro 2024", "15 januari 2024"). Taken from Intl.DateTimeFormat (full
 * ICU in Node 20 and in Chromium), so they are spelled as the platform spells them, not typed by hand.
 */

/**
 * The languages besides English whose month names a date is read in. Peru's Spanish (es-PE) for its "setiembre",
 * which Peru, Chile and Uruguay write for "septiembre": ICU spells it so for Peru only.
 */
const LANGUAGES = ['fr', 'de', 'es', 'es-PE', 'it', 'pt', 'nl'] as const;

/** A word as the index folds it (unicode61, remove_diacritics 2): lower-cased, accents dropped ("März" is "marz"). */
export function foldWord(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The long names of LANGUAGES (intlNames), folded: "janvier", "mai", "mars". */
const LONG = new Set<string>();

/** The month names of `locale`, long and short, lower-cased, without the short names' dots ("janv.", "févr."). */
function intlNames(locale: string): string[][] {
  const names = (month: 'long' | 'short') => {
    const format = new Intl.DateTimeFormat(locale, { month, timeZone: 'UTC' });
    return Array.from({ length: 12 }, (_, i) => format.format(new Date(Date.UTC(2024, i, 15))).replace(/\.$/u, '').toLowerCase());
  };
  const [long, short] = [names('long'), names('short')];
  for (const name of long) LONG.add(foldWord(name));
  return long.map((name, i) => [name, short[i]!]);
}

/**
 * English names of the months, long first, then the short ones: "Sept" as well as "Sep". Typed, as English is the
 * one every build of ICU has.
 */
const ENGLISH: readonly (readonly string[])[] = [
  ['january', 'jan'],
  ['february', 'feb'],
  ['march', 'mar'],
  ['april', 'apr'],
  ['may'],
  ['june', 'jun'],
  ['july', 'jul'],
  ['august', 'aug'],
  ['september', 'sept', 'sep'],
  ['october', 'oct'],
  ['november', 'nov'],
  ['december', 'dec'],
];

/** Each month's names by language (English first), long and short, as written and with accents dropped. */
const BY_LANGUAGE: readonly { language: string; months: readonly (readonly string[])[] }[] = [
  { language: 'en', months: ENGLISH },
  ...LANGUAGES.map((language) => ({ language, months: intlNames(language).map((names) => [...new Set(names.flatMap((n) => [n, foldWord(n)]))]) })),
];

/** Each month's names in every language of BY_LANGUAGE, English first. */
export const MONTH_NAMES: readonly (readonly string[])[] = ENGLISH.map((_, i) => [...new Set(BY_LANGUAGE.flatMap(({ months }) => months[i]!))]);

/** A month's number (1-12) by any of its names (MONTH_NAMES), case and accents aside, a dot or comma after it. */
const BY_NAME = new Map(MONTH_NAMES.flatMap((names, i) => names.map((n) => [foldWord(n), i + 1] as const)));

/**
 * The names a month is read by without a day beside it ("janvier 2024", "Jan 2024"): the long names, and English's
 * short ones. Other languages' short names are words too often ("gen 2024", "set 2024", "out 2024", "ago 2024") to
 * be a month with only a number after them; with a day they are read ("3 set 2024").
 */
const ALONE = new Set([...ENGLISH.flat(), ...LONG]);

/** Each month's names read without a day beside them (ALONE), as MONTH_NAMES writes them. */
export const MONTH_NAMES_ALONE: readonly (readonly string[])[] = MONTH_NAMES.map((names) => names.filter((n) => ALONE.has(foldWord(n))));

/** A month's number (1-12) by any of its names, case and accents aside, a dot or comma after it; `alone`: ALONE only. */
export function monthNumber(word: string, alone = false): number | undefined {
  const name = foldWord(word.replace(/[.,]+$/u, ''));
  return alone && !ALONE.has(name) ? undefined : BY_NAME.get(name);
}

/** The words that join a day to its month or a month to its year: "15th of January", "15 de enero de 2024". */
export const DATE_JOINS = ['of', 'de'] as const;

/** The words that join a month to its year in Spanish and Portuguese: "de", and Spanish "del" (de + el: "marzo del 2024"). */
export const YEAR_JOINS = ['de', 'del'] as const;

/** The languages that join a day to its month and the month to its year with "de": Spanish and Portuguese. */
const JOINED_BY_DE = new Set(['es', 'es-PE', 'pt']);

/** A month's names that begin alike (MonthPrefix), and how those languages write a day with them. */
export interface MonthPrefix {
  /** The first three letters, as the index holds them (folded: "fév" is "fev"). */
  prefix: string;
  /** An English name begins so: its day may come after it ("January 15") and join it with "of" ("15th of January"). */
  english: boolean;
  /** A Spanish or Portuguese name begins so: "15 de enero de 2024". */
  de: boolean;
}

/**
 * The first three letters of a month's names, distinct (English's first): what FTS5's prefix index of 3 answers for
 * every name that begins so ("jan" for "january", "janvier", "januar"), and how each is written with a day.
 */
export function monthPrefixes(month: number): MonthPrefix[] {
  const out = new Map<string, MonthPrefix>();
  for (const { language, months } of BY_LANGUAGE) {
    for (const name of months[month - 1]!) {
      const prefix = foldWord(name).slice(0, 3);
      const seen = out.get(prefix) ?? { prefix, english: false, de: false };
      out.set(prefix, { prefix, english: seen.english || language === 'en', de: seen.de || JOINED_BY_DE.has(language) });
    }
  }
  return [...out.values()];
}
