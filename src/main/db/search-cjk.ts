import type { Database, Statement } from 'better-sqlite3';
import { CJK } from '../../shared/cjk';
import { MATCH_END, MATCH_START, type SearchHit } from './search';
import { byRank } from './search-hit';
import { notBeingDeleted, withDeletesOf } from './delete-intent';

/** Words of fewer characters than this are no trigram phrase: FTS5's trigram MATCH finds nothing for them. */
const TRIGRAM = 3;

/**
 * A word shorter than a trigram starting more indexed trigrams than this is found by reading rows (SHORT_WORDS):
 * a common character ("の") starts thousands, and rows holding it are met at once, newest first.
 */
const MAX_TRIGRAMS = 64;

/**
 * Every word of `@short` (JSON, folded) is in the row's text or names: the filter for short words that start too many
 * trigrams to be ORed. It reads the row's text, so it runs on the rows the MATCH kept, or on the newest rows when
 * nothing else narrows them (CJK_SCAN_SQL).
 */
const SHORT_WORDS = `NOT EXISTS (SELECT 1 FROM json_each(@short) AS w
  WHERE instr(lower(turns_cjk.text), w.value) = 0 AND instr(lower(turns_cjk.names), w.value) = 0)`;

/**
 * The tail of a search whose hits are cut into snippets in TypeScript (these, and a search of symbols only): the
 * kept rows (`top`: seq and rank) with their turn, conversation and text from `table`, in `order`.
 */
export function hitsWithText(table: 'turns_cjk' | 'turns_fts', rank: string, order: string): string {
  return `SELECT c.id AS conversationId, c.title AS title, t.id AS turnId, f.text AS text, f.names AS names, ${rank} AS rank
   FROM top
   JOIN ${table} f ON f.rowid = top.seq
   JOIN turn_search s ON s.seq = top.seq
   JOIN turns t ON t.id = s.turn_id
   JOIN conversations c ON c.id = t.conversation_id
   WHERE ${notBeingDeleted('c.id')}
   ORDER BY ${order}`;
}

/** The tail both queries share. */
const CJK_HITS = hitsWithText('turns_cjk', 'top.rank', byRank('top.rank', 'top.seq'));

/**
 * A CJK query the trigram index can narrow (exported so a test pins its plan): the newest `@window` matches, ranked
 * by bm25, as SEARCH_SQL does; `@query` comes from `CjkSearch.toQuery`.
 */
export const CJK_SEARCH_SQL = `WITH recent AS (
     SELECT rowid AS seq, rank FROM turns_cjk WHERE turns_cjk MATCH @query AND ${SHORT_WORDS} ORDER BY rowid DESC LIMIT @window
   ), top AS MATERIALIZED (
     SELECT seq, rank FROM recent ORDER BY ${byRank('rank', 'seq')} LIMIT @limit
   )
   ${CJK_HITS}`;

/**
 * A query of common short words only (each starts more than MAX_TRIGRAMS trigrams): the trigram table is read newest
 * first until `@limit` rows hold every word, which a common word makes soon. Only turns with a CJK character are in
 * it (0012), so even a miss reads those only.
 */
export const CJK_SCAN_SQL = `WITH top AS MATERIALIZED (
     SELECT rowid AS seq, 0 AS rank FROM turns_cjk WHERE ${SHORT_WORDS} ORDER BY rowid DESC LIMIT @limit
   )
   ${CJK_HITS}`;

/** A word as the trigram tokenizer folds it (case; diacritics, outside the CJK range, which NFD would take apart). */
function fold(word: string): string {
  const lower = word.toLowerCase();
  return CJK.test(word) ? lower : lower.normalize('NFD').replace(/\p{M}/gu, '');
}

const phrase = (w: string) => `"${w.replaceAll('"', '""')}"`;

/**
 * Search over the trigram index of the turns with a CJK character (migration 0012), for queries with one: every word
 * is found as a substring, ANDed. A word of 3 characters or more is a trigram phrase. A shorter one ("雨", "天気") is
 * the OR of the indexed trigrams it starts, read from the index's vocabulary: 0012 pads each text with two line
 * breaks, so every occurrence starts a trigram, at the text's end too. A short word starting too many is checked
 * on the rows read instead.
 */
export class CjkSearch {
  private readonly match: Statement;
  private readonly scan: Statement;
  private readonly trigrams: Statement;

  constructor(db: Database) {
    this.match = db.prepare(withDeletesOf(db, CJK_SEARCH_SQL));
    this.scan = db.prepare(withDeletesOf(db, CJK_SCAN_SQL));
    // The index's vocabulary, as a temp table (as turns_fts_terms): a view of turns_cjk, nothing stored.
    db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.turns_cjk_terms USING fts5vocab(main, turns_cjk, 'row')");
    this.trigrams = db.prepare('SELECT term FROM temp.turns_cjk_terms WHERE term >= ? AND term < ? LIMIT ?');
  }

  /** `words` as queryWords gives them; the newest `window` matches are ranked, `limit` kept. */
  search(words: readonly string[], limit: number, window: number): SearchHit[] {
    const planned = trigramQuery(words, this.trigrams);
    if (planned === null) return [];
    const params = { short: JSON.stringify(planned.short), limit };
    const rows = (planned.query === null ? this.scan.all(params) : this.match.all({ ...params, query: planned.query, window })) as (Omit<SearchHit, 'snippet'> & {
      text: string;
      names: string;
    })[];
    return rows.map(({ text, names, ...hit }) => ({ ...hit, snippet: cjkSnippet(text.trimEnd(), names.trimEnd(), words) }));
  }
}

/**
 * How a trigram index is asked for `words` (CjkSearch's rules): `query`, the MATCH of the words it can narrow by
 * (null where none: the newest rows are read), and `short`, the folded words that start too many trigrams, checked
 * on the rows read. Null where a word starts no indexed trigram: no row holds it. `trigrams` reads the index's
 * vocabulary: (from, to, limit) → { term }[].
 */
export function trigramQuery(words: readonly string[], trigrams: Statement): { query: string | null; short: string[] } | null {
  if (words.length === 0) return null;
  const parts: string[] = [];
  const short: string[] = [];
  for (const word of words) {
    if ([...word].length >= TRIGRAM) {
      parts.push(phrase(word));
      continue;
    }
    const folded = fold(word);
    const starts = (trigrams.all(folded, `${folded}\u{10FFFF}`, MAX_TRIGRAMS + 1) as { term: string }[]).map((r) => r.term);
    // No trigram starts with it: no row holds it.
    if (starts.length === 0) return null;
    if (starts.length > MAX_TRIGRAMS) short.push(folded);
    else parts.push(starts.length === 1 ? phrase(starts[0]!) : `(${starts.map(phrase).join(' OR ')})`);
  }
  return { query: parts.length === 0 ? null : parts.join(' AND '), short };
}

/** Characters of context kept before the first match and in all, in a CJK hit's snippet (about FTS5's 16 tokens). */
const SNIPPET_BEFORE = 12;
const SNIPPET_CHARS = 48;

/**
 * Code units kept on each side of the first match before a text is split into characters: a document's text may be
 * megabytes (search-cjk-beyond-text.ts), and only the snippet's few characters around the match are shown.
 */
const CUT_CONTEXT = 512;

/**
 * A CJK hit's snippet, marked as snippet() marks: FTS5's snippet() counts trigrams, not characters, and knows no
 * match for a word found through the vocabulary or by reading rows. From the text, or from the attachment names when
 * the words are only there; every occurrence of a word within it is marked, case folded.
 */
export function cjkSnippet(text: string, names: string, words: readonly string[]): string {
  const pattern = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'giu');
  const whole = text.search(pattern) < 0 && names.search(pattern) >= 0 ? names : text;
  const at = Math.max(0, whole.search(pattern));
  // Far from either end, a cut in a surrogate pair is outside the characters kept (SNIPPET_BEFORE, SNIPPET_CHARS).
  const cutFrom = Math.max(0, at - CUT_CONTEXT);
  const cutTo = Math.min(whole.length, at + CUT_CONTEXT + Math.max(...words.map((w) => w.length)));
  const source = whole.slice(cutFrom, cutTo);
  const chars = [...source];
  const first = [...source.slice(0, at - cutFrom)].length;
  const from = Math.max(0, Math.min(first - SNIPPET_BEFORE, chars.length - SNIPPET_CHARS));
  const to = Math.min(chars.length, from + SNIPPET_CHARS);
  const marked = chars.slice(from, to).join('').replace(pattern, (m) => `${MATCH_START}${m}${MATCH_END}`);
  return `${from > 0 || cutFrom > 0 ? '…' : ''}${marked}${to < chars.length || cutTo < whole.length ? '…' : ''}`;
}
