import BetterSqlite3, { type Database } from 'better-sqlite3';
import { dirname } from 'node:path';
import { UserFacingError } from '../errors';
import { compactAtStart } from './compact-at-start';
import { enableIncrementalVacuum, freeBytesIn, WAL_SIZE_LIMIT } from './free-space';
import { MIGRATIONS } from './migrations';
import type { Migration } from './migrations/types';

export interface OpenDatabaseOptions {
  /**
   * Path of a better-sqlite3 binding built for the running ABI. Electron needs one built for its own ABI
   * (scripts/start.mjs builds it); plain Node uses the one npm installed.
   */
  nativeBinding?: string;
  migrations?: readonly Migration[];
  /** Where a compaction at startup says what it gave back, or why it could not (./free-space.ts). */
  log?: (message: string) => void;
}

/** Opens (creating if needed) the database, in WAL mode, and migrates it forward. */
export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Database {
  let db: Database;
  try {
    db = new BetterSqlite3(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  } catch (err) {
    throw openFailure(file, err) ?? err;
  }
  try {
    // Refuse a newer database before any pragma below writes to it (WAL changes the file header): left untouched.
    refuseNewer(db, options.migrations ?? MIGRATIONS);
    // Before the first table (and before WAL writes the header): a new database can give deleted chats' space back.
    enableIncrementalVacuum(db);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    // What a delete frees inside a page is zeroed, not left readable in the file (a deleted chat's words, round 6);
    // FAST: only where that costs no extra I/O (no measurable cost on deleting a 1,000-turn chat).
    db.pragma('secure_delete = FAST');
    db.pragma('busy_timeout = 5000');
    db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
    migrate(db, options.migrations ?? MIGRATIONS);
    compactAtStart(db, file, { log: options.log });
    return db;
  } catch (err) {
    db.close();
    throw openFailure(file, err) ?? err;
  }
}

/**
 * A database file SQLite cannot open or read, said for the user (resilience audit R6: serve mode said only
 * "Firebrand could not start: file is not a database", or "unable to open database file" for a read-only data
 * folder, naming neither the file nor what to do). Undefined for any other error.
 */
export function openFailure(file: string, err: unknown, freeBytes: (dir: string) => number | undefined = freeBytesIn): UserFacingError | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  const detail = err instanceof Error ? err.message : String(err);
  // A full disk (durability audit): SQLite says "database or disk is full" while migrating, or only "disk I/O
  // error" (SQLITE_IOERR_SHMSIZE, _WRITE) when it cannot even grow the -shm file, which reads as a failing disk.
  const ioError = typeof code === 'string' && code.startsWith('SQLITE_IOERR');
  if (code === 'SQLITE_FULL' || (ioError && (freeBytes(dirname(file)) ?? Infinity) < DISK_NEARLY_FULL)) {
    return new DiskFullAtOpen(
      `The disk that holds Firebrand’s data folder ${dirname(file)} is full, so Firebrand cannot open its conversations (${detail}). ` +
        'Nothing in them was changed: free some space on that disk, then start Firebrand again.',
    );
  }
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
    return new UserFacingError(
      'internal',
      `The conversation database ${file} cannot be read: it is damaged, or not a Firebrand database (${detail}). ` +
        'It was left untouched: move it aside, with any firebrand.db-wal and firebrand.db-shm beside it, to start with an empty one, or put back a copy you kept.',
    );
  }
  if (code === 'SQLITE_CANTOPEN' || code === 'SQLITE_READONLY' || code === 'SQLITE_PERM') {
    return new UserFacingError(
      'internal',
      `Firebrand cannot open ${file} for writing (${detail}): its data folder ${dirname(file)} may be read-only, full, or not writable by this user. ` +
        'Make it writable, or start Firebrand with another data folder (--data-dir in serve mode).',
    );
  }
  return undefined;
}

/** The database could not be opened for want of room on its disk (./open-making-room.ts gives it the reserve). */
export class DiskFullAtOpen extends UserFacingError {
  constructor(message: string) {
    super('internal', message);
  }
}

/** Below this much free space, an I/O error while opening is taken for a full disk. */
const DISK_NEARLY_FULL = 1024 * 1024;

/** Runs every pending migration in one transaction; refuses a database written by a newer Firebrand. */
export function migrate(db: Database, migrations: readonly Migration[]): void {
  const current = refuseNewer(db, migrations);
  const pending = migrations.filter((m) => m.version > current);
  if (pending.length === 0) return;
  db.transaction(() => {
    for (const m of pending) {
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    }
  })();
}

/** Returns the database's schema version, or throws when a newer Firebrand wrote it. */
function refuseNewer(db: Database, migrations: readonly Migration[]): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  const latest = migrations.at(-1)?.version ?? 0;
  if (current > latest) {
    throw new UserFacingError(
      'internal',
      `This conversation database was written by a newer version of Firebrand (schema ${current}; this app knows up to ${latest}). ` +
        'It was left untouched: update Firebrand to open it.',
    );
  }
  return current;
}
