/**
 * Round 7, durability: with under 16 kB free, the database could not be opened at all (SQLite cannot make its
 * 32 kB -shm file; seen on a tmpfs filled to 0 bytes: "The disk that holds Firebrand’s data folder … is full, so
 * Firebrand cannot open its conversations (disk I/O error)"), and the user could not read their chats. With the
 * reserve file kept back in the data folder, it is given up and the database opens.
 *
 * The disk here is a migration that fails with SQLite's SQLITE_FULL as long as the reserve file takes the room.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { DiskReserve } from '../../../src/main/db/disk-reserve';
import { MIGRATIONS } from '../../../src/main/db/migrations';
import { openDatabase } from '../../../src/main/db/open-database';
import { openMakingRoom } from '../../../src/main/db/open-making-room';
import { tempDir } from './helpers';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

describe('opening the database on a full disk', () => {
  it('uses the room kept back, so the chats open; without it, it says the disk is full', () => {
    const { dir, cleanup } = tempDir('firebrand-full-open-');
    cleanups.push(cleanup);
    const file = join(dir, 'firebrand.db');
    const first = openDatabase(file);
    first.prepare("INSERT INTO conversations (id, title, created_at, updated_at) VALUES ('c', 'Wombats', 1, 1)").run();
    first.close();
    const reserve = new DiskReserve(dir, { bytes: 4096, headroomBytes: 0, freeBytes: () => 1 << 20 });
    expect(reserve.restore()).toBe(true);
    const full = {
      version: MIGRATIONS.at(-1)!.version + 1,
      name: 'needs-room',
      up: (db: Database) => {
        if (existsSync(reserve.file)) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
        db.exec('CREATE TABLE later (x TEXT) STRICT');
      },
    };
    const migrations = [...MIGRATIONS, full];

    const db = openMakingRoom(file, reserve, { migrations });
    cleanups.unshift(() => db.close());
    expect(db.prepare("SELECT title FROM conversations WHERE id = 'c'").pluck().get()).toBe('Wombats');
    expect(reserve.held).toBe(false);
  });

  it('with no reserve, it says the disk is full, as before', () => {
    const { dir, cleanup } = tempDir('firebrand-full-open-');
    cleanups.push(cleanup);
    const file = join(dir, 'firebrand.db');
    openDatabase(file).close();
    const full = { version: MIGRATIONS.at(-1)!.version + 1, name: 'full', up: () => { throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }); } };
    expect(() => openMakingRoom(file, new DiskReserve(dir), { migrations: [...MIGRATIONS, full] })).toThrow(/^The disk that holds Firebrand’s data folder .* is full/);
  });
});
