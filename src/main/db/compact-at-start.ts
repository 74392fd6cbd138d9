/**
 * The compaction of an old database at startup (./free-space.ts), remembered when it fails (durability audit,
 * round 6). A nearly full disk cannot hold the copy a VACUUM writes: it failed, the database stayed as it was, and
 * the next start tried again, and failed again, spending the time of a VACUUM that rewrites the live rows on
 * every start. The failure is now kept in the database with the room it had (free bytes on the disk, live bytes
 * in the file), and the compaction is tried again only once there is clearly more: COMPACT_MIN_FREE_BYTES more
 * free on the disk, or that much less to copy.
 */
import type { Database } from 'better-sqlite3';
import { dirname } from 'node:path';
import { compactIfMostlyFree, COMPACT_MIN_FREE_BYTES, freeBytesIn } from './free-space';

/** Where the last failed try is kept: a settings row, which settings:get does not read (unknown keys are ignored). */
export const COMPACT_FAILED_KEY = 'storage.compactFailed';

/** What the disk and the file held when a compaction failed. */
export interface CompactFailure {
  /** Free bytes for this user on the data folder's disk, or null where they could not be read. */
  freeBytes: number | null;
  /** Bytes of live pages: about what a VACUUM copies. */
  liveBytes: number;
  at: number;
}

export interface CompactAtStartDeps {
  log?: ((message: string) => void) | undefined;
  /** Free bytes in a folder (tests pass their own). */
  freeBytes?: (dir: string) => number | undefined;
  /** The compaction itself (tests make it fail). */
  compact?: (db: Database) => number;
  now?: () => number;
}

/**
 * Compacts an old database that is mostly free pages, unless the last try failed and there is no more room since.
 * Never throws: a database that cannot be compacted opens all the same.
 */
export function compactAtStart(db: Database, file: string, deps: CompactAtStartDeps = {}): void {
  const { log, compact = compactIfMostlyFree } = deps;
  try {
    const failed = lastFailure(db);
    const free = (deps.freeBytes ?? freeBytesIn)(dirname(file)) ?? null;
    const live = liveBytes(db);
    if (failed && !moreRoom(failed, free, live)) {
      log?.(`storage: not compacting the database: it failed with ${mb(failed.freeBytes)} free on the disk, and there is ${mb(free)} now; it is tried again once there is more room`);
      return;
    }
    try {
      const freed = compact(db);
      if (freed > 0) log?.(`storage: gave back ${Math.round(freed / (1024 * 1024))} MB that deleted chats had used`);
      if (failed) forget(db);
    } catch (err) {
      log?.(`storage: could not compact the database (it stays as it was): ${err instanceof Error ? err.message : String(err)}`);
      if (!outOfRoom(err)) return;
      // The failed VACUUM filled the disk with -wal frames, kept until a checkpoint starts the file over. The
      // database's own writes reuse that room, but every other file did not get any for the session (an image
      // attached, a model downloaded, other programs: ENOSPC with 0 bytes free). Cut back now.
      releaseWal(db);
      remember(db, { freeBytes: free, liveBytes: live, at: (deps.now ?? Date.now)() });
    }
  } catch (err) {
    // Reading or writing the note itself failed (the disk full to the last page): the next start tries again.
    log?.(`storage: could not keep the result of the compaction: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** A failure for want of room (SQLite's "database or disk is full", or an I/O error writing the copy): others are tried again. */
function outOfRoom(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_FULL' || code === 'ENOSPC' || (typeof code === 'string' && code.startsWith('SQLITE_IOERR'));
}

/** More free on the disk, or less to copy, by enough to change the outcome; unknown free space counts as more. */
function moreRoom(failed: CompactFailure, free: number | null, live: number): boolean {
  if (free === null || failed.freeBytes === null) return true;
  return free >= failed.freeBytes + COMPACT_MIN_FREE_BYTES || live <= failed.liveBytes - COMPACT_MIN_FREE_BYTES;
}

function releaseWal(db: Database): void {
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
  } catch {
    // Cut back at the next checkpoint that can (journal_size_limit).
  }
}

function liveBytes(db: Database): number {
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const pages = db.pragma('page_count', { simple: true }) as number;
  const free = db.pragma('freelist_count', { simple: true }) as number;
  return (pages - free) * pageSize;
}

export function lastFailure(db: Database): CompactFailure | undefined {
  const value = db.prepare('SELECT value FROM settings WHERE key = ?').pluck().get(COMPACT_FAILED_KEY) as string | undefined;
  if (value === undefined) return undefined;
  try {
    const parsed = JSON.parse(value) as Partial<CompactFailure>;
    if (typeof parsed.liveBytes !== 'number') return undefined;
    return { freeBytes: typeof parsed.freeBytes === 'number' ? parsed.freeBytes : null, liveBytes: parsed.liveBytes, at: typeof parsed.at === 'number' ? parsed.at : 0 };
  } catch {
    return undefined;
  }
}

function remember(db: Database, failure: CompactFailure): void {
  db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(COMPACT_FAILED_KEY, JSON.stringify(failure));
}

function forget(db: Database): void {
  db.prepare('DELETE FROM settings WHERE key = ?').run(COMPACT_FAILED_KEY);
}

function mb(bytes: number | null): string {
  return bytes === null ? 'an unknown amount' : `${Math.round(bytes / (1024 * 1024))} MB`;
}
