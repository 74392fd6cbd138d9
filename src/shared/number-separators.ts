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

/** A whole date: a year of four digits first or last, and a month and a day of one or two digits. */
const FULL_DATE = /^(?:(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})|(\d{1,2})[-/.](\d{1,2})[-/.](\d{4}))$/;

/** One day a date typed can be: its year as typed, month and day as numbers. */
export type Day = [year: string, month: number, day: number];

/** A whole date found in a query's words (typedDate). */
export interface TypedDate {
  /** How many of the words it is ("15 January 2024": 3). */
  words: number;
  /** Its numbers as typed, where it is one word of numbers ("15.01.2024"); undefined where it names its month. */
  typed?: string[];
  /** The days it can be: two where the day and the month could be either ("03/02/2024"). */
  days: Day[];
}

/**
 * The English names of the months, long first, then the short ones: "Sept" as well as "Sep". Other languages' are
 * not looked for ("15. Januar 2024" is found by its numbers only where it writes them): each name is one more
 * phrase for the index, and a short name in one language is a word in another ("mar" is the sea in Spanish).
 */
export const MONTH_NAMES: readonly (readonly string[])[] = [
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

const valid = (month: number, day: number) => month >= 1 && month <= 12 && day >= 1 && day <= 31;

/** A day's number, perhaps with its English ordinal ("15th") and a comma after it ("January 15, 2024"). */
const DAY_WORD = /^(\d{1,2})(?:st|nd|rd|th)?,?$/i;
const YEAR_WORD = /^(\d{4})[,.]?$/;

/** A month's number (1-12) from its English name, long or short, with a dot or comma after it; else undefined. */
function monthNumber(word: string): number | undefined {
  const name = word.replace(/[.,]+$/, '').toLowerCase();
  const at = MONTH_NAMES.findIndex((names) => names.includes(name));
  return at < 0 ? undefined : at + 1;
}

/** Day, month by name and year, or month, day and year ("15 Jan 2024", "January 15, 2024"), as one Day. */
function namedDay(parts: readonly string[]): Day | undefined {
  if (parts.length !== 3) return undefined;
  const year = YEAR_WORD.exec(parts[2]!)?.[1];
  if (year === undefined) return undefined;
  for (const [d, m] of [[parts[0]!, parts[1]!], [parts[1]!, parts[0]!]] as const) {
    const day = DAY_WORD.exec(d)?.[1];
    const month = monthNumber(m);
    if (day !== undefined && month !== undefined && valid(month, Number(day))) return [year, month, Number(day)];
  }
  return undefined;
}

/**
 * The whole date that starts at `words[at]`, if any: one word of numbers ("15.01.2024", "2024-1-15"; FULL_DATE), a
 * day, an English month's name and a year in one word ("15-Jan-2024") or three ("15 January 2024", "Jan 15, 2024",
 * "January 15th 2024"). A year of two digits is none ("15/01/24"): "24/01/15" could be either day, and "22.04.1"
 * is a version. A month and a year without the day ("May 2024") are words, as before: "may" is a word.
 */
export function typedDate(words: readonly string[], at: number): TypedDate | undefined {
  const word = words[at];
  if (word === undefined) return undefined;
  const m = FULL_DATE.exec(word);
  if (m) {
    const days: Day[] = [];
    if (m[1] !== undefined) {
      if (valid(Number(m[2]), Number(m[3]))) days.push([m[1], Number(m[2]), Number(m[3])]);
    } else {
      const [a, b] = [Number(m[4]), Number(m[5])];
      if (valid(b, a)) days.push([m[6]!, b, a]);
      if (valid(a, b) && a !== b) days.push([m[6]!, a, b]);
    }
    return days.length === 0 ? undefined : { words: 1, typed: word.split(/[-/.]/), days };
  }
  const inOne = namedDay(word.split(/[-/.]/));
  if (inOne) return { words: 1, days: [inOne] };
  const inThree = namedDay(words.slice(at, at + 3));
  return inThree ? { words: 3, days: [inThree] } : undefined;
}

/**
 * The ways a whole date typed in numbers is written elsewhere, each as its three numbers in order: year first (ISO,
 * with its leading zeros, and without them: "2024-1-15"), day first (most of the world) and month first (the US),
 * these two with the leading zeros of the month and day or without them ("01/15/2024", "1/15/2024"). Day or month
 * first, both days are looked for where both numbers can be the month ("03/02/2024": 3 February or March 2). The
 * numbers as typed come first, where typed so. A date with one number padded and not the other ("3.02.2024") is
 * left out: every spelling is one more phrase for the index and one more GLOB for each message it matches.
 */
export function numericSpellings(date: TypedDate): string[][] {
  const out = new Map(date.typed ? [[date.typed.join('-'), date.typed]] : []);
  const pad = (n: number) => String(n).padStart(2, '0');
  for (const [year, month, day] of date.days) {
    const spellings = [[year, pad(month), pad(day)], [pad(day), pad(month), year], [pad(month), pad(day), year], [`${day}`, `${month}`, year], [`${month}`, `${day}`, year], [year, `${month}`, `${day}`]];
    for (const spelling of spellings) out.set(spelling.join('-'), spelling);
  }
  return [...out.values()];
}

/** numericSpellings of a whole date typed as one word of numbers; undefined where `word` is none ("15.01.20"). */
export function dateSpellings(word: string): string[][] | undefined {
  const date = typedDate([word], 0);
  return date?.typed ? numericSpellings(date) : undefined;
}

/** An English ordinal's ending: 1st, 2nd, 3rd, 11th, 22nd. */
function ordinal(day: number): string {
  const tens = day % 100 >= 11 && day % 100 <= 13;
  return `${day}${tens ? 'th' : (['th', 'st', 'nd', 'rd'][day % 10] ?? 'th')}`;
}

/** The ways a day's number is written beside a month's name: "5", "5th", "05". */
export function namedDayNumbers(day: number): string[] {
  return day < 10 ? [`${day}`, ordinal(day), `0${day}`] : [`${day}`, ordinal(day)];
}

/**
 * The days written with their month's English name, as a regular expression's source (case aside: flag "i"): the
 * day (namedDayNumbers) and the month, long or short, or the month and the day, then the year, with one to three of
 * space, ",", ".", "/" and "-" between ("15 January 2024", "Jan. 15th, 2024", "15-JAN-2024"), no letter or digit
 * before it and no digit after it. Not "15 January" without the year, nor "January 2024" without the day.
 */
export function namedDatePattern(days: readonly Day[]): string {
  const gap = '[\\s,./-]{1,3}';
  const ways = days.flatMap(([year, month, day]) => {
    const name = `(?:${MONTH_NAMES[month - 1]!.join('|')})`;
    const number = `(?:${namedDayNumbers(day).join('|')})`;
    return [`${number}${gap}${name}${gap}${year}`, `${name}${gap}${number}${gap}${year}`];
  });
  return `(?<![0-9a-z])(?:${ways.join('|')})(?![0-9])`;
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
