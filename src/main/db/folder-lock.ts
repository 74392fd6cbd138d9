/**
 * One Firebrand per data folder (resilience audit R4). A second one started on the same folder (the app opened
 * twice, serve mode started again in another terminal, the desktop app beside serve mode) ran on the same
 * database: its start settled the first one's answers, still streaming, as "interrupted" and its pending tool
 * approvals as "closed", and each showed the other's changes only after a reload.
 *
 * The lock is SQLite's own: a small database beside the conversations' (firebrand.db-lock), opened in exclusive
 * locking mode and written once, holds an exclusive file lock for as long as its connection is open. The operating
 * system drops it when the process ends however it ends (SIGKILL, a crash, a power cut), so there is never a stale
 * lock to clear, on POSIX and Windows alike.
 */
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { join } from 'node:path';
import { UserFacingError } from '../errors';
import { DiskReserve, isDiskFull, keepReserve } from './disk-reserve';
import { openFailure } from './open-database';
import { openMakingRoom } from './open-making-room';
import { finishMarkedDeletes } from './delete-intent';
import { readOnlyReason } from './read-only-copy';

/** Beside the database, named as its other companions are (-wal, -shm). */
export const LOCK_FILE = 'firebrand.db-lock';

/** Held while this process uses the data folder; `release` lets another Firebrand open it. */
export interface FolderLock {
  release(): void;
}

/** Takes the data folder for this process, or throws a sentence for the user when another Firebrand has it. */
export function lockDataFolder(dataDir: string, options: { nativeBinding?: string } = {}): FolderLock {
  const file = join(dataDir, LOCK_FILE);
  let db: Database;
  try {
    // timeout 0: a lock held by another process is an answer, not something to wait for.
    db = new BetterSqlite3(file, { timeout: 0, ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}) });
  } catch (err) {
    throw openFailure(file, err) ?? err;
  }
  try {
    takeLock(db);
  } catch (err) {
    db.close();
    const code = (err as { code?: unknown } | null)?.code;
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
      throw new UserFacingError(
        'forbidden',
        `Another Firebrand is already using the data folder ${dataDir} (the app or serve mode, started earlier). ` +
          'Two at once would get in each other’s way (each marks the other’s answers as interrupted): use the one already running, or stop it first, or start this one on another data folder (--data-dir in serve mode).',
      );
    }
    throw openFailure(file, err) ?? err;
  }
  return { release: () => db.close() };
}

/** Takes `db`'s exclusive file lock, for as long as it is open. */
function takeLock(db: Database): void {
  db.pragma('locking_mode = EXCLUSIVE');
  // Its journal in memory: in exclusive mode a journal file would stay on disk beside it for good.
  db.pragma('journal_mode = MEMORY');
  try {
    // The first write takes the exclusive lock; in this mode it is kept after the commit, until the connection closes.
    db.exec(`BEGIN EXCLUSIVE; CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL); DELETE FROM holder; INSERT INTO holder (pid) VALUES (${process.pid}); COMMIT`);
  } catch (err) {
    // A full disk with no lock file yet (a data folder from before the lock, round 9): the file is made (empty), but
    // the write that fills it fails, and Firebrand quit there, before the read-only start meant for this disk. A
    // transaction left open holds the same exclusive lock without writing a byte, until the connection closes
    // (checked on a full tmpfs: another process gets SQLITE_BUSY). The pid goes unwritten; nothing reads it.
    if (!isDiskFull(err)) throw err;
    if (db.inTransaction) db.exec('ROLLBACK');
    db.exec('BEGIN EXCLUSIVE');
  }
}

/**
 * The data folder's database (firebrand.db), opened once this process holds the folder: before anything reads it,
 * since a second Firebrand's start would settle the first one's live answers. `release` goes with `db.close()`.
 * The reserve kept back for a full disk (./disk-reserve.ts) is used for the open if need be, and written where
 * there is room (keepReserve). Deletes a crash cut short are finished, and those that ran out of room once there
 * is room again (./delete-intent.ts).
 */
export function openLockedDatabase(
  dataDir: string,
  options: { nativeBinding?: string; log?: (message: string) => void } = {},
): { db: Database; lock: FolderLock; reserve: DiskReserve } {
  const lock = lockDataFolder(dataDir, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  try {
    const reserve = new DiskReserve(dataDir, options.log ? { log: options.log } : {});
    const db = openMakingRoom(join(dataDir, 'firebrand.db'), reserve, options);
    // A delete a crash cut short is finished before anything lists the chats (not on a read-only copy: it stays
    // hidden); one that ran out of room midway, once there is room again.
    const finishDeletes = () => (readOnlyReason(db) ? 0 : finishMarkedDeletes(db, reserve, options.log));
    finishDeletes();
    keepReserve(db, reserve, finishDeletes);
    return { db, lock, reserve };
  } catch (err) {
    lock.release();
    throw err;
  }
}
