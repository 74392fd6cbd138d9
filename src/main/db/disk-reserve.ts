/**
 * Room kept back on the data folder's disk for the writes that free room (durability audit, round 7). SQLite needs
 * room to delete: a delete writes the pages it changes to the -wal file first. On a full disk (0 bytes free) the
 * user's delete of a chat failed with "The disk is full, so this was not saved", so nothing inside Firebrand could
 * give room back, and a start on such a disk could not even make the 32 kB -shm file the database needs to open.
 *
 * A file of RESERVE_BYTES beside the database (firebrand.db-reserve) is written while there is room. When a write
 * that frees room fails for want of it, the file is deleted and the write tried again; once there is plenty of room
 * again (the chats deleted given back, or the user's own cleaning) it is written anew.
 */
import { closeSync, existsSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { whenNoAnswerStreams } from './background-slices';
import { freeBytesIn } from './free-space';

/** Beside the database, named as its other companions are (-wal, -shm, -lock). */
export const RESERVE_FILE = 'firebrand.db-reserve';
/** Enough for the -shm file, and for deleting chats a batch at a time (./delete-making-room.ts). */
export const RESERVE_BYTES = 8 * 1024 * 1024;
/**
 * The reserve is written again only with this much free besides it: the room a user has just made by deleting
 * chats is for chatting, and is not taken back at once for the next time.
 */
export const RESERVE_HEADROOM_BYTES = 64 * 1024 * 1024;
/** How long after a start the reserve is written where it is missing (the first window and model list come first). */
export const RESERVE_DELAY_MS = 10_000;
/** And how often after that it is looked for: a user may make room outside Firebrand after it was used. */
export const RESERVE_CHECK_MS = 10 * 60_000;

export interface DiskReserveOptions {
  bytes?: number;
  headroomBytes?: number;
  /** Free bytes in a folder (tests pass their own). */
  freeBytes?: (dir: string) => number | undefined;
  log?: (message: string) => void;
}

/** The reserve file of one data folder. */
export class DiskReserve {
  readonly file: string;
  private readonly bytes: number;
  private readonly headroom: number;
  private readonly freeBytes: (dir: string) => number | undefined;

  constructor(
    private readonly dir: string,
    private readonly options: DiskReserveOptions = {},
  ) {
    this.file = join(dir, RESERVE_FILE);
    this.bytes = options.bytes ?? RESERVE_BYTES;
    this.headroom = options.headroomBytes ?? RESERVE_HEADROOM_BYTES;
    this.freeBytes = options.freeBytes ?? freeBytesIn;
  }

  /** Whether the reserve is on disk, whole. */
  get held(): boolean {
    try {
      return statSync(this.file).size >= this.bytes;
    } catch {
      return false;
    }
  }

  /** Deletes the reserve, giving its room to the write that needs it; false when there was none to give. */
  release(): boolean {
    if (!existsSync(this.file)) return false;
    try {
      rmSync(this.file, { force: true });
    } catch {
      return false;
    }
    this.options.log?.('storage: the disk is full: the room Firebrand kept back for this is used now');
    return true;
  }

  /**
   * Writes the reserve where it is missing and there is room for it and the headroom; true when it is held after.
   * Never throws: a disk that fills meanwhile leaves no partial file (it is written aside, then renamed).
   */
  restore(): boolean {
    if (this.held) return true;
    const free = this.freeBytes(this.dir);
    if (free === undefined || free < this.bytes + this.headroom) return false;
    const partial = `${this.file}.partial`;
    try {
      const fd = openSync(partial, 'w', 0o600);
      try {
        // Random bytes, not zeros: a compressing or deduplicating file system (btrfs, ZFS) would store zeros in
        // next to no room, and give next to none back when the file is deleted.
        for (let written = 0; written < this.bytes; ) {
          const chunk = randomBytes(Math.min(1024 * 1024, this.bytes - written));
          written += writeSync(fd, chunk);
        }
      } finally {
        closeSync(fd);
      }
      renameSync(partial, this.file);
      return true;
    } catch {
      rmSync(partial, { force: true });
      return false;
    }
  }
}

/**
 * Writes the reserve where it is missing, RESERVE_DELAY_MS after the open (not on the way to the first window) and
 * every RESERVE_CHECK_MS after, never while an answer streams, until the database closes. (A look at a reserve on
 * disk is one stat.)
 */
export function keepReserve(db: Database, reserve: DiskReserve): void {
  const look = () => whenNoAnswerStreams(db, () => db.open && reserve.restore());
  setTimeout(() => {
    look();
    const every = setInterval(() => (db.open ? look() : clearInterval(every)), RESERVE_CHECK_MS).unref();
  }, RESERVE_DELAY_MS).unref();
}

/** SQLite's "database or disk is full", or the file system's own ENOSPC. */
export function isDiskFull(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_FULL' || code === 'ENOSPC';
}
