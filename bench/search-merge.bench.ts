/**
 * The search-index merge after a delete (src/main/db/search-merge.ts), against FTS5's incremental 'merge' with a
 * positive N (round 7: could it bound the work to what the delete left?). N turns of 1 kB in 50-turn chats, the
 * index merged into one segment (as it is after a delete), then one 50-turn chat deleted: an old one (its entries
 * in that segment) or a recent one (written after it, in small segments of their own). Each merge runs to its end
 * ('merge' changes fewer than 2 rows); the figure says whether the deleted chat's words are still in the index's
 * pages (the reason the merge exists). Floor: the positive merge of the same delete.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Database } from 'better-sqlite3';
import { ConversationStore } from '../src/main/db/conversation-store';
import { openDatabase } from '../src/main/db/open-database';
import { MERGE_STEP_PAGES } from '../src/main/db/search-merge';
import { quick, report } from './lib/report';

const TURNS = quick ? 5_000 : 20_000;
const PER_CHAT = 50;
const TURN_CHARS = 1_000;
let seed = 7;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
const vocabulary = Array.from({ length: 30_000 }, (_, i) => `w${i.toString(36)}`);
function sentence(chars: number): string {
  const words: string[] = [];
  for (let n = 0; n < chars; ) {
    const w = vocabulary[Math.floor(random() ** 2 * vocabulary.length)]!;
    words.push(w);
    n += w.length + 1;
  }
  return words.join(' ');
}

function chat(store: ConversationStore, id: string, marker: string, at: number): void {
  store.createConversation(id, 'x', 'm', at);
  let parentId: string | null = null;
  for (let t = 0; t < PER_CHAT; t++) {
    const turnId = `${id}-${t}`;
    store.appendTurn({ id: turnId, conversationId: id, parentId, role: t % 2 ? 'assistant' : 'user', blocks: [{ type: 'text', text: `${marker} ${sentence(TURN_CHARS)}` }], meta: {}, status: 'done', createdAt: at + t }, at + t);
    parentId = turnId;
  }
}

// The deleted chats' own words, looked for in the index's pages. FTS5 stores a term after the prefix it shares with
// the one before it on its page: these start with letters no other term starts with, so they are stored whole.
const VICTIM_OLD = 'zzqoldvictim';
const VICTIM_RECENT = 'yyqrecentvictim';
const holds = (db: Database, word: string) => (db.prepare('SELECT block FROM turns_fts_data').all() as { block: Buffer }[]).some((r) => r.block.includes(Buffer.from(word)));

/** Deletes a chat and merges with `pages` per step (negative: every segment, as search-merge.ts); ms and words left. */
function mergeAfterDelete(base: string, dir: string, recent: boolean, pages: number): { ms: number; left: boolean } {
  const file = join(dir, `${recent ? 'recent' : 'old'}${pages}.db`);
  copyFileSync(base, file);
  const db = openDatabase(file);
  try {
    const store = new ConversationStore(db);
    if (recent) for (let c = 0; c < 20; c++) db.transaction(() => chat(store, `r${c}`, c === 10 ? VICTIM_RECENT : 'recent', 1e9 + c * 100))();
    const victim = recent ? 'r10' : 'c1';
    db.transaction(() => {
      db.prepare('UPDATE turns SET parent_id = NULL WHERE conversation_id = ?').run(victim);
      db.prepare('DELETE FROM conversations WHERE id = ?').run(victim);
    })();
    const changes = db.prepare('SELECT total_changes()').pluck();
    const t0 = performance.now();
    for (const table of ['turns_fts', 'turns_cjk']) {
      const merge = db.prepare(`INSERT INTO ${table} (${table}, rank) VALUES ('merge', ${pages})`);
      for (;;) {
        const before = changes.get() as number;
        merge.run();
        if ((changes.get() as number) - before < 2) break;
      }
    }
    return { ms: performance.now() - t0, left: holds(db, recent ? VICTIM_RECENT : VICTIM_OLD) };
  } finally {
    db.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'firebrand-bench-merge-'));
try {
  const base = join(dir, 'base.db');
  const db = openDatabase(base);
  const store = new ConversationStore(db);
  db.transaction(() => {
    for (let c = 0; c < TURNS / PER_CHAT; c++) chat(store, `c${c}`, c === 1 ? VICTIM_OLD : 'old', c * 100);
  })();
  for (const table of ['turns_fts', 'turns_cjk']) db.prepare(`INSERT INTO ${table} (${table}) VALUES ('optimize')`).run();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  for (const recent of [false, true]) {
    const whole = mergeAfterDelete(base, dir, recent, -MERGE_STEP_PAGES);
    const incremental = mergeAfterDelete(base, dir, recent, MERGE_STEP_PAGES);
    const which = recent ? 'a recent chat' : 'an old chat';
    const words = (left: boolean) => (left ? 'words left in the index' : 'words gone');
    report({
      figure: `merge after deleting ${which} of ${PER_CHAT} turns among ${TURNS.toLocaleString('en-US')}`,
      value: Math.round(whole.ms),
      unit: 'ms',
      floor: Math.round(incremental.ms),
      note: `whole merge (search-merge.ts): ${words(whole.left)}; 'merge' with N=+${MERGE_STEP_PAGES}: ${Math.round(incremental.ms)} ms, ${words(incremental.left)}`,
    });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
