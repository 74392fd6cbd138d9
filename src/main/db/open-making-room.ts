/**
 * Opening the database on a full disk (durability audit, round 7). With under about 16 kB free, SQLite cannot make
 * the -shm file a WAL database needs to open: Firebrand said the disk was full and quit, and the user could not
 * even read their chats. Where the data folder holds the reserve (./disk-reserve.ts), it is given up for the open.
 */
import type { Database } from 'better-sqlite3';
import type { DiskReserve } from './disk-reserve';
import { DiskFullAtOpen, openDatabase, type OpenDatabaseOptions } from './open-database';

/** Opens `file`; when the disk is too full for that, releases the reserve and tries once more. */
export function openMakingRoom(file: string, reserve: DiskReserve, options: OpenDatabaseOptions = {}): Database {
  try {
    return openDatabase(file, options);
  } catch (err) {
    if (!(err instanceof DiskFullAtOpen) || !reserve.release()) throw err;
  }
  return openDatabase(file, options);
}
