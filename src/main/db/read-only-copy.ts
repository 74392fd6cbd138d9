/**
 * The chats opened read-only when the disk is too full to open the database at all and no reserve is left
 * (round 7). SQLite cannot open a WAL database without its -shm file, read-only or not (checked: SQLITE_IOERR_SHMSIZE
 * on a full tmpfs), so the file is read into memory and opened there: the user can read, search and export their
 * chats, and every write is refused (query_only), with a banner saying why (READ_ONLY_NOTE).
 */
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { migrate, type OpenDatabaseOptions } from './open-database';
import { MIGRATIONS } from './migrations';

/** What the page says while the chats are open read-only. */
export function readOnlyNote(file: string): string {
  return `The disk that holds Firebrand’s data folder ${dirname(file)} is full, so your chats are open read-only: you can read, search and export them, but nothing new can be saved. Free some space on that disk, then start Firebrand again.`;
}

const notes = new WeakMap<Database, string>();

/** Why `db` is read-only, or undefined when it is the usual database. */
export function readOnlyReason(db: Database): string | undefined {
  return notes.get(db);
}

/** `file` read into memory and opened there, writes refused. Throws what reading it throws. */
export function openReadOnlyCopy(file: string, options: OpenDatabaseOptions = {}): Database {
  const bytes = readFileSync(file);
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
  const wal = `${file}-wal`;
  if (existsSync(wal) && statSync(wal).size > 0) {
    options.log?.('storage: the disk is full: the chats are open read-only, without what the last run left in firebrand.db-wal (kept there for the next start with room)');
  }
  notes.set(db, readOnlyNote(file));
  return db;
}
