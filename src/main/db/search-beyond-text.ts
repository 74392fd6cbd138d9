/**
 * Search in what a message carries beside its text (migration 0022): the model's reasoning (reasoning_fts, one row
 * per turn) and the text of attached documents (documents_fts, one row per content, for every message holding it).
 * Their hits say where the words are (SearchHit.where), and come after the hits in messages' text: they are asked
 * for only where those left room, so the common words of the search bench cost nothing more.
 */
import type { Database, Statement } from 'better-sqlite3';
import { notBeingDeleted, withDeletesOf } from './delete-intent';
import { byRank, literalMissing, MATCH_END, MATCH_START, RANK_DIGITS, RANK_WINDOW, type Literal, type SearchHit } from './search-hit';

/**
 * Every word of `@literals` (JSON, lower-cased, separators folded; a whole date in one of its spellings) is in `column`
 * as typed (search.ts's literalsOf).
 */
const literalsIn = (column: string) => `NOT EXISTS (SELECT 1 FROM json_each(@literals) AS l WHERE ${literalMissing(column)})`;

/**
 * The newest `@window` rows `@query` matches from `@from` on (LITERAL_SCAN_ROWS, as SEARCH_SQL bounds a literal
 * word), ranked by bm25, `@limit` kept; then their snippets from one more pass over the kept rowids' range (SEARCH_SQL
 * says why). `joins` leads from `top.seq` to the turn `t` and conversation `c`.
 */
function beyondTextSql(table: 'reasoning_fts' | 'documents_fts', column: string, joins: string, extra = '', order = byRank('top.rank', 'top.seq')): string {
  return `WITH recent AS (
     SELECT rowid AS seq, rank FROM ${table} WHERE ${table} MATCH @query AND ${table}.rowid >= CAST(@from AS INTEGER)
       AND ${literalsIn(`${table}.${column}`)}
     ORDER BY rowid DESC LIMIT @window
   ), top AS MATERIALIZED (
     SELECT seq, rank FROM recent ORDER BY ${byRank('rank', 'seq')} LIMIT @limit
   )
   SELECT c.id AS conversationId, c.title AS title, t.id AS turnId,
          snippet(${table}, 0, '${MATCH_START}', '${MATCH_END}', '…', 16) AS snippet, top.rank AS rank${extra}
   FROM ${table}
   JOIN top ON top.seq = ${table}.rowid
   ${joins}
   JOIN conversations c ON c.id = t.conversation_id
   WHERE ${table} MATCH @query AND ${notBeingDeleted('c.id')}
     AND ${table}.rowid >= (SELECT min(seq) FROM top) AND ${table}.rowid <= (SELECT max(seq) FROM top)
   ORDER BY ${order}`;
}

/** Turns found by their reasoning (exported so a test can pin its plan). */
export const REASONING_SEARCH_SQL = beyondTextSql(
  'reasoning_fts',
  'reasoning',
  `JOIN turn_search s ON s.seq = top.seq
   JOIN turns t ON t.id = s.turn_id`,
);

/**
 * Messages found by a document they hold: each message holding a document found, newest first within one document,
 * and the name it was attached under there (a content attached twice may bear two names).
 */
export const DOCUMENT_SEARCH_SQL = beyondTextSql(
  'documents_fts',
  'text',
  `JOIN document_search d ON d.seq = top.seq
   JOIN turn_attachments a ON a.digest = d.digest
   JOIN turn_search s ON s.turn_id = a.turn_id
   JOIN turns t ON t.id = a.turn_id`,
  `, (SELECT json_extract(j.value, '$.name') FROM json_each(t.blocks) AS j
       WHERE json_extract(j.value, '$.type') = 'attachment' AND json_extract(j.value, '$.id') = d.digest LIMIT 1) AS fileName`,
  `round(top.rank, ${RANK_DIGITS}), s.seq DESC`,
);

/** A query for the index, as search.ts makes it for turns_fts. */
export interface BeyondTextQuery {
  /** From toFtsQuery. */
  query: string;
  /** From literalsOf. */
  literals: readonly Literal[];
  /** How many of the newest matches a literal word's text is read in (LITERAL_SCAN_ROWS). */
  literalScanRows: number;
}

export class BeyondTextSearch {
  private readonly reasoning: Statement;
  private readonly documents: Statement;
  private readonly from: { reasoning: Statement; documents: Statement };

  constructor(db: Database) {
    this.reasoning = db.prepare(withDeletesOf(db, REASONING_SEARCH_SQL));
    this.documents = db.prepare(withDeletesOf(db, DOCUMENT_SEARCH_SQL));
    const from = (table: string) => db.prepare(`SELECT rowid FROM ${table} WHERE ${table} MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?`).pluck();
    this.from = { reasoning: from('reasoning_fts'), documents: from('documents_fts') };
  }

  /** Up to `limit` hits, reasoning's first, none for a turn in `found` (it was found by its text), one per turn. */
  search({ query, literals, literalScanRows }: BeyondTextQuery, limit: number, found: ReadonlySet<string>): SearchHit[] {
    const seen = new Set(found);
    const out: SearchHit[] = [];
    const keep = (hit: SearchHit) => {
      if (out.length >= limit || hit.turnId === null || seen.has(hit.turnId)) return;
      seen.add(hit.turnId);
      out.push(hit);
    };
    const params = (table: 'reasoning' | 'documents') => {
      const from = literals.length > 0 ? ((this.from[table].get(query, Math.max(0, literalScanRows - 1)) as number | undefined) ?? 0) : 0;
      // Asked for as many more as were found by text: those turns are dropped here.
      return { query, literals: JSON.stringify(literals), limit: limit + found.size, window: Math.max(RANK_WINDOW, limit + found.size), from };
    };
    for (const hit of this.reasoning.all(params('reasoning')) as SearchHit[]) keep({ ...hit, where: { kind: 'reasoning' } });
    if (out.length < limit) {
      for (const { fileName, ...hit } of this.documents.all(params('documents')) as (SearchHit & { fileName: string | null })[]) {
        keep({ ...hit, where: { kind: 'file', name: fileName ?? 'an attached file' } });
      }
    }
    return out;
  }
}
