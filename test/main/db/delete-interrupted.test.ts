/**
 * Round 8, durability: a chat deleted a batch of turns at a time on a full disk (delete-making-room.ts) lost its
 * newest turns batch by batch; a crash or power cut between two batches left it with its older turns, listed again
 * at the next start, a chat the user thought deleted. The crash is injected here as a failure of the third batch
 * (a TEMP trigger on the turns' delete, as in delete-on-full-disk.test.ts), then the database is opened afresh.
 */
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { DELETE_BATCH_TURNS } from '../../../src/main/db/delete-making-room';
import { DiskReserve, RESERVE_DELAY_MS } from '../../../src/main/db/disk-reserve';
import { openLockedDatabase } from '../../../src/main/db/folder-lock';
import { openDatabase } from '../../../src/main/db/open-database';
import { SearchStore } from '../../../src/main/db/search';
import { tempDir, writeChat } from './helpers';

const cleanups: (() => void)[] = [];
afterEach(() => {
  vi.useRealTimers();
  cleanups.splice(0).forEach((c) => c());
});

/**
 * A full disk with room for a batch, not for the whole chat (a whole delete fails, a batch goes), and a crash in the
 * `crashAt`-th batch: an error that is not "disk full", so nothing after it runs, as when the process dies there.
 */
function fullDiskCrashingIn(db: Database, crashAt: number): void {
  let deleted = 0;
  db.function('needs_room', (turns: number) => {
    if (turns > DELETE_BATCH_TURNS) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    return 0;
  });
  // Turns go newest first, a batch per transaction: the crash comes with the first turn of batch `crashAt`.
  db.function('turn_deleted', () => {
    if (++deleted === (crashAt - 1) * DELETE_BATCH_TURNS + 1) throw new Error('power cut');
    return 0;
  });
  db.exec(`CREATE TEMP TRIGGER whole_delete BEFORE DELETE ON main.conversations BEGIN
             SELECT needs_room((SELECT count(*) FROM turns WHERE conversation_id = old.id)); END;
           CREATE TEMP TRIGGER batch_delete BEFORE DELETE ON main.turns BEGIN SELECT turn_deleted(); END;`);
}

describe('a chat whose batched delete a crash cut short', () => {
  it('is hidden from the list, search and open at once, and gone for good after the next start', () => {
    const { dir, cleanup } = tempDir('firebrand-delete-crash-');
    cleanups.push(cleanup);
    const file = join(dir, 'firebrand.db');
    const db = openDatabase(file);
    const store = new ConversationStore(db, new DiskReserve(dir, { freeBytes: () => 0 }));
    const turns = DELETE_BATCH_TURNS * 4;
    writeChat(store, 'huge', turns);
    writeChat(store, 'kept', 2);
    fullDiskCrashingIn(db, 3);

    expect(() => store.deleteConversation('huge')).toThrow('power cut');
    // Two batches went, the older turns are still in the file: the chat is nowhere to be seen all the same.
    expect(db.prepare("SELECT count(*) FROM turns WHERE conversation_id = 'huge'").pluck().get()).toBe(turns - 2 * DELETE_BATCH_TURNS);
    expect(store.listConversations().map((c) => c.id)).toEqual(['kept']);
    expect(store.getConversation('huge')).toBeUndefined();
    expect(new SearchStore(db).search('huge')).toEqual([]);
    db.close();

    const opened = openLockedDatabase(dir);
    cleanups.unshift(() => {
      opened.db.close();
      opened.lock.release();
    });
    const fresh = new ConversationStore(opened.db, opened.reserve);
    expect(fresh.listConversations().map((c) => c.id)).toEqual(['kept']);
    expect(opened.db.prepare("SELECT count(*) FROM turns WHERE conversation_id = 'huge'").pluck().get()).toBe(0);
    expect(opened.db.prepare('SELECT count(*) FROM conversation_deletes').pluck().get()).toBe(0);
    expect(fresh.getConversationRecord('huge')).toBeUndefined();
    expect(fresh.listTurns('kept')).toHaveLength(2);
  });

  it('that ran out of room after its first batch, is hidden, and the rest goes once there is room again, while Firebrand runs', async () => {
    const { dir, cleanup } = tempDir('firebrand-delete-crash-');
    cleanups.push(cleanup);
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval'] });
    const { db, lock, reserve } = openLockedDatabase(dir);
    cleanups.unshift(() => {
      db.close();
      lock.release();
    });
    const store = new ConversationStore(db, reserve);
    const turns = DELETE_BATCH_TURNS * 3;
    writeChat(store, 'huge', turns);
    writeChat(store, 'kept', 2);
    // A full disk with room for one batch, then none (the reserve not written yet: it comes 10 s after a start).
    let batches = 0;
    db.function('needs_room', (n: number) => {
      if (n > DELETE_BATCH_TURNS || (n === 1 && ++batches > DELETE_BATCH_TURNS)) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      return 0;
    });
    db.exec(`CREATE TEMP TRIGGER whole_delete BEFORE DELETE ON main.conversations BEGIN
               SELECT needs_room((SELECT count(*) FROM turns WHERE conversation_id = old.id)); END;
             CREATE TEMP TRIGGER batch_delete BEFORE DELETE ON main.turns BEGIN SELECT needs_room(1); END;`);

    expect(store.deleteConversation('huge')).toBe(true);
    expect(store.listConversations().map((c) => c.id)).toEqual(['kept']);
    expect(db.prepare("SELECT count(*) FROM turns WHERE conversation_id = 'huge'").pluck().get()).toBe(turns - DELETE_BATCH_TURNS);

    // Room again (the user cleaned up elsewhere): the next look for the reserve finishes the delete.
    db.exec('DROP TRIGGER temp.whole_delete; DROP TRIGGER temp.batch_delete');
    vi.advanceTimersByTime(RESERVE_DELAY_MS);
    // The reserve is written on libuv's pool first (disk-reserve.ts): waited for by turns of the loop (fake timers).
    const left = () => db.prepare("SELECT count(*) FROM turns WHERE conversation_id = 'huge'").pluck().get();
    while (left() !== 0) await new Promise((resolve) => setImmediate(resolve));
    expect(db.prepare('SELECT count(*) FROM conversation_deletes').pluck().get()).toBe(0);
    expect(store.listTurns('kept')).toHaveLength(2);
  });
});
