/**
 * What a typed query becomes: its words, the FTS5 query asked of the index, the words a hit must hold as typed (a
 * literal: "C++", "1.2.3", a date in its spellings) and how they are marked in a snippet, and a query of symbols
 * only. Text in, text out: search.ts runs them.
 */
import { monthPrefixes, YEAR_JOINS } from '../../shared/month-names';
import { anyBetween, DATE_SEPARATOR, DATE_WORD, dateLiteral, dateLiteralRegExp, foldSeparators, namedDayNumbers, numericSpellings, spellingPhrase, typedDate, type Day, type TypedDate } from '../../shared/number-separators';
import { MATCH_END, MATCH_START, type Literal } from './search-hit';

/** The words of a query: split at spaces, control characters dropped, those with a letter or digit, at most 32. */
export function queryWords(input: string): string[] {
  return input
    .split(/\s+/u)
    .map((w) => w.replace(/[\u0000-\u001f]/gu, ''))
    .filter((w) => /[\p{L}\p{N}]/u.test(w))
    .slice(0, 32);
}

/**
 * Words whose symbols are what they say (C++, C#, F#, g++): the tokenizer drops the symbols and leaves a letter, and
 * "C++" as a prefix matched every word that begins with c ("coffee", "Café", "80 °C"; keyboard audit #4). Such a
 * word is no prefix (its symbols end it), and a hit must hold it as typed (literalsOf).
 */
const SYMBOL_WORD = /[+#]/u;

/** A query's words, a whole date over one or more of them as one (typedDate: "15 January 2024"). */
type Unit = { word: string; date?: undefined } | { word: string; date: TypedDate };

function unitsOf(words: readonly string[]): Unit[] {
  const out: Unit[] = [];
  for (let at = 0; at < words.length; ) {
    const date = typedDate(words, at);
    out.push(date ? { word: words.slice(at, at + date.words).join(' '), date } : { word: words[at]! });
    at += date?.words ?? 1;
  }
  return out;
}

/**
 * A day written with its month's name, as FTS5 phrases: the day's number, the month's first three letters as a
 * prefix (monthPrefixes: its long and short names in each language, which the prefix index of 3 holds), then the
 * year, or the month first (the tokenizer drops the commas and dots between: "January 15, 2024" is "january" "15"
 * "2024"); "15th of January 2024" and "15 de enero de 2024" with their "of" and "de". A day of two digits is a prefix
 * too ("15" and "15th", from the prefix index of 2); one of one digit is each way it is written (namedDayNumbers: "3",
 * "3rd", "03"), as "3*" has no prefix index and reads every word that starts with 3. The day after its month, and
 * "of", with an English name only; "de" with a Spanish or Portuguese one (monthPrefixes). What else they match
 * ("janitor", "150") the check of the text leaves out (dateLiteral). Phrases, not a NEAR group for both orders: bm25
 * counts each phrase of a query over the whole index, and a NEAR group's are its single words, so it read every
 * message with a "3" (bench/search.bench.ts), where a phrase reads those with all three. A day in any year has no
 * year in its phrases. A month ("January 2024", day 0) is its name near its year, a day or "de" between or none: a
 * NEAR group, whose single words (the month's prefix, the year) are no "3".
 */
function namedDayPhrases([year, month, day]: Day): string[] {
  const names = monthPrefixes(month);
  const then = year === '' ? '' : ` + "${year}"`;
  if (day === 0) return names.map(({ prefix }) => `NEAR("${prefix}"* "${year}", 2)`);
  const days = day < 10 ? namedDayNumbers(day).map((n) => `"${n}"`) : [`"${day}"*`];
  return names.flatMap(({ prefix, english, de }) => {
    const name = `"${prefix}"*`;
    // With a year, "of" and "de" are asked for without the day: one phrase, not one for each way the day is written;
    // they are rare enough ("of january 2024"), and the check of the text wants the day.
    const joined = year === '' ? [...(english ? [`+ "of" + ${name}`] : []), ...(de ? [`+ "de" + ${name}`] : [])] : [];
    return [
      ...days.flatMap((n) => [`${n} + ${name}${then}`, ...(english ? [`${name} + ${n}${then}`] : []), ...joined.map((j) => `${n} ${j}`)]),
      ...(year === '' ? [] : [...(english ? [`"of" + ${name}${then}`] : []), ...(de ? YEAR_JOINS.map((j) => `${name} + "${j}"${then}`) : [])]),
    ];
  });
}

/**
 * The FTS5 query of a spelling (numericSpellings): its phrase, or where any day is between its month and year (a US
 * date, "3/15/2024" for "March 2024") the two near each other, one token between or none: a phrase of the two
 * found no day between them. The check of the text wants the day between (dateLiteral's GLOB).
 */
function spellingMatch(spelling: readonly string[]): string {
  return anyBetween(spelling) ? `NEAR("${spelling[0]}" "${spelling[2]}", 1)` : `"${spellingPhrase(spelling)}"`;
}

/**
 * Turns whatever the user typed into an FTS5 query that cannot throw: every word becomes a quoted phrase (FTS5
 * operators, quotes, colons and parentheses lose their meaning), the words are ANDed, and the last one is a
 * prefix so results follow typing (not a word of symbols, SYMBOL_WORD). A whole date (typedDate) is asked for in
 * each of the spellings the index holds it in (numericSpellings: "15.01.2024" finds "2024-01-15"; namedDayPhrases:
 * and "15 January 2024"), ORed in parentheses, which FTS5 ANDs only with an explicit AND. Returns null when nothing
 * searchable is left.
 */
export function toFtsQuery(input: string): string | null {
  const units = unitsOf(queryWords(input));
  if (units.length === 0) return null;
  const parts = units.map(({ word: w, date }, i) => {
    const typed = `"${indexedPart(w).replaceAll('"', '""')}"${i === units.length - 1 && !SYMBOL_WORD.test(w) ? '*' : ''}`;
    if (!date) return typed;
    // All three numbers: without the first ("2 3" of "3.2.2024") a phrase matched every "version 2.3", and each
    // such message's text was read for the literal check, 560 ms at 200,000 turns (bench/search.bench.ts).
    const numbers = numericSpellings(date);
    // The typed numbers all, a prefix (results follow typing): "2024"* alone, of "01/2024", read every message of 2024.
    const asTyped = date.typed ? [`"${date.typed.filter((n) => n !== '').join(' ')}"*`] : [];
    const others = [...(date.typed ? numbers.slice(1) : numbers).map(spellingMatch), ...date.days.flatMap(namedDayPhrases)];
    return `(${[...new Set([...asTyped, ...others])].join(' OR ')})`;
  });
  return parts.join(parts.some((p) => p.startsWith('(')) ? ' AND ' : ' ');
}

/**
 * A word that starts with a number joined on by a dot or other separator ("1.2.3", "3.11", "2-1"): the tokenizer
 * splits it, and its first number may end a longer token in the text ("v1.2.3" is "v1" "2" "3"), so "1.2.3" found
 * nothing there. The index is asked for the rest ("2.3"), and a hit must hold the word as typed (literalsOf).
 */
const JOINED_NUMBER = /^\p{N}+[^\p{L}\p{N}\s]+(?=[\p{L}\p{N}])/u;

/** What of a word the index is asked for: all of it, but the leading number of a JOINED_NUMBER word. */
function indexedPart(word: string): string {
  return word.replace(JOINED_NUMBER, '');
}

/**
 * The words a hit must contain as typed, case aside (SYMBOL_WORD, JOINED_NUMBER), lower-cased as SQLite's lower()
 * folds (ASCII). A date's separators are folded (DATE_WORD, foldSeparators), and the text with them where it is
 * checked (search-hit.ts's literalMissing): "2024-01-15" must find "2024/01/15" and "2024.01.15", as it did before
 * the literal check. A whole date (typedDate, perhaps of several words: "Jan 15, 2024") is any of its spellings
 * (dateLiteral: GLOBs of its numbers, the one typed a prefix, and a pattern of its month's name): "15.01.2024" finds
 * "2024-01-15", "1/15/2024" and "January 15, 2024", and none of them finds 2024, 01 and 15 apart.
 */
export function literalsOf(input: string): Literal[] {
  return unitsOf(queryWords(input))
    .filter(isLiteral)
    .map(({ word, date }) => (date ? dateLiteral(date) : word.replace(/[A-Z]/g, (c) => c.toLowerCase())))
    .map((w) => (Array.isArray(w) ? w : DATE_WORD.test(w) ? foldSeparators(w) : w));
}

/** A word (or a date of several: unitsOf) that a hit must hold as typed (literalsOf). */
const isLiteral = ({ word, date }: Unit) => date !== undefined || SYMBOL_WORD.test(word) || JOINED_NUMBER.test(word);

/** Every word of the query is literal (a date of several words counted once): FTS5's marks are dropped (markLiterals). */
export function onlyLiterals(input: string): boolean {
  const units = unitsOf(queryWords(input));
  return units.length > 0 && units.every(isLiteral);
}

/**
 * `snippet` with each occurrence of the literal words marked whole, case aside: FTS5 marks the tokens it matched,
 * which are part of such a word ("C" of "C++", "2.3" of "1.2.3"), so the snippet marked less than was looked for.
 * `only`: every word of the query is literal, so FTS5's marks (the "C" of "C#" for "C++") are dropped.
 */
export function markLiterals(snippet: string, literals: readonly Literal[], only = false): string {
  if (literals.length === 0) return snippet;
  let plain = '';
  const marked: boolean[] = [];
  let inside = false;
  for (const ch of snippet) {
    if (ch === MATCH_START || ch === MATCH_END) {
      inside = ch === MATCH_START;
      continue;
    }
    plain += ch;
    for (let k = 0; k < ch.length; k++) marked.push(inside && !only);
  }
  const lower = plain.replace(/[A-Z]/g, (c) => c.toLowerCase());
  // A date's separators folded as literalsOf folds them (one character for one, so offsets stay the snippet's).
  const loose = foldSeparators(lower);
  for (const word of literals) {
    if (Array.isArray(word)) {
      // A whole date's spellings: each marked as the text writes it.
      for (const entry of word) for (const m of lower.matchAll(dateLiteralRegExp(entry))) marked.fill(true, m.index, m.index + m[0].length);
      continue;
    }
    const folded = word.includes(DATE_SEPARATOR) ? loose : lower;
    for (let at = folded.indexOf(word); at >= 0 && word !== ''; at = folded.indexOf(word, at + word.length)) marked.fill(true, at, at + word.length);
  }
  let out = '';
  for (let i = 0; i < plain.length; i++) {
    if (marked[i] && !marked[i - 1]) out += MATCH_START;
    out += plain[i];
    if (marked[i] && !marked[i + 1]) out += MATCH_END;
  }
  return out;
}

/**
 * The words of a query with no word the index holds: emoji and other symbols ("🚀", "✓"), which unicode61 drops
 * as separators, so such a query found nothing. They are looked for as typed, by reading the newest turns
 * (SYMBOL_SCAN_SQL). Punctuation alone is still no query.
 */
export function symbolWords(input: string): string[] {
  if (queryWords(input).length > 0) return [];
  return input
    .split(/\s+/u)
    .map((w) => w.replace(/[\u0000-\u001f]/gu, ''))
    .filter((w) => /[\p{So}\p{Extended_Pictographic}]/u.test(w))
    .slice(0, 32);
}
