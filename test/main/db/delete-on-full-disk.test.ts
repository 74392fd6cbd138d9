/**
 * Round 7, durability: deleting chats to make room failed on a full disk ("The disk is full, so this was not
 * saved"): a delete writes the pages it changes to the -wal file first, and there was no room for them, so a user
 * with a full disk could not free space from inside Firebrand. (Seen on a 16 MB tmpfs filled to 0 bytes: every
 * delete failed with SQLITE_FULL, the -wal file at 0 bytes.)
 *
 * SQLite's max_page_count cannot model this (a delete adds no pages to the database; the room it needs is in the
 * -wal file), so the disk here is a TEMP trigger on the delete that asks a function for room: the function throws
 * SQLite's own SQLITE_FULL while the disk has none, and the room grows by what the reserve file held once it is
 * deleted. A transaction needs room for the turns it deletes; what one used is free again after it.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { DELETE_BATCH_TURNS } from '../../../src/main/db/delete-making-room';
import { DiskReserve, RESERVE_FILE } from '../../../src/main/db/disk-reserve';
import { openDatabase } from '../../../src/main/db/open-database';
import { SearchStore } from '../../../src/main/db/search';
import { tempDir, writeChat } from './helpers';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const RESERVE = 64 * 1024;

// The word starts with letters no other term does: FTS5 stores a term after the prefix it shares with the one before.
const indexHolds = (db: Database, word: string) =>
  (db.prepare('SELECT block FROM turns_fts_data').all() as { block: Buffer }[]).some((r) => r.block.includes(Buffer.from(word)));

/** A disk with `room` turns' worth of room per transaction (0: full), which the reserve's deletion adds to. */
function fullDisk(db: Database, dir: string, turnsPerReserve: number) {
  const disk = { room: 0, free: 0 };
  db.function('needs_room', (turns: number) => {
    if (turns > disk.room) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    return 0;
  });
  // A whole delete asks for room for all its turns at once; a batch for its own.
  db.exec(`CREATE TEMP TRIGGER whole_delete BEFORE DELETE ON main.conversations BEGIN
             SELECT needs_room((SELECT count(*) FROM turns WHERE conversation_id = old.id)); END;
           CREATE TEMP TRIGGER batch_delete BEFORE DELETE ON main.turns BEGIN SELECT needs_room(1); END;`);
  let held = true;
  const reserve = new DiskReserve(dir, { bytes: RESERVE, headroomBytes: 0, freeBytes: () => disk.free });
  const release = reserve.release.bind(reserve);
  reserve.release = () => {
    const released = release();
    if (released && held) disk.room += turnsPerReserve;
    held = false;
    return released;
  };
  // A delete's tidy-up writes the reserve again in the background (tidyAfterDelete): waited for before the folder is
  // removed, which failed with ENOTEMPTY where its file was being written then. A look asked for runs after it.
  cleanups.unshift(() => reserve.restore());
  return { disk, reserve };
}

describe('deleting chats on a full disk', () => {
  it('uses the room kept back, so the chat goes, and the user can go on chatting; the reserve comes back once there is room', async () => {
    const { dir, cleanup } = tempDir('firebrand-full-delete-');
    cleanups.push(cleanup);
    const db = openDatabase(join(dir, 'firebrand.db'));
    cleanups.unshift(() => db.close());
    const { disk, reserve } = fullDisk(db, dir, 100);
    disk.free = RESERVE; // Room for the reserve at start, then the disk fills.
    expect(await reserve.restore()).toBe(true);
    disk.free = 0;
    const store = new ConversationStore(db, reserve);
    writeChat(store, 'big', 40);
    writeChat(store, 'kept', 4);

    expect(store.deleteConversation('big')).toBe(true);
    expect(store.getConversation('big')).toBeUndefined();
    expect(db.prepare("SELECT count(*) FROM turns WHERE conversation_id = 'big'").pluck().get()).toBe(0);
    expect(existsSync(join(dir, RESERVE_FILE))).toBe(false);
    expect(new SearchStore(db).search('kept')).toHaveLength(4);
    // Going on chatting: the chat kept takes a new turn.
    store.appendTurn({ id: 'kept-new', conversationId: 'kept', parentId: 'kept-3', role: 'user', blocks: [{ type: 'text', text: 'and now?' }], meta: {}, status: 'done', createdAt: 9 }, 9);
    expect(store.getTurn('kept-new')?.parentId).toBe('kept-3');

    // Written again once there is plenty of room (the user cleaned up elsewhere): ready for the next time.
    disk.free = 10 * RESERVE;
    expect(await reserve.restore()).toBe(true);
    expect(statSync(join(dir, RESERVE_FILE)).size).toBe(RESERVE);
  });

  it('a chat larger than the room kept back goes a batch of turns at a time', async () => {
    const { dir, cleanup } = tempDir('firebrand-full-delete-');
    cleanups.push(cleanup);
    const db = openDatabase(join(dir, 'firebrand.db'));
    cleanups.unshift(() => db.close());
    const { disk, reserve } = fullDisk(db, dir, DELETE_BATCH_TURNS);
    disk.free = RESERVE;
    await reserve.restore();
    const store = new ConversationStore(db, reserve);
    const turns = DELETE_BATCH_TURNS * 3 + 5;
    writeChat(store, 'huge', turns);
    writeChat(store, 'kept', 2);
    // Room for a batch, not for the whole chat at once.
    expect(store.deleteConversation('huge')).toBe(true);
    expect(store.getConversation('huge')).toBeUndefined();
    expect(db.prepare("SELECT count(*) FROM turns WHERE conversation_id = 'huge'").pluck().get()).toBe(0);
    expect(new SearchStore(db).search('huge')).toEqual([]);
    expect(store.getConversation('kept')).toBeDefined();
  });

  it('merges the deleted words out of the search index only once the freed pages leave plenty of room', async () => {
    for (const roomAfter of [false, true]) {
      const { dir, cleanup } = tempDir('firebrand-full-delete-');
      cleanups.push(cleanup);
      const db = openDatabase(join(dir, 'firebrand.db'));
      cleanups.unshift(() => db.close());
      const { disk, reserve } = fullDisk(db, dir, 100);
      disk.free = RESERVE;
      await reserve.restore();
      disk.free = roomAfter ? 10 * RESERVE : 0;
      const store = new ConversationStore(db, reserve);
      store.createConversation('secret', 'Secret', 'm', 1);
      store.appendTurn({ id: 's1', conversationId: 'secret', parentId: null, role: 'user', blocks: [{ type: 'text', text: 'zzqsecretword and more' }], meta: {}, status: 'done', createdAt: 1 }, 1);
      writeChat(store, 'kept', 4);
      expect(store.deleteConversation('secret')).toBe(true);
      if (roomAfter) {
        await expect.poll(() => indexHolds(db, 'zzqsecretword')).toBe(false);
        expect(reserve.held).toBe(true);
      } else {
        for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
        expect(indexHolds(db, 'zzqsecretword')).toBe(true);
      }
      expect(new SearchStore(db).search('zzqsecretword')).toEqual([]);
    }
  });

  it('with no reserve and no room, the delete still says the disk is full (nothing is lost)', () => {
    const { dir, cleanup } = tempDir('firebrand-full-delete-');
    cleanups.push(cleanup);
    const db = openDatabase(join(dir, 'firebrand.db'));
    cleanups.unshift(() => db.close());
    const { reserve } = fullDisk(db, dir, 100);
    const store = new ConversationStore(db, reserve);
    writeChat(store, 'big', 10);
    expect(() => store.deleteConversation('big')).toThrow(expect.objectContaining({ code: 'SQLITE_FULL' }) as Error);
    expect(db.prepare("SELECT count(*) FROM turns WHERE conversation_id = 'big'").pluck().get()).toBe(10);
  });
});
