/**
 * Round 6, durability: a deleted chat's words stayed in the search indexes (FTS5 delete markers beside the
 * entries they cancel) and in the pages the delete freed, readable from firebrand.db with any SQLite tool until
 * the segments happened to merge, and taking room. Search itself never found them (checked below too).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { openDatabase } from '../../../src/main/db/open-database';
import { SearchStore } from '../../../src/main/db/search';
import { SearchIndexMerger } from '../../../src/main/db/search-merge';
import { memoryDb, tempDir } from './helpers';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function chat(db: Database, id: string, words: string, turns: number): void {
  const store = new ConversationStore(db);
  store.createConversation(id, `Chat ${id}`, 'm', 1);
  let parent: string | null = null;
  for (let t = 0; t < turns; t++) {
    const turnId = `${id}-${t}`;
    store.appendTurn({ id: turnId, conversationId: id, parentId: parent, role: t % 2 ? 'assistant' : 'user', blocks: [{ type: 'text', text: `${words} ${t} ${'and some more ordinary text '.repeat(40)}` }], meta: {}, status: 'done', createdAt: t }, t);
    parent = turnId;
  }
}

const indexBytes = (db: Database) =>
  (db.prepare('SELECT (SELECT sum(length(block)) FROM turns_fts_data) + (SELECT sum(length(block)) FROM turns_cjk_data) AS n').get() as { n: number }).n;
const indexHolds = (db: Database, word: string) =>
  ['turns_fts_data', 'turns_cjk_data'].some((table) => (db.prepare(`SELECT block FROM ${table}`).all() as { block: Buffer }[]).some((r) => r.block.includes(Buffer.from(word))));

describe('a deleted chat’s words', () => {
  it('leave the search indexes and the database file soon after the delete, and the other chats stay searchable', async () => {
    const { dir, cleanup } = tempDir('firebrand-merge-');
    cleanups.push(cleanup);
    const file = join(dir, 'firebrand.db');
    const db = openDatabase(file);
    cleanups.unshift(() => db.close());
    chat(db, 'kept', 'wombat burrows', 40);
    chat(db, 'secret', 'zanzibarquux 秘密の話です', 40);
    chat(db, 'later', 'koala naps', 40);
    const search = new SearchStore(db);
    expect(search.search('zanzibarquux')).toHaveLength(40);

    expect(new ConversationStore(db).deleteConversation('secret')).toBe(true);
    // Search never finds them, at once: whole words, prefixes, CJK.
    for (const q of ['zanzibarquux', 'zanzi', '秘密の話', '秘密']) expect(search.search(q)).toEqual([]);
    const afterDelete = indexBytes(db);

    // Merged in the background, then the freed pages handed back.
    // Neither in the database file nor in its -wal file (which held them as long as Firebrand ran), with no
    // checkpoint of the test's own.
    const onDisk = (word: string) => [file, `${file}-wal`].some((f) => existsSync(f) && readFileSync(f).includes(Buffer.from(word)));
    await expect.poll(() => onDisk('zanzibarquux') || onDisk('秘密の話')).toBe(false);
    expect(indexHolds(db, 'zanzibarquux') || indexHolds(db, '秘密の')).toBe(false);
    expect(indexBytes(db)).toBeLessThan(afterDelete * 0.8);

    db.prepare("INSERT INTO turns_fts (turns_fts) VALUES ('integrity-check')").run();
    db.prepare("INSERT INTO turns_cjk (turns_cjk) VALUES ('integrity-check')").run();
    expect(search.search('wombat')).toHaveLength(40);
    expect(search.search('koala naps')).toHaveLength(40);
  });

  it('are merged away in slices that stop at their time budget, read from the clock between steps', () => {
    const db = memoryDb();
    for (let c = 0; c < 6; c++) chat(db, `c${c}`, `word${c}`, 30);
    new ConversationStore(db).deleteConversation('c2');
    let now = 0;
    let reads = 0;
    const merger = new SearchIndexMerger(db, () => {
      reads++;
      return (now += 3);
    });
    reads = 0;
    expect(merger.slice(8, 100)).toBe(false);
    // Read at the start (3: the budget ends at 11), then after each step: 6, 9, 12, where the slice stops.
    expect(reads).toBe(4);
    while (!merger.slice(8, 100));
    expect(indexHolds(db, 'word2')).toBe(false);
    expect(new SearchStore(db).search('word3')).toHaveLength(30);
  });
});
