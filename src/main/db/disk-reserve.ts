/**
 * Room kept back on the data folder's disk for the writes that free room (durability audit, round 7). SQLite needs
 * room to delete: a delete writes the pages it changes to the -wal file first. On a full disk (0 bytes free) the
 * user's delete of a chat failed with "The disk is full, so this was not saved", so nothing inside Firebrand could
 * give room back, and a start on such a disk could not even make the 32 kB -shm file the database needs to open.
 *
 * A file of RESERVE_BYTES beside the database (firebrand.db-reserve) is written while there is room. When a write
 * that frees room fails for want of it, the file is deleted and the write tried again; once there is plenty of room
 * again (the chats deleted given back, or the user's own cleaning) it is written anew.
 *
 * Its size follows the room (round 8): it was written only with RESERVE_BYTES + RESERVE_HEADROOM_BYTES (72 MB) free,
 * so the users closest to a full disk, who need it most, never had one. Now it takes the same share of the room at
 * any size (`reserveSizeFor`: a ninth of what is free, up to RESERVE_BYTES), so it never takes the last
 * of the room, and grows back towards RESERVE_BYTES as room comes back.
 */
import { existsSync, rmSync, statSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { randomFill } from 'node:crypto';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { whenNoAnswerStreams } from './background-slices';
import { freeBytesIn } from './free-space';

/** Beside the database, named as its other companions are (-wal, -shm, -lock). */
export const RESERVE_FILE = 'firebrand.db-reserve';
/** Enough for the -shm file, and for deleting chats a batch at a time (./delete-making-room.ts). */
export const RESERVE_BYTES = 8 * 1024 * 1024;
/**
 * The full reserve is written only with this much free besides it: the room a user has just made by deleting chats
 * is for chatting, and is not taken back at once for the next time. With less, the reserve keeps the same share.
 */
export const RESERVE_HEADROOM_BYTES = 64 * 1024 * 1024;
/**
 * The smallest reserve worth keeping: the 32 kB -shm file a start on a full disk needs, and room for a delete's first
 * pages. Below it (under about 0.6 MB free) there is none.
 */
export const RESERVE_MIN_BYTES = 64 * 1024;
/** A reserve grows where the room allows one at least this many times its size (or the full size): not every look. */
export const RESERVE_GROWTH = 2;

/**
 * The reserve's size where `room` bytes are free besides it: RESERVE_BYTES where there is room for it and the
 * headroom, else the same share of the room (bytes / (bytes + headroom): 1/9 by default), in whole 4 kB pages, and
 * none below RESERVE_MIN_BYTES (or `bytes`, if smaller).
 */
export function reserveSizeFor(room: number, bytes = RESERVE_BYTES, headroom = RESERVE_HEADROOM_BYTES): number {
  if (room >= bytes + headroom) return bytes;
  const share = Math.floor((room * bytes) / (bytes + headroom) / 4096) * 4096;
  return share >= Math.min(RESERVE_MIN_BYTES, bytes) ? Math.min(share, bytes) : 0;
}

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

  /** Whether a reserve is on disk (of the size the room allowed when it was written). */
  get held(): boolean {
    return this.size > 0;
  }

  /** The reserve's size on disk, 0 without one. */
  private get size(): number {
    try {
      return statSync(this.file).size;
    } catch {
      return 0;
    }
  }

  /** Free bytes on the data folder's disk now (the reserve not counted), or undefined where that cannot be read. */
  room(): number | undefined {
    return this.freeBytes(this.dir);
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
   * Writes the reserve where it is missing, or a larger one where it is smaller than the room now allows
   * (reserveSizeFor, by RESERVE_GROWTH at least); resolves true when one is held after. Never rejects: a disk that
   * fills meanwhile leaves no partial file (it is written aside, then renamed over the smaller one).
   *
   * Asynchronous, a slice at a time: written in one go (random bytes made and written on main's thread), 8 MB held
   * main's event loop for 80–330 ms on a busy 2-core machine, a stall of the page's requests (a delete's tidy-up, or
   * the look after a start, could come just as the user opened a chat or sent). The bytes are made and written on
   * libuv's pool; main's thread only hands them over. One look at a time: a second call runs after the first.
   */
  restore(): Promise<boolean> {
    const look = this.looks.then(() => this.write());
    this.looks = look;
    return look;
  }

  /** The looks asked for, one after the other (the last one's answer holds for the disk as it is after it). */
  private looks: Promise<unknown> = Promise.resolve();

  private async write(): Promise<boolean> {
    const held = this.size;
    if (held >= this.bytes) return true;
    const free = this.freeBytes(this.dir);
    if (free === undefined) return held > 0;
    const size = reserveSizeFor(free + held, this.bytes, this.headroom);
    if (size <= held || (held > 0 && size < this.bytes && size < held * RESERVE_GROWTH)) return held > 0;
    const partial = `${this.file}.partial`;
    try {
      const file = await open(partial, 'w', 0o600);
      try {
        // Random bytes, not zeros: a compressing or deduplicating file system (btrfs, ZFS) would store zeros in
        // next to no room, and give next to none back when the file is deleted.
        const slice = Buffer.alloc(Math.min(RESERVE_SLICE_BYTES, size));
        for (let written = 0; written < size; ) {
          const chunk = slice.subarray(0, Math.min(slice.length, size - written));
          await fillRandom(chunk);
          written += (await file.write(chunk)).bytesWritten;
        }
      } finally {
        await file.close();
      }
      await rename(partial, this.file);
      return true;
    } catch {
      await rm(partial, { force: true }).catch(() => undefined);
      return held > 0;
    }
  }
}

/** The reserve is made and written this much at a time. */
const RESERVE_SLICE_BYTES = 256 * 1024;
function fillRandom(buffer: Buffer): Promise<void> {
  return new Promise((resolve, reject) => randomFill(buffer, (err) => (err ? reject(err) : resolve())));
}

/**
 * Writes the reserve where it is missing, RESERVE_DELAY_MS after the open (not on the way to the first window) and
 * every RESERVE_CHECK_MS after, never while an answer streams, until the database closes, then runs `withRoom`
 * where it is held. (A look at a reserve on disk is one stat.)
 */
export function keepReserve(db: Database, reserve: DiskReserve, withRoom?: () => void): void {
  const look = () =>
    whenNoAnswerStreams(db, () => {
      // `withRoom`: the work that waits for room (a delete that ran out of it, ./delete-intent.ts).
      if (!db.open) return;
      void reserve.restore().then((held) => {
        if (held && db.open) withRoom?.();
      });
    });
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
