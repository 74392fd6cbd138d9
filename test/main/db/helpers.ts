import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { SearchStore } from '../../../src/main/db/search';
import { SEARCH_PAGE } from '../../../src/shared/search-ipc';
import type { Block, Turn } from '../../../src/shared/turn';
import { migrate } from '../../../src/main/db/open-database';
import { MIGRATIONS } from '../../../src/main/db/migrations';

/** A fresh temp folder, removed by the returned cleanup. */
export function tempDir(prefix = 'firebrand-db-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** An in-memory database migrated to `version` (the latest by default). */
export function memoryDb(version = MIGRATIONS.at(-1)!.version): Database {
  const db = new BetterSqlite3(':memory:');
  db.pragma('foreign_keys = ON');
  migrate(db, MIGRATIONS.filter((m) => m.version <= version));
  return db;
}

export function migrateTo(db: Database, version: number): void {
  migrate(db, MIGRATIONS.filter((m) => m.version <= version));
}

export function userVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

let clock = 1_700_000_000_000;
export function tick(): number {
  return ++clock;
}

export function makeTurn(partial: Partial<Turn> & Pick<Turn, 'id' | 'conversationId'>): Turn {
  return { parentId: null, role: 'user', blocks: [], meta: {}, status: 'done', createdAt: tick(), ...partial };
}

export function text(t: string): Block[] {
  return [{ type: 'text', text: t }];
}

/** Writes conversation `id` ("Chat id") with `turns` turns, user and assistant by turns, each saying "id words t". */
export function writeChat(store: ConversationStore, id: string, turns: number): void {
  store.createConversation(id, `Chat ${id}`, 'm', 1);
  let parent: string | null = null;
  for (let t = 0; t < turns; t++) {
    const turnId = `${id}-${t}`;
    store.appendTurn({ id: turnId, conversationId: id, parentId: parent, role: t % 2 ? 'assistant' : 'user', blocks: text(`${id} words ${t}`), meta: {}, status: 'done', createdAt: t }, t);
    parent = turnId;
  }
}

/**
 * A "Deadlines" chat of one message per `says` line, in order, searched as the app's conversations:search asks
 * (SearchStore.find, SEARCH_PAGE); `hit`: a query's turn ids and snippets, by id; `ids`: its turn ids.
 */
export function datedChat(says: readonly (readonly [string, string])[]) {
  const db = memoryDb();
  const store = new ConversationStore(db);
  const search = new SearchStore(db);
  store.createConversation('c1', 'Deadlines', null, tick());
  let parent: string | null = null;
  for (const [id, words] of says) {
    store.appendTurn(makeTurn({ id, conversationId: 'c1', parentId: parent, blocks: text(words) }), tick());
    parent = id;
  }
  const hit = (q: string) => search.find(q, SEARCH_PAGE).hits.map((h) => [h.turnId, h.snippet] as const).sort(([a], [b]) => String(a).localeCompare(String(b)));
  const ids = (q: string) => hit(q).map(([id]) => id);
  return { store, search, hit, ids };
}
