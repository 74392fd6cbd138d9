/**
 * The search indexes merged after a chat is deleted (durability audit, round 6). FTS5 does not take a deleted
 * turn's words out of its index: it adds delete markers, and both stay in the file until their segments happen to
 * merge. Search never finds them (checked: words, prefixes, CJK, the vocabulary), but the words of a deleted chat
 * could still be read from firebrand.db with any SQLite tool, and took room (a 1,000-turn chat's delete left the
 * index 8.7 MB where 4.9 MB was live). So after each delete (the page's undo window is over by then) the indexes
 * are merged into one segment each, in small steps between other work, the pages that frees are handed back, and
 * the -wal file is copied in and emptied.
 *
 * FTS5's own 'secure-delete' option would take the words out at the delete itself, but it made deleting a
 * 1,000-turn chat take 9.6 s on main's thread instead of 0.17 s (measured here), so it is not used.
 */
import type { Database, Statement } from 'better-sqlite3';
import { runInSlices } from './background-slices';
import { releaseFreePages } from './free-space';

/** Pages merged per step: a few ms. (A negative count merges every segment, as 'optimize' does, but in steps.) */
export const MERGE_STEP_PAGES = 8;
/** Work per turn of the event loop, by the clock and by steps, as for the other background work (rechunk-bodies.ts). */
export const MERGE_SLICE_MS = 4;
export const MERGE_SLICE_STEPS = 8;

/** Merges the search indexes a step at a time until each is one segment again (no delete markers left). */
export class SearchIndexMerger {
  private readonly merges: { table: string; merge: Statement }[];
  private readonly changes: Statement;
  private pending: Set<string>;

  constructor(
    db: Database,
    private readonly clock: () => number = () => performance.now(),
  ) {
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name IN ('turns_fts', 'turns_cjk', 'titles_fts', 'reasoning_fts', 'documents_fts', 'reasoning_cjk', 'documents_cjk') ORDER BY name DESC").pluck().all() as string[];
    this.merges = tables.map((table) => ({ table, merge: db.prepare(`INSERT INTO ${table} (${table}, rank) VALUES ('merge', ${-MERGE_STEP_PAGES})`) }));
    this.changes = db.prepare('SELECT total_changes()').pluck();
    this.pending = new Set(tables);
  }

  /** Starts over: a delete since the last merge left new markers. */
  again(): void {
    this.pending = new Set(this.merges.map((m) => m.table));
  }

  /** Merges for `budgetMs` by the clock or `maxSteps` steps (at least one); returns true once nothing is left. */
  slice(budgetMs = MERGE_SLICE_MS, maxSteps = MERGE_SLICE_STEPS): boolean {
    const until = this.clock() + budgetMs;
    for (let steps = 1; ; steps++) {
      const next = this.merges.find((m) => this.pending.has(m.table));
      if (!next) return true;
      const before = this.changes.get() as number;
      next.merge.run();
      // FTS5's documented test: a 'merge' that found nothing to do changes fewer than 2 rows.
      if ((this.changes.get() as number) - before < 2) this.pending.delete(next.table);
      if (steps >= maxSteps || this.clock() >= until) return this.pending.size === 0;
    }
  }
}

const running = new WeakMap<Database, SearchIndexMerger>();

/**
 * Merges the search indexes in the background after a delete, a slice per turn of the event loop, then hands the
 * freed pages back. A second delete meanwhile extends the merge under way. Never throws: what is left (a full disk,
 * the database closed) is merged after the next delete.
 */
export function mergeSearchIndexes(db: Database): void {
  const merger = running.get(db);
  if (merger) return merger.again();
  const fresh = new SearchIndexMerger(db);
  running.set(db, fresh);
  runInSlices(db, {
    slice: () => fresh.slice(),
    done: () => {
      running.delete(db);
      releaseFreePages(db, () => copyOutOfWal(db));
    },
    failed: () => running.delete(db),
  });
}

/**
 * Until a checkpoint copies them in, the pages the delete and the merge rewrote are only in the -wal file: the
 * database file kept its old pages (the deleted chat's words with them) and the -wal file older frames, as long as
 * Firebrand ran (checked: both still held them two seconds after the delete). Copied now, and the -wal file
 * emptied. A few ms for the usual -wal of a few MB; left to SQLite's own checkpoints when it cannot run.
 */
function copyOutOfWal(db: Database): void {
  try {
    if (db.open) db.pragma('wal_checkpoint(TRUNCATE)');
  } catch {
    // Busy or full: the next checkpoint does it.
  }
}
