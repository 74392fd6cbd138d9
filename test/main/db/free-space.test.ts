/**
 * Durability audit: deleting chats gave no disk space back (SQLite keeps freed pages in the file), and the -wal
 * file kept the size of the largest transaction until the app closed. See src/main/db/free-space.ts.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { WAL_SIZE_LIMIT } from '../../../src/main/db/free-space';
import { openDatabase } from '../../../src/main/db/open-database';
import { SearchStore } from '../../../src/main/db/search';
import { migrateTo, tempDir } from './helpers';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function folder(): string {
  const { dir, cleanup } = tempDir('firebrand-space-');
  cleanups.push(cleanup);
  return dir;
}

const MB = 1024 * 1024;
const sizeOf = (dir: string) => statSync(join(dir, 'firebrand.db')).size;

/** A chat of `turns` long turns (about 10 KB of text each), written as the app writes them. */
function writeChat(db: Database, id: string, turns: number, word = 'lorem'): void {
  const store = new ConversationStore(db);
  store.createConversation(id, `Chat ${id}`, 'm', 1);
  let parent: string | null = null;
  for (let t = 0; t < turns; t++) {
    const turnId = `${id}-${t}`;
    const text = `${word} ipsum dolor sit amet ${t} `.repeat(350);
    store.appendTurn({ id: turnId, conversationId: id, parentId: parent, role: t % 2 ? 'assistant' : 'user', blocks: [{ type: 'text', text }], meta: {}, status: 'done', createdAt: t }, t);
    parent = turnId;
  }
}

describe('giving deleted chats’ space back', () => {
  it('a deleted chat’s pages go back to the disk, and the other chats stay whole', async () => {
    const dir = folder();
    let db = openDatabase(join(dir, 'firebrand.db'));
    writeChat(db, 'big', 600);
    writeChat(db, 'kept', 4, 'wombat');
    db.close();
    const before = sizeOf(dir);
    expect(before).toBeGreaterThan(20 * MB);

    db = openDatabase(join(dir, 'firebrand.db'));
    expect(new ConversationStore(db).deleteConversation('big')).toBe(true);
    // Handed back in chunks, between other work (a long answer may be streaming meanwhile).
    const open = db;
    await expect.poll(() => open.pragma('freelist_count', { simple: true })).toBe(0);
    db.close();
    expect(sizeOf(dir)).toBeLessThan(before / 2);

    db = openDatabase(join(dir, 'firebrand.db'));
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(new ConversationStore(db).listTurns('kept')).toHaveLength(4);
      expect(new SearchStore(db).search('wombat').map((h) => h.conversationId)).toContain('kept');
    } finally {
      db.close();
    }
  });

  it('a database from before, mostly free pages, is compacted once at startup; one with little free is left as it is', () => {
    const dir = folder();
    // As earlier versions made it: no auto-vacuum.
    let raw = new BetterSqlite3(join(dir, 'firebrand.db'));
    raw.pragma('journal_mode = WAL');
    raw.pragma('foreign_keys = ON');
    migrateTo(raw, 13);
    writeChat(raw, 'big', 600);
    writeChat(raw, 'kept', 4, 'wombat');
    raw.prepare("DELETE FROM conversations WHERE id = 'big'").run();
    raw.close();
    const before = sizeOf(dir);

    const logs: string[] = [];
    let db = openDatabase(join(dir, 'firebrand.db'), { log: (m) => logs.push(m) });
    try {
      // What is left is the kept chat: the search indexes' markers for the deleted turns went too.
      expect(sizeOf(dir)).toBeLessThan(Math.min(before / 2, 2 * MB));
      expect(logs.join('\n')).toMatch(/storage: gave back \d+ MB that deleted chats had used/);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(new ConversationStore(db).listTurns('kept')).toHaveLength(4);
      expect(new SearchStore(db).search('wombat').map((h) => h.conversationId)).toContain('kept');
      // From now on a delete gives its pages back as it goes: nothing to compact at the next start.
      expect(db.pragma('auto_vacuum', { simple: true })).toBe(2);
    } finally {
      db.close();
    }

    const small = folder();
    raw = new BetterSqlite3(join(small, 'firebrand.db'));
    raw.pragma('journal_mode = WAL');
    migrateTo(raw, 13);
    writeChat(raw, 'kept', 40);
    raw.prepare("DELETE FROM turns WHERE id = 'kept-39'").run();
    raw.close();
    logs.length = 0;
    db = openDatabase(join(small, 'firebrand.db'), { log: (m) => logs.push(m) });
    try {
      expect(logs).toEqual([]);
      expect(db.pragma('auto_vacuum', { simple: true })).toBe(0);
    } finally {
      db.close();
    }
  });

  it('the -wal file is cut back after a large transaction, not kept at its size until the app closes', () => {
    const dir = folder();
    const db = openDatabase(join(dir, 'firebrand.db'));
    try {
      // One large transaction (an import of a long chat): the -wal file must hold all of it at once.
      db.transaction(() => writeChat(db, 'imported', 2000))();
      const wal = () => statSync(join(dir, 'firebrand.db-wal')).size;
      expect(wal()).toBeGreaterThan(4 * WAL_SIZE_LIMIT);
      // Copied into the database by the checkpoint after the commit; the next write starts the -wal file over.
      writeChat(db, 'next', 2);
      writeChat(db, 'after', 2);
      expect(wal()).toBeLessThanOrEqual(WAL_SIZE_LIMIT);
    } finally {
      db.close();
    }
  });
});
