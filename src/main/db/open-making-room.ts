/**
 * Opening the database on a full disk (durability audit, round 7). With under about 16 kB free, SQLite cannot make
 * the -shm file a WAL database needs to open: Firebrand said the disk was full and quit, and the user could not
 * even read their chats. Where the data folder holds the reserve (./disk-reserve.ts), it is given up for the open;
 * where it does not, the chats open read-only.
 */
import type { Database } from 'better-sqlite3';
import type { DiskReserve } from './disk-reserve';
import { DiskFullAtOpen, openDatabase, type OpenDatabaseOptions } from './open-database';
import { openReadOnlyCopy } from './read-only-copy';

/**
 * Opens `file`; when the disk is too full for that, releases the reserve and tries once more, and without one opens
 * a read-only copy in memory (./read-only-copy.ts).
 */
export function openMakingRoom(file: string, reserve: DiskReserve, options: OpenDatabaseOptions = {}): Database {
  try {
    return openDatabase(file, options);
  } catch (err) {
    if (!(err instanceof DiskFullAtOpen)) throw err;
    if (!reserve.release()) return readOnlyOr(file, options, err);
  }
  try {
    return openDatabase(file, options);
  } catch (err) {
    if (!(err instanceof DiskFullAtOpen)) throw err;
    return readOnlyOr(file, options, err);
  }
}

/** The read-only copy, or `full` (the message that the disk is full) when even that cannot be read. */
function readOnlyOr(file: string, options: OpenDatabaseOptions, full: DiskFullAtOpen): Database {
  try {
    const db = openReadOnlyCopy(file, options);
    options.log?.('storage: the disk is full and no room was kept back: the chats are open read-only');
    return db;
  } catch {
    throw full;
  }
}
