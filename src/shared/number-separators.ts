/**
 * A date as typed in search: a year of four digits and a month, with or without the day ("2024-01", "2024-01-15"),
 * or a day and a month of one or two digits each and then the year ("15.01.2024", "01/15/2024"; "1.2.3" is one
 * too), joined by "-", "/" or ".", the last number perhaps part-typed. Search finds it however the text separates
 * its numbers ("2024/01/15", "2024.01.15"), the same numbers in the same order; two numbers such as "1.2" or "3.11"
 * (a version) stay as typed.
 */
export const DATE_WORD = /^(?:\d{4}[-/.]\d{1,2}(?:[-/.]\d{0,2})?|\d{1,2}[-/.]\d{1,2}[-/.]\d{0,4})$/;

/** What every separator of a date is folded to: a control character, which no searched word holds (queryWords). */
export const DATE_SEPARATOR = '\u0001';

/** `text` with every "-", "/" and "." as DATE_SEPARATOR: one character for one, so offsets into it are offsets into `text`. */
export function foldSeparators(text: string): string {
  return text.replace(/[-/.]/g, DATE_SEPARATOR);
}
