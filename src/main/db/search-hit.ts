/**
 * What every search of the messages gives (search.ts and the searches beside it): apart, so those can build their SQL
 * with the markers when their module loads, whichever of them is loaded first.
 */
import type { Database } from 'better-sqlite3';

/** Snippet markers: control characters no text contains, so the UI splits on them and renders every piece as text. */
export const MATCH_START = '\u0002';
export const MATCH_END = '\u0003';

/** How many of the newest matching turns are ranked by relevance; older matches of a common word are not. */
export const RANK_WINDOW = 2000;

/**
 * SQL: hits best first by bm25 `rank`, ties newest first (`seq` grows with time). Messages alike in the words found
 * (a common question asked in many chats) rank the same, and were listed as SQLite came upon them: the oldest chat
 * first. Ranks equal to RANK_DIGITS decimals are tied: a sum of doubles differs in its last bits by the order it was
 * added in, and FTS5 weighs a word that most rows hold at 1e-6, so the differences that still mean something (how
 * often, in how long a message) are in the seventh decimal and are kept.
 */
export const byRank = (rank: string, seq: string) => `round(${rank}, ${RANK_DIGITS}), ${seq} DESC`;

/** How many decimals of bm25 rank hits by (byRank). */
export const RANK_DIGITS = 9;

/**
 * What a hit must hold (search.ts's literalsOf): a word as typed, lower-cased (a date's separators folded), or, for a
 * whole date, its spellings, one of which it must match: GLOBs of its numbers and a regular expression of its
 * month's name (number-separators.ts's dateLiteral).
 */
export type Literal = string | string[];

/** Where in a message its words were found, where not in its text (search-beyond-text.ts). */
export type HitPlace = { kind: 'reasoning' } | { kind: 'file'; name: string };

/** One search hit, best first. */
export interface SearchHit {
  conversationId: string;
  title: string;
  /** The message that matched; null where the title did (the snippet is then the title, marked). */
  turnId: string | null;
  /** Plain text with each match wrapped in MATCH_START…MATCH_END; never HTML. */
  snippet: string;
  rank: number;
  /** Absent: the words are in the message's text (or the title). */
  where?: HitPlace;
}

/**
 * SQL: the literal `l.value` (search.ts's literalsOf, from json_each) is not in `column`, lower-cased; a date's (its
 * separators folded to DATE_SEPARATOR) not in the column with its "-", "/" and "." folded so too (only then: each
 * replace() reads the text once more). A whole date's is an array (number-separators.ts's dateLiteral), none of
 * which the column matches: GLOBs of its numeric spellings (dateGlob), over the column with a space at each end, each
 * first without its leading "[^0-9]" (a GLOB that starts with a set tries it at every character, 25 µs a 1 kB text
 * where one that starts with a digit skips to it, 1.5 µs; the old fold above costs 14 µs), then whole where that
 * matched; and the pattern of its spellings with the month's name (namedDatePattern), a regular expression, which
 * SQLite's REGEXP asks of the function allowDatePatterns registers. Only the rows the index matched are read so.
 */
export const literalMissing = (column: string) =>
  `CASE WHEN l.type = 'array' THEN NOT EXISTS (SELECT 1 FROM json_each(l.value) AS g WHERE CASE WHEN substr(g.value, 1, 1) = '*' THEN (' ' || ${column} || ' ') GLOB ('*' || substr(g.value, 8)) AND (' ' || ${column} || ' ') GLOB g.value ELSE ${column} REGEXP g.value END)
   ELSE instr(CASE WHEN instr(l.value, char(1)) > 0 THEN replace(replace(replace(lower(${column}), '-', char(1)), '/', char(1)), '.', char(1)) ELSE lower(${column}) END, l.value) = 0 END`;

/** The patterns REGEXP was asked for, compiled once each (a query's dates: few). */
const patterns = new Map<string, RegExp>();

/**
 * Gives `db` SQLite's REGEXP (`text REGEXP pattern`, which SQLite has no function for), case aside, for the dates
 * with a month's name in literalMissing: a JavaScript regular expression, as the marks use (dateLiteralRegExp).
 */
export function allowDatePatterns(db: Database): void {
  db.function('regexp', { deterministic: true }, (pattern: unknown, text: unknown) => {
    if (typeof pattern !== 'string' || typeof text !== 'string') return 0;
    let re = patterns.get(pattern);
    if (!re) {
      if (patterns.size >= 64) patterns.clear();
      patterns.set(pattern, (re = new RegExp(pattern, 'i')));
    }
    return re.test(text) ? 1 : 0;
  });
}
