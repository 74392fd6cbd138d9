/**
 * What every search of the messages gives (search.ts and the searches beside it): apart, so those can build their SQL
 * with the markers when their module loads, whichever of them is loaded first.
 */

/** Snippet markers: control characters no text contains, so the UI splits on them and renders every piece as text. */
export const MATCH_START = '\u0002';
export const MATCH_END = '\u0003';

/** How many of the newest matching turns are ranked by relevance; older matches of a common word are not. */
export const RANK_WINDOW = 2000;

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
 * replace() reads the text once more).
 */
export const literalMissing = (column: string) =>
  `instr(CASE WHEN instr(l.value, char(1)) > 0 THEN replace(replace(replace(lower(${column}), '-', char(1)), '/', char(1)), '.', char(1)) ELSE lower(${column}) END, l.value) = 0`;
