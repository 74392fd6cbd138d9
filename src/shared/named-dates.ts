/**
 * A date typed with its month's name (month-names.ts): a day ("15 January 2024", "Jan. 15th, 2024", "15 of January
 * 2024", "15 de enero de 2024", "15. Januar 2024", "Jan 15, 24"), a day in any year ("the 15th of January"), or a
 * month ("January 2024", "janvier 2024"), in the query's words; and the pattern of the ways a text writes it.
 */
import { DATE_JOINS, MONTH_NAMES, MONTH_NAMES_ALONE, monthNumber, YEAR_JOINS } from './month-names';
import type { Day } from './number-separators';

/**
 * A year of two digits as the app's JavaScript reads one (V8's Date: "1/15/24" and "Jan 15, 24" are 2024, "1/15/50"
 * is 1950): 00-49 are 20xx, 50-99 19xx. Main and the renderer run that engine, so a date reads here as it would
 * anywhere else in the app, and a chat app's dates are recent: 20xx for the years a user is likely to mean.
 */
export function fullYear(year: string): string {
  if (year.length !== 2) return year;
  return `${Number(year) < 50 ? 20 : 19}${year}`;
}

export const valid = (month: number, day: number) => month >= 1 && month <= 12 && day >= 1 && day <= 31;

/**
 * A day's number, perhaps with its ordinal ("15th", French "1er", Spanish and Portuguese "1º" and "1.º", its
 * ordinal indicator: "1º de mayo") and a comma or dot after it ("January 15, 2024", German "15. Januar"): [number,
 * says it is a day (an ordinal or German dot)].
 */
function dayWord(word: string | undefined): [number, boolean] | undefined {
  const m = /^(\d{1,2})(st|nd|rd|th|er|\.?º)?([,.]?)$/iu.exec(word ?? '');
  return m ? [Number(m[1]), m[2] !== undefined || m[3] === '.'] : undefined;
}

/** A year of four digits, or of two (fullYear) where `short`, perhaps with a comma or dot after it. */
function yearWord(word: string | undefined, short: boolean): string | undefined {
  const m = (short ? /^(\d{4}|\d{2})[,.]?$/u : /^(\d{4})[,.]?$/u).exec(word ?? '');
  return m ? fullYear(m[1]!) : undefined;
}

const isJoin = (word: string | undefined) => (DATE_JOINS as readonly string[]).includes(word?.toLowerCase() ?? '');

/** A word between a month and its year: "of" (isJoin), "de", Spanish "del" ("marzo del 2024"; YEAR_JOINS). */
const isYearJoin = (word: string | undefined) => isJoin(word) || (YEAR_JOINS as readonly string[]).includes(word?.toLowerCase() ?? '');

/** A date read from some of a query's words: how many, and its day (NamedDate). */
export interface NamedDate {
  words: number;
  day: Day;
  /** Its year as typed in two digits ("Jan 15, 24": "24"), if so. */
  yy?: string;
}

/**
 * The date with its month's name that starts at `words[at]`, using all of `words` where `whole` (one word split at
 * its dashes: "15-Jan-2024"). A year of two digits is read (fullYear) after a day, not after a month alone: "January
 * 24" is a day. A day without its year is read only where it says it is one ("15th", "15 of", German "15."): "15 may"
 * and "may 15" stay words. A month's name alone ("may") is a word.
 */
export function namedDate(words: readonly string[], at: number, whole = false): NamedDate | undefined {
  const start = words[at]?.toLowerCase() === 'the' && !whole ? at + 1 : at;
  const read = dayFirst(words, start) ?? monthFirst(words, start) ?? monthOfYear(words, start);
  if (!read || (whole && start + read.words !== words.length)) return undefined;
  return { ...read, words: start - at + read.words };
}

/** "15 January 2024", "15th of January", "15 de enero de 2024", "15. Januar 24". */
function dayFirst(words: readonly string[], at: number): NamedDate | undefined {
  const day = dayWord(words[at]);
  if (!day) return undefined;
  let i = at + 1;
  const joined = isJoin(words[i]);
  if (joined) i++;
  const month = monthNumber(words[i] ?? '');
  if (month === undefined || !valid(month, day[0])) return undefined;
  return withYear(words, i + 1, at, month, day[0], day[1] || joined);
}

/** "January 15, 2024", "Jan. 15th 24", "January 15th". */
function monthFirst(words: readonly string[], at: number): NamedDate | undefined {
  const month = monthNumber(words[at] ?? '');
  const day = dayWord(words[at + 1]);
  if (month === undefined || !day || !valid(month, day[0])) return undefined;
  return withYear(words, at + 2, at, month, day[0], day[1]);
}

/** The year after a day and its month (a "de" or "del" first: "de 2024"), or none where the day says it is one. */
function withYear(words: readonly string[], i: number, at: number, month: number, day: number, sure: boolean): NamedDate | undefined {
  const de = (YEAR_JOINS as readonly string[]).includes(words[i]?.toLowerCase() ?? '') ? 1 : 0;
  const year = yearWord(words[i + de], true);
  const yy = /^\d{2}\b/u.exec(words[i + de] ?? '')?.[0];
  if (year !== undefined) return { words: i + de + 1 - at, day: [year, month, day], ...(yy === undefined ? {} : { yy }) };
  return sure ? { words: i - at, day: ['', month, day] } : undefined;
}

/** "January 2024", "janvier 2024", "enero de 2024", "marzo del 2024": the whole month (day 0). */
function monthOfYear(words: readonly string[], at: number): NamedDate | undefined {
  const month = monthNumber(words[at] ?? '', true);
  if (month === undefined) return undefined;
  const join = isYearJoin(words[at + 1]) ? 1 : 0;
  const year = yearWord(words[at + 1 + join], false);
  return year === undefined ? undefined : { words: 2 + join, day: [year, month, 0] };
}

/** An English ordinal's ending: 1st, 2nd, 3rd, 11th, 22nd. */
function ordinal(day: number): string {
  const tens = day % 100 >= 11 && day % 100 <= 13;
  return `${day}${tens ? 'th' : (['th', 'st', 'nd', 'rd'][day % 10] ?? 'th')}`;
}

/**
 * The ways a day's number is written beside a month's name: "5", "5th", "05"; the first also French "1er", and
 * Spanish and Portuguese "1º" and "1.º" (the ordinal indicator, said of the first day only: "1º de mayo").
 */
export function namedDayNumbers(day: number): string[] {
  return [`${day}`, ordinal(day), ...(day < 10 ? [`0${day}`] : []), ...(day === 1 ? ['1er', '1º', '1.º'] : [])];
}

/**
 * The days (or months: day 0) written with their month's name, as a regular expression's source (case aside: flag
 * "i"): the day (namedDayNumbers), perhaps "of" or "de", and the month by any of its names, or the month and the
 * day, then the year (perhaps after "de"), with one to three of space, ",", ".", "/" and "-" between ("15 January
 * 2024", "Jan. 15th, 2024", "15-JAN-2024", "15 de enero de 2024", "15. Januar 2024"); no letter or digit before or
 * after it. A day in any year (year "") has none after it; a month ("January 2024") is found with a day before or
 * after its name too ("15 January 2024", "January 15, 2024"), and without one by its names read alone
 * (MONTH_NAMES_ALONE: "janvier 2024", not "gen 2024").
 */
export function namedDatePattern(days: readonly Day[]): string {
  const gap = '[\\s,./-]{1,3}';
  const join = `(?:(?:${DATE_JOINS.join('|')})\\s+)?`;
  const anyDay = '[0-9]{1,2}(?:st|nd|rd|th|er|\\.?º)?';
  const ways = days.flatMap(([year, month, day]) => {
    const name = `(?:${MONTH_NAMES[month - 1]!.join('|')})`;
    const after = year === '' ? '' : `${gap}(?:(?:${YEAR_JOINS.join('|')})\\s+)?${year}`;
    if (day === 0) {
      // A name that is often a word in another language ("gen", "set") is a month with a day beside it only.
      const alone = `(?:${MONTH_NAMES_ALONE[month - 1]!.join('|')})`;
      return [`${anyDay}${gap}${join}${name}${after}`, `${name}${gap}${anyDay}${after}`, `${alone}${after}`];
    }
    const number = `(?:${namedDayNumbers(day).map((n) => n.replace('.', '\\.')).join('|')})`;
    return [`${number}${gap}${join}${name}${after}`, `${name}${gap}${number}${after}`];
  });
  return `(?<![0-9a-z])(?:${ways.join('|')})(?![0-9a-z])`;
}
