/**
 * Giving disk space back after the user deletes chats (durability audit). SQLite keeps the pages a delete frees
 * inside the file for later rows: a user who deleted 300 long chats to make room found firebrand.db as large as
 * before (242 MB, 85 % of it free pages), for good. And in WAL mode the -wal file keeps the size of the largest
 * transaction it ever held (a big import, a vacuum) until the app closes.
 *
 * - A new database is created with incremental auto-vacuum, and a deleted chat's pages are handed back to the
 *   file system after the delete (`releaseFreePages`), in small chunks: the work is the size of what was deleted.
 * - A database made before this (no auto-vacuum) is converted once, by VACUUM at startup, but only when that pays
 *   (`compactIfMostlyFree`): a quarter or more of the file free, and at least 16 MB. A VACUUM rewrites the live
 *   rows (about a second per 100 MB here), so it is not done for a few free pages, nor tried again after a failure
 *   until there is more room (./compact-at-start.ts).
 * - The -wal file is cut back to `WAL_SIZE_LIMIT` whenever a checkpoint lets SQLite start it over.
 */
import type { Database } from 'better-sqlite3';
import { statfsSync } from 'node:fs';
import { answersStreaming, whenNoAnswerStreams } from './background-slices';

/** What the -wal file is cut back to after a checkpoint (SQLite's autocheckpoint keeps it near 4 MB normally). */
export const WAL_SIZE_LIMIT = 8 * 1024 * 1024;
/** Compacting an old database at startup is worth it from this much free space, and this share of the file. */
export const COMPACT_MIN_FREE_BYTES = 16 * 1024 * 1024;
export const COMPACT_MIN_FREE_SHARE = 0.25;

const INCREMENTAL = 2;

/** For a database with no tables yet: pages freed later can be given back (it cannot be switched on afterwards). */
export function enableIncrementalVacuum(db: Database): void {
  const tables = db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table'").get() as { n: number };
  if (tables.n === 0) db.pragma('auto_vacuum = INCREMENTAL');
}

/** Pages handed back per turn of the event loop: about 2 MB, a few ms, so an answer streaming meanwhile does not stall. */
export const RELEASE_CHUNK_PAGES = 512;

/**
 * Hands the file's free pages back to the file system (after a delete), a chunk at a time between other work, then
 * runs `then` (also where there was nothing to hand back):
 * all at once, a 1000-turn chat's delete held main's thread 250 ms longer (measured). Nothing on a database
 * without auto-vacuum. Never throws: the delete before it is done, and pages it could not give back (a full disk:
 * moving pages writes to the -wal file; the database closed meanwhile) stay free inside the file, for the next
 * delete or for new rows. Waits while an answer streams (./background-slices.ts).
 */
export function releaseFreePages(db: Database, then?: () => void): void {
  try {
    if (!db.open) return;
    if (answersStreaming(db)) return whenNoAnswerStreams(db, () => releaseFreePages(db, then));
    const free = db.pragma('auto_vacuum', { simple: true }) === INCREMENTAL ? (db.pragma('freelist_count', { simple: true }) as number) : 0;
    if (free > 0) db.pragma(`incremental_vacuum(${RELEASE_CHUNK_PAGES})`);
    if (free > RELEASE_CHUNK_PAGES) whenNoAnswerStreams(db, () => releaseFreePages(db, then));
    else then?.();
  } catch {
    // Left for the next time (see above).
  }
}

/**
 * Rewrites a database made without auto-vacuum when most of it is free pages, with incremental auto-vacuum from
 * then on. Returns the bytes given back (0 when not worth it). A failure (the disk too full to write the copy)
 * leaves the database as it was, and is the caller's to log: Firebrand opens all the same.
 */
export function compactIfMostlyFree(db: Database): number {
  if (db.pragma('auto_vacuum', { simple: true }) === INCREMENTAL) return 0;
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const pages = db.pragma('page_count', { simple: true }) as number;
  const free = db.pragma('freelist_count', { simple: true }) as number;
  if (free * pageSize < COMPACT_MIN_FREE_BYTES || free < pages * COMPACT_MIN_FREE_SHARE) return 0;
  db.pragma('auto_vacuum = INCREMENTAL');
  // The search indexes keep a deleted turn's entries as delete markers until their segments merge: merged now,
  // while everything is rewritten anyway (300 deleted chats left 37 MB of them).
  for (const index of searchIndexes(db)) db.prepare(`INSERT INTO ${index} (${index}) VALUES ('optimize')`).run();
  db.exec('VACUUM');
  // The VACUUM went through the -wal file: copied into the database now, and the file cut back.
  db.pragma('wal_checkpoint(TRUNCATE)');
  return (pages - (db.pragma('page_count', { simple: true }) as number)) * pageSize;
}

/** The FTS5 search tables this database has (0003: turns_fts; 0012: turns_cjk; 0020: titles_fts). */
function searchIndexes(db: Database): string[] {
  const names = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name IN ('turns_fts', 'turns_cjk', 'titles_fts')").all() as { name: string }[];
  return names.map((n) => n.name);
}

/** Free bytes for this user on the disk holding `dir`, or undefined when that cannot be read. */
export function freeBytesIn(dir: string): number | undefined {
  try {
    const s = statfsSync(dir);
    return s.bavail * s.bsize;
  } catch {
    return undefined;
  }
}
