import type { Database, Statement } from 'better-sqlite3';

/** Snippet markers: control characters no text contains, so the UI splits on them and renders every piece as text. */
export const MATCH_START = '\u0002';
export const MATCH_END = '\u0003';

/** How many of the newest matching turns are ranked by relevance; older matches of a common word are not. */
export const RANK_WINDOW = 2000;

/** One search hit, best first. */
export interface SearchHit {
  conversationId: string;
  title: string;
  turnId: string;
  /** Plain text with each match wrapped in MATCH_START…MATCH_END; never HTML. */
  snippet: string;
  rank: number;
}

/**
 * Turns whatever the user typed into an FTS5 query that cannot throw: every word becomes a quoted phrase (FTS5
 * operators, quotes, colons and parentheses lose their meaning), the words are ANDed, and the last one is a
 * prefix so results follow typing. Returns null when nothing searchable is left.
 */
export function toFtsQuery(input: string): string | null {
  const words = input
    .split(/\s+/u)
    .map((w) => w.replace(/[\u0000-\u001f]/gu, ''))
    .filter((w) => /[\p{L}\p{N}]/u.test(w))
    .slice(0, 32);
  if (words.length === 0) return null;
  return words.map((w, i) => `"${w.replaceAll('"', '""')}"${i === words.length - 1 ? '*' : ''}`).join(' ');
}

/**
 * The search query (exported so a test pins its plan); `@query` must come from `toFtsQuery`.
 *
 * Why two stages: bm25 and snippet() cost microseconds per matching row, and a common word matches most of a
 * long history (200,000 turns → hundreds of ms). So only the newest `@window` matches are ranked (seq grows with
 * time; FTS5 walks rowids in order and stops at the limit), and snippets are made only for the `@limit` kept.
 * A rare term (fewer matches than the window) is ranked over the whole history. `rank` is bm25 with attachment
 * names weighted double (configured in migration 0003). Snippets come from one more pass over the kept rows'
 * rowid range (at most the window): looking rows up one by one re-runs the MATCH per row, which costs a whole
 * doclist merge each time for a prefix the prefix index does not cover (measured: 600 ms for two words).
 */
export const SEARCH_SQL = `WITH recent AS (
     SELECT rowid AS seq, rank FROM turns_fts WHERE turns_fts MATCH @query ORDER BY rowid DESC LIMIT @window
   ), top AS MATERIALIZED (
     SELECT seq, rank FROM recent ORDER BY rank LIMIT @limit
   )
   SELECT c.id AS conversationId, c.title AS title, t.id AS turnId,
          snippet(turns_fts, -1, '${MATCH_START}', '${MATCH_END}', '…', 16) AS snippet,
          top.rank AS rank
   FROM turns_fts
   JOIN top ON top.seq = turns_fts.rowid
   JOIN turn_search s ON s.seq = top.seq
   JOIN turns t ON t.id = s.turn_id
   JOIN conversations c ON c.id = t.conversation_id
   WHERE turns_fts MATCH @query
     AND turns_fts.rowid >= (SELECT min(seq) FROM top) AND turns_fts.rowid <= (SELECT max(seq) FROM top)
   ORDER BY top.rank`;

/** Full-text search over user text, answers and attachment names, ranked by bm25. */
export class SearchStore {
  private readonly stmt: Statement;

  constructor(db: Database) {
    this.stmt = db.prepare(SEARCH_SQL);
  }

  /** `window`: how many of the newest matches are ranked (see SEARCH_SQL). */
  search(input: string, limit = 50, window = RANK_WINDOW): SearchHit[] {
    const query = toFtsQuery(input);
    if (query === null) return [];
    return this.stmt.all({ query, limit, window: Math.max(window, limit) }) as SearchHit[];
  }
}
