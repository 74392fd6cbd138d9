/**
 * A WAL database's last state, read from its two files without SQLite (round 8). The read-only start on a full disk
 * (./read-only-copy.ts) opens a copy of firebrand.db in memory, because SQLite cannot open a WAL database, read-only
 * or not, without making its -shm file, and a full disk has no room for it. What the last run wrote after the last
 * checkpoint is only in firebrand.db-wal: after a crash (or a kill) that was the user's latest messages, and the
 * read-only start showed the chats without them.
 *
 * Tried first: `file:…/firebrand.db?immutable=1` (no -shm file needed) fails with SQLITE_CANTOPEN in
 * better-sqlite3 as built here (the name is taken as a path: URI file names are not enabled), and a connection opened
 * with `readonly: true` still makes the -shm file (checked). So the frames are applied here, as SQLite's own
 * recovery does (https://www.sqlite.org/fileformat2.html#walformat): frames whose salts match the header and whose
 * running checksum holds, up to the last commit frame among them; a torn or older tail is left out.
 */

const WAL_HEADER_BYTES = 32;
const FRAME_HEADER_BYTES = 24;
const MAGIC_LITTLE_ENDIAN = 0x377f0682;
const MAGIC_BIG_ENDIAN = 0x377f0683;

/** What `replayWal` did: the database's bytes, and how many committed frames it took from the -wal file. */
export interface ReplayedWal {
  bytes: Buffer;
  frames: number;
}

/**
 * `db` (the database file's bytes) with the committed frames of `wal` (its -wal file's bytes) applied. A -wal file
 * that is empty or not a valid one (a header that does not check out) gives `db` back as it was, with 0 frames.
 */
export function replayWal(db: Buffer, wal: Buffer): ReplayedWal {
  if (wal.length < WAL_HEADER_BYTES) return { bytes: db, frames: 0 };
  const magic = wal.readUInt32BE(0);
  if (magic !== MAGIC_LITTLE_ENDIAN && magic !== MAGIC_BIG_ENDIAN) return { bytes: db, frames: 0 };
  const bigEndian = magic === MAGIC_BIG_ENDIAN;
  const pageSize = wal.readUInt32BE(8);
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) return { bytes: db, frames: 0 };
  let sum = checksum(wal, 0, 24, bigEndian, [0, 0]);
  if (sum[0] !== wal.readUInt32BE(24) || sum[1] !== wal.readUInt32BE(28)) return { bytes: db, frames: 0 };
  const salt1 = wal.readUInt32BE(16);
  const salt2 = wal.readUInt32BE(20);

  const pending = new Map<number, number>(); // page number → offset of its latest frame's data, since the last commit
  const committed = new Map<number, number>();
  let pages = 0; // the database's size in pages after the last commit
  let frames = 0;
  let framesSinceCommit = 0;
  for (let at = WAL_HEADER_BYTES; at + FRAME_HEADER_BYTES + pageSize <= wal.length; at += FRAME_HEADER_BYTES + pageSize) {
    if (wal.readUInt32BE(at + 8) !== salt1 || wal.readUInt32BE(at + 12) !== salt2) break;
    sum = checksum(wal, at, 8, bigEndian, sum);
    sum = checksum(wal, at + FRAME_HEADER_BYTES, pageSize, bigEndian, sum);
    if (sum[0] !== wal.readUInt32BE(at + 16) || sum[1] !== wal.readUInt32BE(at + 20)) break;
    const page = wal.readUInt32BE(at);
    if (page === 0) break;
    pending.set(page, at + FRAME_HEADER_BYTES);
    framesSinceCommit++;
    const sizeAfterCommit = wal.readUInt32BE(at + 4);
    if (sizeAfterCommit > 0) {
      for (const [p, offset] of pending) committed.set(p, offset);
      frames += framesSinceCommit;
      framesSinceCommit = 0;
      pending.clear();
      pages = sizeAfterCommit;
    }
  }
  if (committed.size === 0) return { bytes: db, frames: 0 };

  const bytes = Buffer.alloc(pages * pageSize);
  db.copy(bytes, 0, 0, Math.min(db.length, bytes.length));
  for (const [page, offset] of committed) {
    if (page <= pages) wal.copy(bytes, (page - 1) * pageSize, offset, offset + pageSize);
  }
  return { bytes, frames };
}

/** SQLite's WAL checksum of `length` bytes at `start` (a multiple of 8), continuing from `seed`. */
function checksum(buf: Buffer, start: number, length: number, bigEndian: boolean, seed: [number, number]): [number, number] {
  let [s0, s1] = seed;
  for (let i = start; i < start + length; i += 8) {
    const x0 = bigEndian ? buf.readUInt32BE(i) : buf.readUInt32LE(i);
    const x1 = bigEndian ? buf.readUInt32BE(i + 4) : buf.readUInt32LE(i + 4);
    s0 = (s0 + x0 + s1) >>> 0;
    s1 = (s1 + x1 + s0) >>> 0;
  }
  return [s0, s1];
}
