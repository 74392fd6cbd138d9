/**
 * Search benchmark (issue 4, "Done when"): builds 10,000 conversations / 200,000 turns through the real
 * store and migrations, then prints p50/p95 query times. A plain script, not a timed test:
 *   npx tsx bench/search.bench.ts [conversations] [turnsPerConversation]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ConversationStore } from '../src/main/db/conversation-store';
import { openDatabase } from '../src/main/db/open-database';
import { SearchStore } from '../src/main/db/search';

const conversations = Number(process.argv[2] ?? 10_000);
const perConversation = Number(process.argv[3] ?? 20);

// A Zipf-like vocabulary: a few very common words, a long tail of rare ones, so queries see both extremes.
const vocabulary = Array.from({ length: 20_000 }, (_, i) => `w${i.toString(36)}`);
const common = ['the', 'model', 'answer', 'python', 'error', 'context', 'window', 'image', 'file', 'token'];
let seed = 42;
const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
const word = () => (random() < 0.3 ? common[Math.floor(random() * common.length)]! : vocabulary[Math.floor(random() ** 3 * vocabulary.length)]!);
const sentence = (n: number) => Array.from({ length: n }, word).join(' ');

const dir = mkdtempSync(join(tmpdir(), 'firebrand-bench-'));
try {
  const db = openDatabase(join(dir, 'bench.db'));
  const store = new ConversationStore(db);
  const t0 = performance.now();
  const build = db.transaction((from: number, to: number) => {
    for (let c = from; c < to; c++) {
      const conversationId = `c${c}`;
      store.createConversation(conversationId, sentence(4), 'm', c);
      let parentId: string | null = null;
      for (let t = 0; t < perConversation; t++) {
        const id = `${conversationId}-${t}`;
        const role = t % 2 === 0 ? 'user' : 'assistant';
        const blocks = [{ type: 'text' as const, text: sentence(role === 'user' ? 15 : 120) }];
        store.appendTurn({ id, conversationId, parentId, role, blocks, meta: {}, status: 'done', createdAt: c * 100 + t }, c * 100 + t);
        parentId = id;
      }
    }
  });
  for (let c = 0; c < conversations; c += 500) build(c, Math.min(conversations, c + 500));
  const buildMs = performance.now() - t0;

  const search = new SearchStore(db);
  const queries = ['python error', 'the', 'context window', 'w1', 'w2a3', 'wzz', 'image file token', 'missingword', 'mod', '"quoted" NEAR('];
  const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
  const measure = (label: string) => {
    const times: Record<string, number[]> = {};
    const all: number[] = [];
    for (let round = 0; round < 20; round++) {
      for (const q of queries) {
        const s = performance.now();
        search.search(q, 50);
        const ms = performance.now() - s;
        if (round === 0) continue; // warm-up
        (times[q] ??= []).push(ms);
        all.push(ms);
      }
    }
    console.log(`-- ${label}`);
    for (const q of queries) console.log(`${JSON.stringify(q).padEnd(22)} hits=${String(search.search(q, 50).length).padStart(2)}  p50=${pct(times[q]!, 50).toFixed(2)} ms  p95=${pct(times[q]!, 95).toFixed(2)} ms`);
    console.log(`all queries: p50=${pct(all, 50).toFixed(2)} ms  p95=${pct(all, 95).toFixed(2)} ms`);
  };
  console.log(`built ${conversations} conversations / ${conversations * perConversation} turns in ${(buildMs / 1000).toFixed(1)} s`);
  measure('as written (index segments from incremental writes)');
  const o = performance.now();
  db.exec("INSERT INTO turns_fts (turns_fts) VALUES ('optimize')");
  console.log(`optimize took ${((performance.now() - o) / 1000).toFixed(1)} s`);
  measure('after FTS optimize');
  db.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
