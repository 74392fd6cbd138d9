/**
 * Round 8, durability: the read-only start on a full disk (read-only-copy.ts) opened a copy of firebrand.db alone.
 * After a crash, the last run's latest writes are only in firebrand.db-wal (SQLite copies them into the database at
 * a checkpoint, which a crash never reached), so the user's latest messages were missing from the chats it showed.
 * The crash is a copy of the data folder's files taken while the first connection is open, with no checkpoint.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { openDatabase } from '../../../src/main/db/open-database';
import { openReadOnlyCopy, readOnlyReason } from '../../../src/main/db/read-only-copy';
import { SearchStore } from '../../../src/main/db/search';
import { tempDir } from './helpers';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

const say = (id: string, conversationId: string, parentId: string | null, text: string, at: number) =>
  ({ id, conversationId, parentId, role: 'user' as const, blocks: [{ type: 'text' as const, text }], meta: {}, status: 'done' as const, createdAt: at });

/** A data folder as a crash leaves it: the first message checkpointed into firebrand.db, then `later` in the -wal only. */
function crashedFolder(later: (store: ConversationStore) => void): { dir: string; file: string } {
  const { dir: live, cleanup } = tempDir('firebrand-ro-wal-live-');
  cleanups.push(cleanup);
  const db = openDatabase(join(live, 'firebrand.db'));
  db.pragma('wal_autocheckpoint = 0');
  const store = new ConversationStore(db);
  store.createConversation('c', 'Wombats', 'm', 1);
  store.appendTurn(say('t1', 'c', null, 'How deep do wombats dig?', 2), 2);
  db.pragma('wal_checkpoint(TRUNCATE)');
  later(store);
  const { dir, cleanup: gone } = tempDir('firebrand-ro-wal-');
  cleanups.push(gone);
  for (const name of ['firebrand.db', 'firebrand.db-wal']) copyFileSync(join(live, name), join(dir, name));
  db.close();
  return { dir, file: join(dir, 'firebrand.db') };
}

describe('the read-only start after a crash', () => {
  it("shows what the last run left only in firebrand.db-wal, and writes nothing to the full disk", () => {
    const { dir, file } = crashedFolder((store) => {
      store.appendTurn(say('t2', 'c', 't1', 'And what about platypuses?', 3), 3);
      store.createConversation('d', 'Echidnas', 'm', 4);
    });
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(0);
    const logs: string[] = [];
    const db = openReadOnlyCopy(file, { log: (m) => logs.push(m) });
    cleanups.unshift(() => db.close());
    const store = new ConversationStore(db);
    expect(store.listConversations().map((c) => c.title)).toEqual(['Echidnas', 'Wombats']);
    expect(store.listTurns('c').map((t) => t.id)).toEqual(['t1', 't2']);
    expect(new SearchStore(db).search('platypuses').map((h) => h.turnId)).toEqual(['t2']);
    expect(readOnlyReason(db)).not.toMatch(/may be missing/);
    expect(logs.join('\n')).toMatch(/page writes the last run left in firebrand\.db-wal/);
    expect(readdirSync(dir).sort()).toEqual(['firebrand.db', 'firebrand.db-wal']);
  });

  it('leaves out a transaction the crash cut mid-write (a torn frame), and keeps the ones before it', () => {
    const { file } = crashedFolder((store) => {
      store.appendTurn(say('t2', 'c', 't1', 'Saved before the crash', 3), 3);
      store.appendTurn(say('t3', 'c', 't2', 'Being written when the power went', 4), 4);
    });
    const wal = readFileSync(`${file}-wal`);
    // The last frame's page half written: its checksum no longer holds.
    wal.fill(0, wal.length - 2000);
    writeFileSync(`${file}-wal`, wal);
    const db = openReadOnlyCopy(file);
    cleanups.unshift(() => db.close());
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(new ConversationStore(db).listTurns('c').map((t) => t.id)).toEqual(['t1', 't2']);
  });

  it('says in its banner that the latest changes may be missing when firebrand.db-wal cannot be read', () => {
    const { dir, cleanup } = tempDir('firebrand-ro-wal-');
    cleanups.push(cleanup);
    const file = join(dir, 'firebrand.db');
    const first = openDatabase(file);
    new ConversationStore(first).createConversation('c', 'Wombats', 'm', 1);
    first.close();
    mkdirSync(`${file}-wal`); // Not a file it can read.
    const db = openReadOnlyCopy(file);
    cleanups.unshift(() => db.close());
    expect(new ConversationStore(db).listConversations().map((c) => c.title)).toEqual(['Wombats']);
    expect(readOnlyReason(db)).toMatch(/The latest changes from before Firebrand last stopped could not be read, so they may be missing here/);
  });
});
