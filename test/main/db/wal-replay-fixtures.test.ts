/**
 * Round 9: wal-replay.ts (the read-only start's reading of firebrand.db-wal, round 8) had a branch for a -wal
 * written on a big-endian machine (magic 0x377f0683, checksums over big-endian words) that no test had fed: a data
 * folder carried over from such a machine. The fixtures in test/fixtures/wal (NOTE.md there): a real -wal from
 * SQLite on this little-endian machine, and the same rewritten as a big-endian one by make-wal-fixtures.ts. Each is
 * proved valid by real SQLite first, then wal-replay must read the same rows from it.
 */
import BetterSqlite3 from 'better-sqlite3';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { replayWal } from '../../../src/main/db/wal-replay';
import { tempDir } from './helpers';

const FIXTURES = join(import.meta.dirname, '../../fixtures/wal');
const DB = readFileSync(join(FIXTURES, 'notes.db'));

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

type Row = { id: number; text: string };
const rowsOf = (db: BetterSqlite3.Database): Row[] => db.prepare('SELECT id, text FROM notes ORDER BY id').all() as Row[];

/** The rows as a crash left them: two checkpointed rows changed and one deleted in the -wal, two added there. */
const LATEST: Row[] = [
  { id: 2, text: 'quokkas smile widely' },
  { id: 3, text: 'echidnas lay eggs' },
  { id: 4, text: 'platypuses glow' },
  { id: 5, text: `a long note: ${'bilby '.repeat(1200)}` },
];
/** notes.db alone. */
const CHECKPOINTED: Row[] = [
  { id: 1, text: 'wombats dig' },
  { id: 2, text: 'quokkas smile' },
  { id: 3, text: 'echidnas lay eggs' },
];

/** What real SQLite reads from notes.db with `wal` beside it (copies: SQLite's recovery may change them). */
function rowsBySqlite(wal: Buffer): Row[] {
  const { dir, cleanup } = tempDir('firebrand-wal-fixture-');
  cleanups.push(cleanup);
  copyFileSync(join(FIXTURES, 'notes.db'), join(dir, 'notes.db'));
  writeFileSync(join(dir, 'notes.db-wal'), wal);
  const db = new BetterSqlite3(join(dir, 'notes.db'));
  try {
    return rowsOf(db);
  } finally {
    db.close();
  }
}

/** What wal-replay makes of notes.db and `wal`, opened in memory as the read-only start opens it. */
function rowsByReplay(wal: Buffer): { rows: Row[]; frames: number } {
  const { bytes, frames } = replayWal(Buffer.from(DB), wal);
  bytes[18] = bytes[19] = 1;
  const db = new BetterSqlite3(bytes);
  try {
    return { rows: rowsOf(db), frames };
  } finally {
    db.close();
  }
}

describe('replaying a -wal file from either byte order', () => {
  it.each([
    ['little-endian (as SQLite wrote it here)', 'notes.db-wal', 0x377f0682],
    ['big-endian (as SQLite writes it on a big-endian machine)', 'notes-big-endian.db-wal', 0x377f0683],
  ])('%s: real SQLite reads the latest rows from it, and wal-replay reads the same', (_, name, magic) => {
    const wal = readFileSync(join(FIXTURES, name));
    expect(wal.readUInt32BE(0)).toBe(magic);
    expect(rowsBySqlite(wal)).toEqual(LATEST);
    expect(rowsByReplay(wal)).toEqual({ rows: LATEST, frames: 4 });
  });

  it('a big-endian magic over little-endian checksums is no valid -wal, to SQLite or to wal-replay: the checkpointed rows only', () => {
    // The control that makes the fixture's check mean something: SQLite does verify the checksums in the magic's order.
    const wal = Buffer.from(readFileSync(join(FIXTURES, 'notes.db-wal')));
    wal.writeUInt32BE(0x377f0683, 0);
    expect(rowsBySqlite(wal)).toEqual(CHECKPOINTED);
    expect(rowsByReplay(wal)).toEqual({ rows: CHECKPOINTED, frames: 0 });
  });
});
