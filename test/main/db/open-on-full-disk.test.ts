/**
 * Round 7, durability: with under 16 kB free, the database could not be opened at all (SQLite cannot make its
 * 32 kB -shm file; seen on a tmpfs filled to 0 bytes: "The disk that holds Firebrand’s data folder … is full, so
 * Firebrand cannot open its conversations (disk I/O error)"), and the user could not read their chats. With the
 * reserve file kept back in the data folder, it is given up and the database opens.
 *
 * Without a reserve (a disk that filled before this version wrote one) they open read-only, from a copy in memory:
 * SQLite cannot open a WAL database read-only without its -shm file either (checked on the full tmpfs).
 *
 * The disk here is a migration that fails with SQLite's SQLITE_FULL as long as the reserve file takes the room.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { DiskReserve } from '../../../src/main/db/disk-reserve';
import { MIGRATIONS } from '../../../src/main/db/migrations';
import { openDatabase } from '../../../src/main/db/open-database';
import { openMakingRoom } from '../../../src/main/db/open-making-room';
import { BlobStore } from '../../../src/main/blobs/blob-store';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { readOnlyNote } from '../../../src/main/db/read-only-copy';
import { SearchStore } from '../../../src/main/db/search';
import { SettingsStore } from '../../../src/main/db/settings-store';
import { exportFile } from '../../../src/main/export/export-file';
import { createDispatcher, type InvokeHandlers } from '../../../src/main/ipc/dispatch';
import { tempDir } from './helpers';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

describe('opening the database on a full disk', () => {
  it('uses the room kept back, so the chats open; without it, it says the disk is full', async () => {
    const { dir, cleanup } = tempDir('firebrand-full-open-');
    cleanups.push(cleanup);
    const file = join(dir, 'firebrand.db');
    const first = openDatabase(file);
    first.prepare("INSERT INTO conversations (id, title, created_at, updated_at) VALUES ('c', 'Wombats', 1, 1)").run();
    first.close();
    const reserve = new DiskReserve(dir, { bytes: 4096, headroomBytes: 0, freeBytes: () => 1 << 20 });
    expect(await reserve.restore()).toBe(true);
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

  it('with no reserve, opens the chats read-only: they read, search and export, writes are refused with a clear message, and the page is told why', async () => {
    const { dir, cleanup } = tempDir('firebrand-full-open-');
    cleanups.push(cleanup);
    const file = join(dir, 'firebrand.db');
    const first = openDatabase(file);
    const store = new ConversationStore(first);
    store.createConversation('c', 'Wombats', 'm', 1);
    store.appendTurn({ id: 't', conversationId: 'c', parentId: null, role: 'user', blocks: [{ type: 'text', text: 'How deep do wombats dig?' }], meta: {}, status: 'done', createdAt: 2 }, 2);
    first.close();
    // The disk: too full to open the file (its -shm cannot grow), whatever the migration.
    const full = { version: MIGRATIONS.at(-1)!.version + 1, name: 'needs-room', up: (db: Database) => {
      if (!db.memory) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    } };
    const logs: string[] = [];
    const db = openMakingRoom(file, new DiskReserve(dir), { migrations: [...MIGRATIONS, full], log: (m) => logs.push(m) });
    cleanups.unshift(() => db.close());
    expect(logs).toContain('storage: the disk is full and no room was kept back: the chats are open read-only');

    const readOnly = new ConversationStore(db);
    expect(readOnly.listConversations().map((c) => c.title)).toEqual(['Wombats']);
    expect(new SearchStore(db).search('wombats').map((h) => h.turnId)).toEqual(['t']);
    expect(new SearchStore(db).search('wom').map((h) => h.turnId)).toEqual(['t']);
    expect(exportFile({ db, store: readOnly, blobs: new BlobStore(db, dir) }, 'c', 'markdown').text).toContain('How deep do wombats dig?');
    const settings = new SettingsStore(db);
    expect(settings.get().readOnly).toBe(readOnlyNote(file));
    expect(readOnlyNote(file)).toMatch(/is full, so your chats are open read-only: you can read, search and export them, but nothing new can be saved/);
    // Command-line values are used for the run, unsaved, as on a full disk.
    expect(settings.useForThisRun({ ollamaUrl: 'http://gpu-box:11434' })).toBe(false);

    const dispatcher = createDispatcher({ 'conversations:rename': ({ conversationId, title }: { conversationId: string; title: string }) => ({ renamed: readOnly.renameConversation(conversationId, title) }) } as unknown as InvokeHandlers, () => {});
    expect(await dispatcher.dispatch('conversations:rename', { conversationId: 'c', title: 'Burrows' })).toEqual({
      ok: false,
      error: { code: 'internal', message: 'The disk is full, so your chats are open read-only and this was not saved. Free some space on that disk, then start Firebrand again.' },
    });
    expect(readOnly.getConversation('c')?.title).toBe('Wombats');
    // The file itself is as it was.
    expect(statSync(file).size).toBeGreaterThan(0);
  });

  it('read-only, collects no attachment: a file the copy has no row for may be one the last run left in the -wal file', async () => {
    const { dir, cleanup } = tempDir('firebrand-full-open-');
    cleanups.push(cleanup);
    const file = join(dir, 'firebrand.db');
    const first = openDatabase(file);
    const written = await new BlobStore(first, dir).put(Buffer.from('a wombat photo'), { name: 'w.txt', mime: 'text/plain' }, 1);
    first.prepare('DELETE FROM blobs').run(); // As if its row were only in firebrand.db-wal, which the copy lacks.
    first.close();
    const full = { version: MIGRATIONS.at(-1)!.version + 1, name: 'needs-room', up: (db: Database) => {
      if (!db.memory) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    } };
    const db = openMakingRoom(file, new DiskReserve(dir), { migrations: [...MIGRATIONS, full] });
    cleanups.unshift(() => db.close());
    const blobs = new BlobStore(db, dir);
    expect(await blobs.gc({ now: Date.now() + 86_400_000, graceMs: 0 })).toEqual({ removed: [] });
    expect(existsSync(blobs.pathOf(written.id))).toBe(true);
  });

  it('with no reserve and a file that cannot be read either, it says the disk is full, as before', () => {
    const { dir, cleanup } = tempDir('firebrand-full-open-');
    cleanups.push(cleanup);
    const file = join(dir, 'firebrand.db');
    openDatabase(file).close();
    const full = { version: MIGRATIONS.at(-1)!.version + 1, name: 'full', up: () => { throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }); } };
    expect(() => openMakingRoom(file, new DiskReserve(dir), { migrations: [...MIGRATIONS, full] })).toThrow(/^The disk that holds Firebrand’s data folder .* is full/);
  });
});
