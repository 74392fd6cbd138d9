/**
 * Room a model download leaves free on its disk (round 11). A download used to stop only when write() said ENOSPC:
 * it could take the disk to its last byte, and the chats (SQLite, its -wal file, attachments' blobs: the data folder
 * is usually on the same disk as the models folder) then could not be saved. A download now refuses to start where
 * the size its source states would not leave the margin free, and stops where the room left reaches the margin
 * (another program took room meanwhile, or the source stated no size). The part file is kept, to resume.
 */
import { stat, statfs } from 'node:fs/promises';
import { UserFacingError } from '../../errors';
import { resumeWords } from '../../../shared/resume-words';

/** The room on a disk, as statfs gives it for this user. */
export interface DiskSpace {
  /** Bytes this user may still write. */
  free: number;
  /** The disk's whole size. */
  size: number;
}

/** Reads the room on the disk that holds `dir` (tests pass a fake one, or a real small disk's). */
export type DiskSpaceProbe = (dir: string) => Promise<DiskSpace>;

/** The margin on a disk of `diskSize` bytes. */
export type MarginRule = (diskSize: number) => number;

/**
 * 256 MiB holds years of chats (a long chat is a few MB) and the attachments of many, beside the database's own
 * reserve (8 MB, ../../db/disk-reserve.ts). On a large disk 1 % is kept instead: file systems slow down and
 * fragment as they near full, and other programs there need room too; it stays small beside a model (4-70 GB).
 */
export const CHATS_MARGIN_MIN_BYTES = 256 * 1024 ** 2;
export const CHATS_MARGIN_SHARE = 0.01;

export const chatsMarginFor: MarginRule = (diskSize) => Math.max(CHATS_MARGIN_MIN_BYTES, Math.floor(diskSize * CHATS_MARGIN_SHARE));

export async function diskSpaceOf(dir: string): Promise<DiskSpace> {
  const s = await statfs(dir);
  return { free: s.bavail * s.bsize, size: s.blocks * s.bsize };
}

/**
 * Whether the chats (the data folder) are on the disk that holds `dir`: the margin is kept either way (a disk filled
 * to its last byte troubles every program on it), but only then is it said to be for the chats.
 */
export type ChatsOnDisk = (dir: string) => Promise<boolean>;

/** The data folder `dataDir` is on the disk of `dir` (the same device); true where either cannot be read. */
export const chatsOnDiskOf =
  (dataDir: string): ChatsOnDisk =>
  async (dir) => {
    const [a, b] = await Promise.all([stat(dir).catch(() => null), stat(dataDir).catch(() => null)]);
    return !a || !b || a.dev === b.dev;
  };

/** Why the margin is kept, as a message says it. */
export const marginReason = (chatsHere: boolean): string => (chatsHere ? 'so your chats can still be saved' : 'on that disk so it does not fill up');

/** A download stopped (or not started) to keep the margin free: said with what it needs and what is free. */
export class OutOfMarginError extends UserFacingError {}

/** Throws where a download that still needs `needed` bytes would leave less than the margin free. */
export async function checkRoomBeforeStart(file: string, dir: string, needed: number, probe: DiskSpaceProbe, marginFor: MarginRule, why: string): Promise<void> {
  const { free, size } = await probe(dir);
  const margin = marginFor(size);
  if (free - margin >= needed) return;
  throw new OutOfMarginError(
    'server-error',
    `Not enough free disk space for ${file}: it needs ${bytesUp(needed)} more, plus ${bytesUp(margin)} kept free ${why}, and ${bytesDown(free)} is free in ${dir}.`,
  );
}

/**
 * Lets a download's writes through while the disk keeps its margin. It looks at the disk again before the room it
 * last saw is used up, and at least every sixteenth of the margin written: another program's writes between two
 * looks can then take at most that much of the margin before the download sees them.
 */
export class MarginGuard {
  /** Bytes that may be written before the next look. */
  private room = 0;

  constructor(
    private readonly file: string,
    private readonly dir: string,
    private readonly probe: DiskSpaceProbe,
    private readonly marginFor: MarginRule,
    /** Why the margin is kept (marginReason). */
    private readonly why: string,
  ) {}

  /**
   * Resolves when `n` more bytes leave the margin free; throws OutOfMarginError where they would not. `unflushed`:
   * bytes given to the file but not on the disk yet, which a look at the disk does not see. `arrived`: the bytes of
   * the file written so far (kept for Resume).
   */
  async take(n: number, remaining: number | null, unflushed: number, arrived: number): Promise<void> {
    if (n <= this.room) {
      this.room -= n;
      return;
    }
    const { free, size } = await this.probe(this.dir);
    const margin = this.marginFor(size);
    const budget = free - unflushed - margin;
    if (n > budget) {
      this.room = 0;
      const needs = remaining === null ? 'it needs more (its source gave no size)' : `it needs ${bytesUp(remaining)} more`;
      throw new OutOfMarginError(
        'server-error',
        `The download of ${this.file} stopped to keep ${bytesUp(margin)} free ${this.why}: ${needs}, and ${bytesDown(free)} is free in ${this.dir}. ${resumeWords(arrived, 'free some space')}`,
      );
    }
    this.room = Math.min(budget, Math.max(n, Math.floor(margin / 16))) - n;
  }
}

/** A size said rounded up (what is needed is never understated), to a tenth: "2.5 MiB", "256 MiB", "4.1 GiB". */
export const bytesUp = (bytes: number): string => sizeIn(bytes, Math.ceil);

/** A size said rounded down (what is free is never overstated). */
export const bytesDown = (bytes: number): string => sizeIn(Math.max(0, bytes), Math.floor);

function sizeIn(bytes: number, round: (x: number) => number): string {
  const [unit, name] = bytes >= 1024 ** 3 ? [1024 ** 3, 'GiB'] : [1024 ** 2, 'MiB'];
  return `${round((bytes / unit) * 10) / 10} ${name}`;
}
