import type { Database, Statement } from 'better-sqlite3';
import { CJK } from '../../shared/cjk';
import { CjkSearch, cjkSnippet, hitsWithText } from './search-cjk';
import { notBeingDeleted, withDeletesOf } from './delete-intent';
import { DocumentSearchIndex, type SearchableText } from './document-search';
import { allowDatePatterns, byRank, literalMissing, MATCH_END, MATCH_START, RANK_WINDOW, type SearchHit } from './search-hit';
import { BeyondTextSearch } from './search-beyond-text';
import { literalsOf, markLiterals, onlyLiterals, queryWords, symbolWords, toFtsQuery } from './search-query';
import { CjkBeyondTextSearch } from './search-cjk-beyond-text';

export { MATCH_END, MATCH_START, RANK_WINDOW, type HitPlace, type Literal, type SearchHit } from './search-hit';
export { literalsOf, markLiterals, queryWords, symbolWords, toFtsQuery } from './search-query';

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
 * `@snippetQuery` matches exactly the turns `@query` does (see SearchStore.prefixWords). A literal word ("C++")
 * is checked in the text of the matches read; `@from` bounds those to the newest LITERAL_SCAN_ROWS (else 0). FTS5
 * bounds a scan by rowid only where the bound is an integer, and better-sqlite3 binds a number as a real: the CAST.
 */
export const SEARCH_SQL = `WITH recent AS (
     SELECT rowid AS seq, rank FROM turns_fts WHERE turns_fts MATCH @query AND turns_fts.rowid >= CAST(@from AS INTEGER)
       AND NOT EXISTS (SELECT 1 FROM json_each(@literals) AS l WHERE ${literalMissing("turns_fts.text || ' ' || turns_fts.names")})
     ORDER BY rowid DESC LIMIT @window
   ), top AS MATERIALIZED (
     SELECT seq, rank FROM recent ORDER BY ${byRank('rank', 'seq')} LIMIT @limit
   )
   SELECT c.id AS conversationId, c.title AS title, t.id AS turnId,
          snippet(turns_fts, -1, '${MATCH_START}', '${MATCH_END}', '…', 16) AS snippet,
          top.rank AS rank
   FROM turns_fts
   JOIN top ON top.seq = turns_fts.rowid
   JOIN turn_search s ON s.seq = top.seq
   JOIN turns t ON t.id = s.turn_id
   JOIN conversations c ON c.id = t.conversation_id
   WHERE turns_fts MATCH @snippetQuery
     AND ${notBeingDeleted('c.id')}
     AND turns_fts.rowid >= (SELECT min(seq) FROM top) AND turns_fts.rowid <= (SELECT max(seq) FROM top)
   ORDER BY ${byRank('top.rank', 'top.seq')}`;

/**
 * How many of the newest turns the index matches for a query with a literal word are read to check it (literalsOf,
 * SEARCH_SQL's `@from`): "C++" asks the index for "c", which thousands of turns hold ("C#", "80 °C"), and where few
 * hold "C++" every one of them was read, 50-180 ms at 200,000 turns (bench/search.bench.ts); this many cost about
 * what a word does. Older turns are not searched (SearchFound.newest).
 */
export const LITERAL_SCAN_ROWS = 5_000;

/**
 * How many of the newest turns a query of symbols only reads (SYMBOL_SCAN_SQL): no index holds emoji, so a miss
 * read every turn's text, 220-310 ms at 200,000 turns on each keystroke (bench/search.bench.ts), where a word costs
 * 15-30 ms. Reading this many costs about what a word does; older turns are not searched (SearchFound.newest).
 */
export const SYMBOL_SCAN_ROWS = 20_000;

/**
 * A query of symbols only (symbolWords, `@words` as JSON): the newest `@limit` turns whose text or attachment names
 * hold every one, read newest first (no index holds them) from `@from` (a seq; SYMBOL_SCAN_ROWS) on, CAST as in
 * SEARCH_SQL (a real bound is ignored, and every turn read).
 */
export const SYMBOL_SCAN_SQL = `WITH top AS MATERIALIZED (
     SELECT rowid AS seq FROM turns_fts
     WHERE turns_fts.rowid >= CAST(@from AS INTEGER)
       AND NOT EXISTS (SELECT 1 FROM json_each(@words) AS w WHERE instr(turns_fts.text, w.value) = 0 AND instr(turns_fts.names, w.value) = 0)
     ORDER BY rowid DESC LIMIT @limit
   )
   ${hitsWithText('turns_fts', '0', 'top.seq DESC')}`;

/** What a search found, and how far it looked. */
export interface SearchFound {
  hits: SearchHit[];
  /**
   * Set where only the newest this many messages were searched and fewer hits than asked for were found there (a
   * query of symbols only, SYMBOL_SCAN_ROWS; one with a literal word, LITERAL_SCAN_ROWS): an older message may hold
   * it. Titles are all searched.
   */
  newest?: number;
  /** Set where more messages were found than asked for: asked for again with a larger limit, the list goes on. */
  more?: true;
}

/** How many conversations found by their title are offered, before the messages found. */
export const TITLE_LIMIT = 10;

/**
 * Conversations whose title holds the words (migration 0020), newest first; `@query` comes from `toFtsQuery`,
 * `@literals` from `literalsOf`. The snippet is the whole title, marked. Not by bm25: a common word is in most
 * titles, and ranking them all cost 20 ms at 10,000 conversations, where walking the rowids newest first stops at
 * the limit (seq grows as conversations are made).
 */
export const TITLE_SEARCH_SQL = `SELECT c.id AS conversationId, c.title AS title, NULL AS turnId,
     highlight(titles_fts, 0, '${MATCH_START}', '${MATCH_END}') AS snippet, 0 AS rank
   FROM titles_fts
   JOIN conversation_search s ON s.seq = titles_fts.rowid
   JOIN conversations c ON c.id = s.conversation_id
   WHERE titles_fts MATCH @query
     AND ${notBeingDeleted('c.id')}
     AND NOT EXISTS (SELECT 1 FROM json_each(@literals) AS l WHERE ${literalMissing('c.title')})
   ORDER BY titles_fts.rowid DESC LIMIT @limit`;

/**
 * Conversations whose title holds each of `count` words of a CJK query (one parameter each, lower-cased), newest first:
 * unicode61 makes one token of a run of those scripts, so a word inside it is looked for as a substring. Titles are
 * short, one per conversation, so they are read, not indexed: 4-9 ms at 10,000 conversations on a busy machine (a
 * json_each of the words per title took twice that).
 */
export function cjkTitleSql(count: number): string {
  const words = Array.from({ length: count }, () => "instr(lower(c.title), ?) > 0").join(' AND ');
  return `SELECT c.id AS conversationId, c.title AS title, NULL AS turnId, c.title AS snippet, 0 AS rank
   FROM conversations c
   WHERE ${words} AND ${notBeingDeleted('c.id')}
   ORDER BY c.updated_at DESC, c.id DESC LIMIT ${TITLE_LIMIT}`;
}

/** A typed last word matching more indexed words than this keeps FTS5's own prefix query. */
const MAX_PREFIX_TERMS = 16;

/**
 * Full-text search over titles, user text, answers and attachment names, ranked by bm25; then the answers' reasoning
 * and the attached documents' text (search-beyond-text.ts).
 */
export class SearchStore {
  private readonly stmt: Statement;
  private readonly terms: Statement;
  /** Undefined on a database migrated only part-way (a migration's test), which has no title index. */
  private readonly titles: Statement | undefined;
  /** cjkTitleSql by word count, made as queries need them. */
  private readonly cjkTitles = new Map<number, Statement>();
  /** Made at the first CJK query: a database migrated only to 0003 (its test) has no trigram table. */
  private cjk: CjkSearch | undefined;
  /** Made at the first query of symbols only (SYMBOL_SCAN_SQL), with the seq its scan starts from. */
  private symbols: { scan: Statement; from: Statement } | undefined;
  /** The seq of the LITERAL_SCAN_ROWS-th newest match of an index query, and the one before it, if any. */
  private readonly literalFrom: Statement;
  /** How many turns have a seq from the one given on: the newest turns a bounded search read. */
  private readonly newerThan: Statement;
  private readonly symbolScanRows: number;
  private readonly literalScanRows: number;
  /** Undefined on a database migrated only part-way, before 0022. */
  private readonly beyondText: BeyondTextSearch | undefined;
  /** Made at the first CJK query where the database has 0023's tables (false where it has not). */
  private cjkBeyondText: CjkBeyondTextSearch | false | undefined;
  /** The documents' text put into the index (main's, which reads it from the blob store); none in most tests. */
  readonly documents: DocumentSearchIndex | undefined;

  /**
   * `bounds`: SYMBOL_SCAN_ROWS and LITERAL_SCAN_ROWS, less in a test. `documentText`: what is kept of a document's
   * text (AttachmentContent.searchableText), for the documents to be searched.
   */
  constructor(
    private readonly db: Database,
    bounds: { symbolScanRows?: number; literalScanRows?: number; documentText?: SearchableText } = {},
  ) {
    this.symbolScanRows = bounds.symbolScanRows ?? SYMBOL_SCAN_ROWS;
    this.literalScanRows = bounds.literalScanRows ?? LITERAL_SCAN_ROWS;
    allowDatePatterns(db);
    const has0022 = this.has('documents_fts');
    this.beyondText = has0022 ? new BeyondTextSearch(db) : undefined;
    this.documents = has0022 && bounds.documentText ? new DocumentSearchIndex(db, bounds.documentText) : undefined;
    this.stmt = db.prepare(withDeletesOf(db, SEARCH_SQL));
    this.literalFrom = db.prepare('SELECT rowid FROM turns_fts WHERE turns_fts MATCH ? ORDER BY rowid DESC LIMIT 2 OFFSET ?').pluck();
    this.newerThan = db.prepare('SELECT count(*) FROM turn_search WHERE seq >= ?').pluck();
    // The index's vocabulary, as a temp table: a view of turns_fts, nothing stored, so no migration.
    db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.turns_fts_terms USING fts5vocab(main, turns_fts, 'row')");
    this.terms = db.prepare('SELECT term FROM temp.turns_fts_terms WHERE term >= ? AND term < ? LIMIT ?');
    const hasTitles = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'titles_fts'").get() !== undefined;
    this.titles = hasTitles ? db.prepare(withDeletesOf(db, TITLE_SEARCH_SQL)) : undefined;
  }

  /** The database has table `name` (one migrated only part-way, in a migration's test, may not). */
  private has(name: string): boolean {
    return this.db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(name) !== undefined;
  }

  /**
   * Conversations found by their title only first (a title is what the list shows), then the messages found. A
   * conversation with a message found is offered at that message, not twice: most titles are made from the first
   * message or answer, so nearly every title hit was also a message hit, which opens where the words are.
   */
  search(input: string, limit = 50, window = RANK_WINDOW): SearchHit[] {
    return this.find(input, limit, window).hits;
  }

  /** As `search`, saying too whether only the newest messages were read (SearchFound.newest). */
  find(input: string, limit = 50, window = RANK_WINDOW): SearchFound {
    // A document sent since the last search is indexed first (its text was read for the send): few, or none.
    try {
      this.documents?.retry();
      this.documents?.catchUp();
    } catch {
      // A full disk: the search reads what is indexed, and the background indexing or the next search adds the rest.
    }
    // One more than asked for, to know whether there are more: a larger limit gives the same first hits (byRank).
    const { hits: turns, newest } = this.searchTurns(input, limit + 1, Math.max(window, limit));
    const more = turns.length > limit;
    // Said only where fewer than the limit were found, as before: the limit met, those are the newest hits anyway.
    const short = newest !== undefined && turns.length < limit;
    if (more) turns.length = limit;
    const found = new Set(turns.map((h) => h.conversationId));
    const hits = [...this.searchTitles(input).filter((h) => !found.has(h.conversationId)), ...turns];
    return { hits, ...(short ? { newest } : {}), ...(more ? { more } : {}) };
  }

  private searchTitles(input: string): SearchHit[] {
    if (!this.titles) return [];
    const symbols = symbolWords(input);
    if (CJK.test(input) || symbols.length > 0) {
      const words = (symbols.length > 0 ? symbols : queryWords(input)).map((w) => w.replace(/[A-Z]/g, (c) => c.toLowerCase()));
      if (words.length === 0) return [];
      let stmt = this.cjkTitles.get(words.length);
      if (!stmt) this.cjkTitles.set(words.length, (stmt = this.db.prepare(withDeletesOf(this.db, cjkTitleSql(words.length)))));
      const rows = stmt.all(...words) as SearchHit[];
      return rows.map((hit) => ({ ...hit, snippet: cjkSnippet(hit.title, '', words) }));
    }
    const query = toFtsQuery(input);
    if (query === null) return [];
    const literals = literalsOf(input);
    const hits = this.titles.all({ query, literals: JSON.stringify(literals), limit: TITLE_LIMIT }) as SearchHit[];
    const only = onlyLiterals(input);
    return hits.map((hit) => ({ ...hit, snippet: markLiterals(hit.snippet, literals, only) }));
  }

  /** `window`: how many of the newest matches are ranked (see SEARCH_SQL), no fewer than find's limit. */
  private searchTurns(input: string, limit: number, window: number): SearchFound {
    // Words inside a run of CJK characters are no unicode61 tokens: the trigram index answers (migration 0012).
    if (CJK.test(input)) {
      const words = queryWords(input);
      const inText = (this.cjk ??= new CjkSearch(this.db)).search(words, limit, window);
      // Reasoning and documents where the text left room, as for other queries (migration 0023).
      this.cjkBeyondText ??= this.has('reasoning_cjk') && new CjkBeyondTextSearch(this.db);
      if (inText.length >= limit || !this.cjkBeyondText) return { hits: inText };
      return { hits: [...inText, ...this.cjkBeyondText.search(words, limit - inText.length, window, new Set(inText.map((h) => h.turnId!)))] };
    }
    const symbols = symbolWords(input);
    if (symbols.length > 0) return this.scanSymbols(symbols, limit);
    const query = toFtsQuery(input);
    if (query === null) return { hits: [] };
    const words = this.prefixWords(query);
    // One word: the exact term is the prefix query, ranks included. Several: bm25 would weigh each word on its
    // own, so ranking keeps the prefix and only the snippet pass (same turns, same marks) uses the words.
    const exact = words?.query;
    const literals = literalsOf(input);
    const ranked = words?.count === 1 ? exact! : query;
    // A literal word's text is read in the newest LITERAL_SCAN_ROWS matches only, from the oldest of them on.
    const [from, older] = literals.length > 0 ? (this.literalFrom.all(ranked, Math.max(0, this.literalScanRows - 1)) as number[]) : [];
    const inText = this.stmt.all({ query: ranked, snippetQuery: exact ?? query, literals: JSON.stringify(literals), limit, window, from: from ?? 0 }) as SearchHit[];
    // Reasoning and documents where the text left room: a hit in a message's text ranks above one only there.
    const hits =
      inText.length < limit && this.beyondText
        ? [...inText, ...this.beyondText.search({ query, literals, literalScanRows: this.literalScanRows }, limit - inText.length, new Set(inText.map((h) => h.turnId!)))]
        : inText;
    const only = onlyLiterals(input);
    const marked = hits.map((hit) => ({ ...hit, snippet: markLiterals(hit.snippet, literals, only) }));
    return older !== undefined && hits.length < limit ? { hits: marked, newest: this.newerThan.get(from) as number } : { hits: marked };
  }

  /** A query of symbols only: the newest `symbolScanRows` turns are read (SYMBOL_SCAN_SQL). */
  private scanSymbols(symbols: readonly string[], limit: number): SearchFound {
    this.symbols ??= {
      scan: this.db.prepare(withDeletesOf(this.db, SYMBOL_SCAN_SQL)),
      // The oldest of the newest N turns: turn_search's key, walked from its end (seqs of deleted turns are gaps).
      // The oldest of the newest N turns and the one before it, if any: turn_search's key walked from its end.
      from: this.db.prepare('SELECT seq FROM turn_search ORDER BY seq DESC LIMIT 2 OFFSET ?').pluck(),
    };
    const [from, older] = this.symbols.from.all(Math.max(0, this.symbolScanRows - 1)) as number[];
    const rows = this.symbols.scan.all({ words: JSON.stringify(symbols), limit, from: from ?? 0 }) as (Omit<SearchHit, 'snippet'> & { text: string; names: string })[];
    const hits = rows.map(({ text, names, ...hit }) => ({ ...hit, snippet: cjkSnippet(text, names, symbols) }));
    // Older turns went unread, and could have given more hits than the newest N did.
    return older !== undefined && rows.length < limit ? { hits, newest: this.symbolScanRows } : { hits };
  }

  /**
   * The last word is a prefix (results follow typing). Past 3 characters (the lengths with their own prefix
   * index, migration 0003) FTS5 answers a prefix by merging the whole doclist of every word it covers, and
   * SEARCH_SQL matches twice: a common word cost 40-100 ms at 200,000 turns (bench/search.bench.ts). The few
   * indexed words it covers, ORed as exact terms, match the same turns and are read newest-first and lazily.
   * Returns that query and the number of words, or undefined where the prefix query must stay.
   */
  private prefixWords(query: string): { query: string; count: number } | undefined {
    const m = /"((?:[^"]|"")*)"\*$/.exec(query);
    // Folded as the unicode61 tokenizer (remove_diacritics 2) folds; a word it would split is left alone.
    const prefix = m?.[1]?.replaceAll('""', '"').normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    if (!m || !prefix || prefix.length <= 3 || !/^[\p{L}\p{N}]+$/u.test(prefix)) return undefined;
    const words = (this.terms.all(prefix, `${prefix}\u{10FFFF}`, MAX_PREFIX_TERMS + 1) as { term: string }[]).map((r) => r.term);
    if (words.length === 0 || words.length > MAX_PREFIX_TERMS) return undefined;
    // Words ANDed explicitly (a whole date's spellings ORed before it: toFtsQuery) are ANDed once.
    const rest = query.slice(0, m.index).trim().replace(/ AND$/, '');
    const any = words.length === 1 ? `"${words[0]!.replaceAll('"', '""')}"` : `(${words.map((w) => `"${w.replaceAll('"', '""')}"`).join(' OR ')})`;
    return { query: rest === '' ? any : `${rest} AND ${any}`, count: words.length };
  }
}
