/**
 * Round 6, durability: after a compaction failed on a nearly full disk, every start tried it again (a VACUUM that
 * rewrites the live rows, failing each time). The failure is remembered with the room it had, and the compaction
 * is tried again only once there is more (src/main/db/compact-at-start.ts).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/main/db/open-database';
import { compactAtStart, COMPACT_FAILED_KEY, lastFailure } from '../../../src/main/db/compact-at-start';
import { SettingsStore } from '../../../src/main/db/settings-store';
import { memoryDb, tempDir } from './helpers';

const MB = 1024 * 1024;
const full = () => Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });

describe('a compaction that failed for want of room', () => {
  it('is not tried again at the next starts until the disk has more room, then is, and the note goes once it worked', () => {
    const db = memoryDb();
    let free = 40 * MB;
    let tries = 0;
    let fails = true;
    const logs: string[] = [];
    const deps = {
      log: (m: string) => logs.push(m),
      freeBytes: () => free,
      now: () => 1000,
      compact: () => {
        tries++;
        if (fails) throw full();
        return 30 * MB;
      },
    };
    compactAtStart(db, '/data/firebrand.db', deps);
    expect(tries).toBe(1);
    expect(lastFailure(db)).toMatchObject({ freeBytes: 40 * MB, at: 1000 });
    expect(logs.at(-1)).toBe('storage: could not compact the database (it stays as it was): database or disk is full');

    // Three more starts with the disk as it was, or a few MB freed: not tried.
    for (const room of [40, 35, 50]) {
      free = room * MB;
      compactAtStart(db, '/data/firebrand.db', deps);
    }
    expect(tries).toBe(1);
    expect(logs.at(-1)).toBe('storage: not compacting the database: it failed with 40 MB free on the disk, and there is 50 MB now; it is tried again once there is more room');
    // The note is not a setting the page sees.
    expect(Object.keys(new SettingsStore(db).get())).not.toContain(COMPACT_FAILED_KEY);

    // The user made room: tried again, and it works; the note goes, and the next start decides afresh.
    free = 200 * MB;
    fails = false;
    compactAtStart(db, '/data/firebrand.db', deps);
    expect(tries).toBe(2);
    expect(logs.at(-1)).toBe('storage: gave back 30 MB that deleted chats had used');
    expect(lastFailure(db)).toBeUndefined();
    free = 10 * MB;
    compactAtStart(db, '/data/firebrand.db', deps);
    expect(tries).toBe(3);
  });

  // Seen on a 42 MB tmpfs: the failed VACUUM left the -wal file holding all the room there was (0 MB free) for
  // the whole session: the database's writes went into that room, but writing any other file (an attachment's
  // blob, a model download, another program) failed with ENOSPC until Firebrand was started again.
  it('gives back the room the failed try took in the -wal file', () => {
    const { dir, cleanup } = tempDir('firebrand-compact-');
    const db = openDatabase(join(dir, 'firebrand.db'));
    try {
      const wal = () => statSync(join(dir, 'firebrand.db-wal')).size;
      compactAtStart(db, join(dir, 'firebrand.db'), {
        freeBytes: () => 40 * MB,
        // As a VACUUM that runs out of room: pages of a large transaction spill into the -wal file, then it fails.
        compact: (d) => {
          d.pragma('cache_size = 16');
          d.transaction(() => {
            const put = d.prepare('INSERT INTO settings (key, value) VALUES (?, ?)');
            for (let i = 0; i < 400; i++) put.run(`filler-${i}`, 'x'.repeat(20_000));
            expect(wal()).toBeGreaterThan(4 * MB);
            throw full();
          })();
          return 0;
        },
      });
      expect(wal()).toBeLessThan(MB);
      expect(lastFailure(db)).toMatchObject({ freeBytes: 40 * MB });
    } finally {
      db.close();
      cleanup();
    }
  });

  it('another failure (not for want of room) is tried again at the next start, as before', () => {
    const db = memoryDb();
    let tries = 0;
    const deps = {
      freeBytes: () => 40 * MB,
      compact: () => {
        tries++;
        throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
      },
    };
    compactAtStart(db, '/data/firebrand.db', deps);
    compactAtStart(db, '/data/firebrand.db', deps);
    expect(tries).toBe(2);
    expect(lastFailure(db)).toBeUndefined();
  });
});
