/**
 * Opening the database on a full disk (durability audit, round 7). With under about 16 kB free, SQLite cannot make
 * the -shm file a WAL database needs to open: Firebrand said the disk was full and quit, and the user could not
 * even read their chats. Where the data folder holds the reserve (./disk-reserve.ts), it is given up for the open;
 * where it does not, the chats open read-only.
 */
import type { Database } from 'better-sqlite3';
import { RESERVE_MIN_BYTES, type DiskReserve } from './disk-reserve';
import { DiskFullAtOpen, openDatabase, type OpenDatabaseOptions } from './open-database';
import { openReadOnlyCopy } from './read-only-copy';

/**
 * Opens `file`; when the disk is too full for that, releases the reserve and tries once more, and without one opens
 * a read-only copy in memory (./read-only-copy.ts).
 */
export function openMakingRoom(file: string, reserve: DiskReserve, options: OpenDatabaseOptions = {}): Database {
  try {
    return noRoomAfterOpen(openDatabase(file, options), file, reserve, options);
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

/**
 * Below this much free space the disk counts as full even where the open worked: the smallest reserve
 * (RESERVE_MIN_BYTES) is the room for a delete's first pages, and less holds hardly an answer.
 */
export const NO_ROOM_BYTES = RESERVE_MIN_BYTES;

/**
 * `db` as opened, or, where the disk is full though the open worked, what a start that could not open gets.
 * A run that stopped with no room to tidy up leaves its -shm and -wal files: the next start needs no new file, so it
 * opened writable on a full disk with nothing to say so, and every change then failed with the disk-full notice
 * (full-disk audit, round 9). Now it is the same start as without those files: the reserve given up for the chats,
 * or, with none, the chats read-only with the banner saying why. Where the copy cannot be read, `db` as it is.
 */
function noRoomAfterOpen(db: Database, file: string, reserve: DiskReserve, options: OpenDatabaseOptions): Database {
  const room = reserve.room();
  if (room === undefined || room >= NO_ROOM_BYTES || reserve.release()) return db;
  let copy: Database;
  try {
    copy = openReadOnlyCopy(file, options);
  } catch {
    return db;
  }
  // Closed after the copy is read: its close may copy the -wal file in, if it finds the room.
  db.close();
  options.log?.('storage: the disk is full and no room was kept back: the chats are open read-only');
  return copy;
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
