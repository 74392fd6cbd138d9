import { fullYear, namedDate, namedDatePattern, valid } from './named-dates';

/**
 * A date as typed in search: a year of four digits and a month, with or without the day ("2024-01", "2024-01-15"),
 * or a day and a month of one or two digits each and then the year ("15.01.2024", "01/15/2024"; "1.2.3" is one
 * too), joined by "-", "/" or ".", the last number perhaps part-typed. Search finds it however the text separates
 * its numbers ("2024/01/15", "2024.01.15"), the same numbers in the same order (a whole date also in its other
 * orders: dateSpellings, and with its month's name: typedDate); two numbers such as "1.2" or "3.11" (a version) stay as
 * typed.
 */
export const DATE_WORD = /^(?:\d{4}[-/.]\d{1,2}(?:[-/.]\d{0,2})?|\d{1,2}[-/.]\d{1,2}[-/.]\d{0,4})$/;

/** What every separator of a date is folded to: a control character, which no searched word holds (queryWords). */
export const DATE_SEPARATOR = '\u0001';

/** `text` with every "-", "/" and "." as DATE_SEPARATOR: one character for one, so offsets into it are offsets into `text`. */
export function foldSeparators(text: string): string {
  return text.replace(/[-/.]/g, DATE_SEPARATOR);
}

/**
 * A whole date: a year of four digits first or last, and a month and a day of one or two digits; or the year last in
 * two digits ("15/01/24": fullYear). A year of two digits first is none: "24/01/15" could be either day.
 */
const FULL_DATE = /^(?:(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})|(\d{1,2})[-/.](\d{1,2})[-/.](\d{4}|\d{2}))$/;

/** A month: a year of four digits and the month's number, either way round ("2024-01", "01/2024"). */
const MONTH_DATE = /^(?:(\d{4})[-/.](\d{1,2})|(\d{1,2})[-/.](\d{4}))$/;

/**
 * One day a date typed can be: its year as typed (four digits: fullYear), month and day as numbers. A year "" is any
 * year ("the 15th of January"); a day 0 is any day of the month ("January 2024", "2024-01").
 */
export type Day = [year: string, month: number, day: number];

/** A whole date found in a query's words (typedDate). */
export interface TypedDate {
  /** How many of the words it is ("15 January 2024": 3). */
  words: number;
  /** Its numbers as typed, where it is one word of numbers ("15.01.2024"); undefined where it names its month. */
  typed?: string[];
  /** The days it can be: two where the day and the month could be either ("03/02/2024"). */
  days: Day[];
  /** Its year as typed in two digits ("15/01/24", "Jan 15, 24": "24"): looked for so too, day or month first. */
  yy?: string;
}

export { MONTH_NAMES } from './month-names';
export { namedDatePattern, namedDayNumbers } from './named-dates';

/**
 * The whole date (or month) that starts at `words[at]`, if any: one word of numbers ("15.01.2024", "2024-1-15",
 * "15/01/24"; FULL_DATE; "2024-01", "01/2024": MONTH_DATE), or a date with its month's name (named-dates.ts) in one
 * word ("15-Jan-2024") or several ("15 January 2024", "Jan 15, 24", "15 de enero de 2024", "the 15th of January",
 * "January 2024"). A month's name, a day or a year alone ("may", "15", "2024") are words, as is "15 may".
 */
export function typedDate(words: readonly string[], at: number): TypedDate | undefined {
  const word = words[at];
  if (word === undefined) return undefined;
  const typed = word.split(/[-/.]/);
  const m = FULL_DATE.exec(word);
  if (m) {
    const days: Day[] = [];
    if (m[1] !== undefined) {
      if (valid(Number(m[2]), Number(m[3]))) days.push([m[1], Number(m[2]), Number(m[3])]);
    } else {
      const [a, b, year] = [Number(m[4]), Number(m[5]), fullYear(m[6]!)];
      if (valid(b, a)) days.push([year, b, a]);
      if (valid(a, b) && a !== b) days.push([year, a, b]);
    }
    return days.length === 0 ? undefined : { words: 1, typed, days, ...(m[6]?.length === 2 ? { yy: m[6] } : {}) };
  }
  const month = MONTH_DATE.exec(word);
  if (month) {
    const [year, number] = month[1] !== undefined ? [month[1], Number(month[2])] : [month[4]!, Number(month[3])];
    return number >= 1 && number <= 12 ? { words: 1, typed, days: [[year, number, 0]] } : undefined;
  }
  const inOne = namedDate(typed, 0, true);
  const named = inOne ? { ...inOne, words: 1 } : namedDate(words, at);
  return named ? { words: named.words, days: [named.day], ...(named.yy === undefined ? {} : { yy: named.yy }) } : undefined;
}

/** A year of four digits in a spelling of a day in any year (Day's year ""): a GLOB's, and a regular expression's. */
export const ANY_YEAR = '[0-9][0-9][0-9][0-9]';

/**
 * A day of one or two digits in a spelling of a month (Day's day 0): the month is found by its year and number alone
 * ("2024-01" in "2024-01-15"), and with these the whole day is marked, not "2024-01" of it.
 */
const ANY_DAY = ['[0-9]', '[0-9][0-9]'];

/** A number as it is written, with its leading zero and without ("03", "3"); one way from 10 on. */
const writings = (n: number) => (n < 10 ? [`0${n}`, `${n}`] : [`${n}`]);

/**
 * The ways a whole date typed in numbers is written elsewhere, each as its numbers in order: year first (ISO, with
 * its leading zeros, and without them: "2024-1-15"), day first (most of the world) and month first (the US), each
 * with the month's and the day's leading zeros or without, or one and not the other ("3.02.2024", "03.2.2024"). Day or
 * month first, both days are looked for where both numbers can be the month ("03/02/2024": 3 February or March 2).
 * The numbers as typed come first, where typed so. A year typed in two digits is looked for so too ("15/01/24",
 * "1/15/24"), day or month first: every date is not, as each spelling is one more phrase and GLOB. A day in any year has ANY_YEAR for its year; a month (day 0) is
 * its year and month, either way round ("2024-01", "01/2024", which "15/01/2024" holds), and those with any day
 * (ANY_DAY), day or month first ("01/15/2024", a US date: the index is asked for it with its day between, a NEAR
 * group: search-query.ts).
 */
export function numericSpellings(date: TypedDate): string[][] {
  const out = new Map(date.typed ? [[date.typed.join('-'), date.typed]] : []);
  for (const [typedYear, month, day] of date.days) {
    const year = typedYear === '' ? ANY_YEAR : typedYear;
    const spellings: string[][] = [];
    for (const m of writings(month)) {
      if (day === 0) spellings.push([year, m], [m, year], ...ANY_DAY.flatMap((d) => [[year, m, d], [d, m, year], [m, d, year]]));
      else for (const d of writings(day)) spellings.push([year, m, d], [d, m, year], [m, d, year], ...(date.yy === undefined ? [] : [[d, m, date.yy], [m, d, date.yy]]));
    }
    // Both padded first, then neither, then one of them: the ways most texts write a date first.
    const padded = (s: string[]) => s.filter((n) => n.length === 1).length;
    spellings.sort((a, b) => rank(padded(a), a.length) - rank(padded(b), b.length));
    for (const spelling of spellings) out.set(spelling.join('-'), spelling);
  }
  return [...out.values()];
}

/** numericSpellings' order: none unpadded, then all (of two or of one), then mixed. */
const rank = (unpadded: number, length: number) => (unpadded === 0 ? 0 : unpadded === (length === 3 ? 2 : 1) ? 1 : 2);

/** numericSpellings of a whole date typed as one word of numbers; undefined where `word` is none ("15.01.202"). */
export function dateSpellings(word: string): string[][] | undefined {
  const date = typedDate([word], 0);
  return date?.typed ? numericSpellings(date) : undefined;
}

/** The FTS5 phrase of a spelling (numericSpellings): its numbers, not those of any year or day (ANY_YEAR, ANY_DAY). */
export function spellingPhrase(spelling: readonly string[]): string {
  return spelling.filter((n) => !n.startsWith('[')).join(' ');
}

/** A spelling with any number (ANY_YEAR, ANY_DAY) between two of its own: a US month, "01/[any day]/2024". */
export function anyBetween(spelling: readonly string[]): boolean {
  return spelling.length === 3 && spelling[1]!.startsWith('[') && !spelling[0]!.startsWith('[') && !spelling[2]!.startsWith('[');
}

/**
 * What a hit must hold for a whole date (search-hit.ts's Literal): a GLOB of each of its numeric spellings
 * (dateGlob; the one typed a prefix: results follow typing) and the pattern of its spellings with the month's name
 * (namedDatePattern), which starts with "(", a GLOB with "*".
 */
export function dateLiteral(date: TypedDate): string[] {
  return [...numericSpellings(date).map((s, i) => dateGlob(s, date.typed !== undefined && i === 0)), namedDatePattern(date.days)];
}

/** Where an entry of dateLiteral matches in a text, lower-cased, for its marks. */
export function dateLiteralRegExp(entry: string): RegExp {
  return entry.startsWith('*') ? dateGlobRegExp(entry) : new RegExp(entry, 'gi');
}

/**
 * A spelling's numbers (dateSpellings) as an SQLite GLOB over the text with a space at each end: no digit before it,
 * "-", "/" or "." between them, and no digit after it unless `prefix` (the date as typed, perhaps typed part way:
 * results follow typing): "1/15/2024" is not in "11/15/2024", nor "2024-01-01" in "2024-01-012".
 */
export function dateGlob(numbers: readonly string[], prefix = false): string {
  // search-hit.ts's literalMissing reads it first without its "*[^0-9]" (7 characters), for speed.
  return `*[^0-9]${numbers.join('[-/.]')}${prefix ? '*' : '[^0-9]*'}`;
}

/** Where a dateGlob matches in a text, for its marks. */
export function dateGlobRegExp(glob: string): RegExp {
  const whole = glob.endsWith('[^0-9]*');
  const numbers = glob.slice('*[^0-9]'.length, glob.length - (whole ? '[^0-9]*'.length : 1));
  return new RegExp(`(?<![0-9])${numbers}${whole ? '(?![0-9])' : ''}`, 'g');
}
