/**
 * A query with a CJK (or Thai, Khmer…) character, in the model's reasoning and the attached documents' text
 * (migration 0023's trigram tables): as search-beyond-text.ts does for the other queries, its hits say where the
 * words are and come after the hits in messages' text, asked for only where those left room.
 */
import type { Database, Statement } from 'better-sqlite3';
import { notBeingDeleted, withDeletesOf } from './delete-intent';
import { cjkSnippet, trigramQuery } from './search-cjk';
import { byRank, type SearchHit } from './search-hit';

type Table = 'reasoning_cjk' | 'documents_cjk';

/** Every word of `@short` (JSON, folded) is in the row's text (search-cjk.ts's SHORT_WORDS). */
const shortWords = (column: string) => `NOT EXISTS (SELECT 1 FROM json_each(@short) AS w WHERE instr(lower(${column}), w.value) = 0)`;

/**
 * The newest `@window` rows `@query` matches, ranked by bm25, `@limit` kept (search-cjk.ts's CJK_SEARCH_SQL); with
 * no `@query` (`scan`: common short words only), the newest `@limit` rows holding them. Then each kept row's turn
 * through `joins` (from `top.seq` to the turn `t`), its text for the snippet, and `extra`.
 */
function cjkBeyondTextSql(table: Table, column: string, scan: boolean, joins: string, extra = ''): string {
  const top = scan
    ? `top AS MATERIALIZED (
     SELECT rowid AS seq, 0 AS rank FROM ${table} WHERE ${shortWords(`${table}.${column}`)} ORDER BY rowid DESC LIMIT @limit
   )`
    : `recent AS (
     SELECT rowid AS seq, rank FROM ${table} WHERE ${table} MATCH @query AND ${shortWords(`${table}.${column}`)} ORDER BY rowid DESC LIMIT @window
   ), top AS MATERIALIZED (
     SELECT seq, rank FROM recent ORDER BY ${byRank('rank', 'seq')} LIMIT @limit
   )`;
  return `WITH ${top}
   SELECT c.id AS conversationId, c.title AS title, t.id AS turnId, f.${column} AS text, top.rank AS rank${extra}
   FROM top
   JOIN ${table} f ON f.rowid = top.seq
   ${joins}
   JOIN conversations c ON c.id = t.conversation_id
   WHERE ${notBeingDeleted('c.id')}
   ORDER BY ${byRank('top.rank', 'top.seq')}`;
}

const REASONING_JOINS = `JOIN turn_search s ON s.seq = top.seq
   JOIN turns t ON t.id = s.turn_id`;

/** Each message holding a document found, and the name it was attached under there (as DOCUMENT_SEARCH_SQL). */
const DOCUMENT_JOINS = `JOIN document_search d ON d.seq = top.seq
   JOIN turn_attachments a ON a.digest = d.digest
   JOIN turn_search s ON s.turn_id = a.turn_id
   JOIN turns t ON t.id = a.turn_id`;
const DOCUMENT_NAME = `, (SELECT json_extract(j.value, '$.name') FROM json_each(t.blocks) AS j
       WHERE json_extract(j.value, '$.type') = 'attachment' AND json_extract(j.value, '$.id') = d.digest LIMIT 1) AS fileName`;

/** Turns found by their reasoning, and messages by a document they hold (exported so a test can pin their plans). */
export const REASONING_CJK_SQL = cjkBeyondTextSql('reasoning_cjk', 'reasoning', false, REASONING_JOINS);
export const DOCUMENTS_CJK_SQL = cjkBeyondTextSql('documents_cjk', 'text', false, DOCUMENT_JOINS, DOCUMENT_NAME);

interface Index {
  match: Statement;
  scan: Statement;
  /** The index's vocabulary (search-cjk.ts's trigramQuery). */
  trigrams: Statement;
}

export class CjkBeyondTextSearch {
  private readonly reasoning: Index;
  private readonly documents: Index;

  constructor(db: Database) {
    const index = (table: Table, column: string, joins: string, extra = ''): Index => {
      // Views of the index, as search-cjk.ts's turns_cjk_terms: nothing stored.
      db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${table}_terms USING fts5vocab(main, ${table}, 'row')`);
      return {
        match: db.prepare(withDeletesOf(db, cjkBeyondTextSql(table, column, false, joins, extra))),
        scan: db.prepare(withDeletesOf(db, cjkBeyondTextSql(table, column, true, joins, extra))),
        trigrams: db.prepare(`SELECT term FROM temp.${table}_terms WHERE term >= ? AND term < ? LIMIT ?`),
      };
    };
    this.reasoning = index('reasoning_cjk', 'reasoning', REASONING_JOINS);
    this.documents = index('documents_cjk', 'text', DOCUMENT_JOINS, DOCUMENT_NAME);
  }

  /**
   * Up to `limit` hits for `words` (queryWords), reasoning's first, none for a turn in `found` (found by its text),
   * one per turn; the newest `window` matches of each index are ranked.
   */
  search(words: readonly string[], limit: number, window: number, found: ReadonlySet<string>): SearchHit[] {
    const seen = new Set(found);
    const out: SearchHit[] = [];
    const rows = (index: Index) => {
      const planned = trigramQuery(words, index.trigrams);
      if (planned === null) return [];
      // Asked for as many more as were found by text: those turns are dropped here.
      const params = { short: JSON.stringify(planned.short), limit: limit + found.size };
      const stmt = planned.query === null ? index.scan : index.match;
      return stmt.all(planned.query === null ? params : { ...params, query: planned.query, window: Math.max(window, params.limit) }) as (Omit<SearchHit, 'snippet'> & {
        text: string;
        fileName?: string | null;
      })[];
    };
    const keep = ({ text, fileName: _name, ...hit }: Omit<SearchHit, 'snippet'> & { text: string; fileName?: string | null }, where: SearchHit['where']) => {
      if (out.length >= limit || hit.turnId === null || seen.has(hit.turnId)) return;
      seen.add(hit.turnId);
      out.push({ ...hit, snippet: cjkSnippet(text.trimEnd(), '', words), where });
    };
    for (const row of rows(this.reasoning)) keep(row, { kind: 'reasoning' });
    if (out.length < limit) for (const row of rows(this.documents)) keep(row, { kind: 'file', name: row.fileName ?? 'an attached file' });
    return out;
  }
}
