/**
 * A date as typed in search: a year of four digits and a month, with or without the day ("2024-01", "2024-01-15"),
 * or a day and a month of one or two digits each and then the year ("15.01.2024", "01/15/2024"; "1.2.3" is one
 * too), joined by "-", "/" or ".", the last number perhaps part-typed. Search finds it however the text separates
 * its numbers ("2024/01/15", "2024.01.15"), the same numbers in the same order (a whole date also in its other
 * orders: dateSpellings); two numbers such as "1.2" or "3.11" (a version) stay as typed.
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

/**
 * The ways a whole date typed is written elsewhere, each as its three numbers in order: year first (ISO, with its
 * leading zeros), day first (most of the world) and month first (the US), these two with the leading zeros of the
 * month and day or without them ("01/15/2024", "1/15/2024"). Day or month first, both days are looked for where
 * both numbers can be the month ("03/02/2024": 3 February or March 2). The numbers as typed come first. Undefined
 * where `word` is no whole date (part-typed: "15.01.20"). Rarer spellings ("2024-1-15", "3.02.2024") are left out:
 * every spelling is one more phrase for the index and one more GLOB for each message it matches.
 */
export function dateSpellings(word: string): string[][] | undefined {
  const m = FULL_DATE.exec(word);
  if (!m) return undefined;
  const valid = (month: number, day: number) => month >= 1 && month <= 12 && day >= 1 && day <= 31;
  const days: [year: string, month: number, day: number][] = [];
  if (m[1] !== undefined) {
    if (valid(Number(m[2]), Number(m[3]))) days.push([m[1], Number(m[2]), Number(m[3])]);
  } else {
    const [a, b] = [Number(m[4]), Number(m[5])];
    if (valid(b, a)) days.push([m[6]!, b, a]);
    if (valid(a, b) && a !== b) days.push([m[6]!, a, b]);
  }
  if (days.length === 0) return undefined;
  const typed = word.split(/[-/.]/);
  const out = new Map([[typed.join('-'), typed]]);
  const pad = (n: number) => String(n).padStart(2, '0');
  for (const [year, month, day] of days) {
    const spellings = [[year, pad(month), pad(day)], [pad(day), pad(month), year], [pad(month), pad(day), year], [`${day}`, `${month}`, year], [`${month}`, `${day}`, year]];
    for (const spelling of spellings) out.set(spelling.join('-'), spelling);
  }
  return [...out.values()];
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
