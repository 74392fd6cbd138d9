/**
 * A database of many conversations (10,000 x 20 turns by default) written through the real store and
 * migrations, as a user's years of chats would be. Built once per machine and cached in the temp folder (the
 * key covers the schema and the shape), then copied into each data folder that needs it.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConversationStore } from '../../src/main/db/conversation-store';
import { MIGRATIONS } from '../../src/main/db/migrations';
import { openDatabase } from '../../src/main/db/open-database';

/** Bump when what is written changes. */
const VERSION = 1;

export interface BigDatabaseShape {
  conversations: number;
  turnsPerConversation: number;
}

const common = ['the', 'model', 'answer', 'python', 'error', 'context', 'window', 'image', 'file', 'token'];
const vocabulary = Array.from({ length: 20_000 }, (_, i) => `w${i.toString(36)}`);

/** Returns the path of the cached database file (building it first if needed) and whether it was built now. */
export function bigDatabase(shape: BigDatabaseShape): { path: string; builtS: number | null } {
  const key = createHash('sha256')
    .update(JSON.stringify({ VERSION, schema: MIGRATIONS.at(-1)?.version ?? 0, ...shape }))
    .digest('hex')
    .slice(0, 12);
  const dir = join(tmpdir(), 'firebrand-bench-cache');
  const path = join(dir, `big-${shape.conversations}x${shape.turnsPerConversation}-${key}.db`);
  if (existsSync(path)) return { path, builtS: null };
  mkdirSync(dir, { recursive: true });
  const partial = `${path}.${process.pid}.partial`;
  const started = performance.now();
  let seed = 42;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const word = () => (random() < 0.3 ? common[Math.floor(random() * common.length)]! : vocabulary[Math.floor(random() ** 3 * vocabulary.length)]!);
  const sentence = (n: number) => Array.from({ length: n }, word).join(' ');
  const db = openDatabase(partial);
  try {
    const store = new ConversationStore(db);
    const build = db.transaction((from: number, to: number) => {
      for (let c = from; c < to; c++) {
        const conversationId = `c${c}`;
        store.createConversation(conversationId, sentence(4), 'llama3.2:3b', c * 100);
        let parentId: string | null = null;
        for (let t = 0; t < shape.turnsPerConversation; t++) {
          const id = `${conversationId}-${t}`;
          const role = t % 2 === 0 ? 'user' : 'assistant';
          const blocks = [{ type: 'text' as const, text: sentence(role === 'user' ? 15 : 120) }];
          store.appendTurn({ id, conversationId, parentId, role, blocks, meta: {}, status: 'done', createdAt: c * 100 + t, ...(role === 'assistant' ? { model: 'llama3.2:3b' } : {}) }, c * 100 + t);
          parentId = id;
        }
      }
    });
    for (let c = 0; c < shape.conversations; c += 500) build(c, Math.min(shape.conversations, c + 500));
    // One self-contained file: the WAL folded in, so a plain copy is the whole database.
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.pragma('journal_mode = DELETE');
  } finally {
    db.close();
  }
  renameSync(partial, path);
  for (const suffix of ['-wal', '-shm']) rmSync(`${partial}${suffix}`, { force: true });
  return { path, builtS: (performance.now() - started) / 1000 };
}

/** Puts a copy of the cached database in `dataDir` as Firebrand's own database. */
export function copyBigDatabase(shape: BigDatabaseShape, dataDir: string): { builtS: number | null } {
  const { path, builtS } = bigDatabase(shape);
  mkdirSync(dataDir, { recursive: true });
  copyFileSync(path, join(dataDir, 'firebrand.db'));
  return { builtS };
}
