/**
 * The chats opened read-only when the disk is too full to open the database at all and no reserve is left
 * (round 7). SQLite cannot open a WAL database without its -shm file, read-only or not (checked: SQLITE_IOERR_SHMSIZE
 * on a full tmpfs), so the file is read into memory and opened there: the user can read, search and export their
 * chats, and every write is refused (query_only), with a banner saying why (READ_ONLY_NOTE).
 *
 * What the last run left only in firebrand.db-wal (its latest writes, after a crash) is applied to the copy from that
 * file (./wal-replay.ts, round 8): before, the read-only start showed the chats without the user's latest messages.
 */
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { migrate, type OpenDatabaseOptions } from './open-database';
import { MIGRATIONS } from './migrations';
import { replayWal } from './wal-replay';

/**
 * What the page says while the chats are open read-only; `walUnread` when firebrand.db-wal, which holds the last
 * run's latest writes, could not be read.
 */
export function readOnlyNote(file: string, walUnread = false): string {
  const missing = walUnread ? ' The latest changes from before Firebrand last stopped could not be read, so they may be missing here; they are kept on disk.' : '';
  return `The disk that holds Firebrand’s data folder ${dirname(file)} is full, so your chats are open read-only: you can read, search and export them, but nothing new can be saved.${missing} Free some space on that disk, then start Firebrand again.`;
}

const notes = new WeakMap<Database, string>();

/** Why `db` is read-only, or undefined when it is the usual database. */
export function readOnlyReason(db: Database): string | undefined {
  return notes.get(db);
}

/** `file` read into memory and opened there, writes refused. Throws what reading it throws. */
export function openReadOnlyCopy(file: string, options: OpenDatabaseOptions = {}): Database {
  const { bytes, walUnread } = withWal(file, readFileSync(file), options.log);
  // A WAL database's header says so (bytes 18 and 19 = 2); in memory it must read as a rollback-journal one.
  if (bytes.length >= 20 && bytes[18] === 2 && bytes[19] === 2) bytes[18] = bytes[19] = 1;
  const db = new BetterSqlite3(bytes, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  try {
    db.pragma('foreign_keys = ON');
    // An older database is brought up to date in memory only: the file stays as it was.
    migrate(db, options.migrations ?? MIGRATIONS);
    // The search's vocabulary tables (search.ts, search-cjk.ts) are temp tables made on first use: made now.
    db.exec("CREATE VIRTUAL TABLE temp.turns_fts_terms USING fts5vocab(main, turns_fts, 'row')");
    const cjk = db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'turns_cjk'").get();
    if (cjk) db.exec("CREATE VIRTUAL TABLE temp.turns_cjk_terms USING fts5vocab(main, turns_cjk, 'row')");
    db.pragma('query_only = ON');
  } catch (err) {
    db.close();
    throw err;
  }
  notes.set(db, readOnlyNote(file, walUnread));
  return db;
}

/** `db` with what the last run left in `file`-wal applied; `walUnread` when there is such a file and it cannot be read. */
function withWal(file: string, db: Buffer, log: ((message: string) => void) | undefined): { bytes: Buffer; walUnread: boolean } {
  const wal = `${file}-wal`;
  if (!existsSync(wal)) return { bytes: db, walUnread: false };
  try {
    const { bytes, frames } = replayWal(db, readFileSync(wal));
    if (frames > 0) log?.(`storage: the chats open read-only with the ${frames} page writes the last run left in firebrand.db-wal`);
    return { bytes, walUnread: false };
  } catch (err) {
    log?.(`storage: the disk is full: the chats are open read-only, without what the last run left in firebrand.db-wal, which could not be read (${err instanceof Error ? err.message : String(err)}; kept there for the next start with room)`);
    return { bytes: db, walUnread: true };
  }
}
