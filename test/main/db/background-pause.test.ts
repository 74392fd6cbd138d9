/**
 * Round 7: background work on the database (the rechunking of old request bodies, the search-index merge after a
 * delete, giving freed pages back) ran while an answer streamed, a slice of a few ms between two of its writes.
 * It now waits while any answer streams and goes on after. The stream state is injected (the chat service's
 * `answering`, or a replay server holding the answer mid-way); the test counts turns of the event loop, not time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChat } from '../../../src/main/chat/chat-wiring';
import { answersStreaming, runInSlices, setAnswersStreaming } from '../../../src/main/db/background-slices';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { openDatabase } from '../../../src/main/db/open-database';
import { startReplayServer, type ReplayServer } from '../../replay-server/replay-server';
import { ollama } from '../integration/helpers';
import { ollamaChatStream } from '../../replay-server/ollama-wire';
import { makeTurn, memoryDb, text, tick } from './helpers';

/** `n` turns of the event loop: what a slice queued meanwhile would have had to run in. */
async function loopTurns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

const indexHolds = (db: Database, word: string) =>
  (db.prepare('SELECT block FROM turns_fts_data').all() as { block: Buffer }[]).some((r) => r.block.includes(Buffer.from(word)));

describe('background work on the database while an answer streams', () => {
  it('runs no slice while an answer streams, and goes on once none does', async () => {
    const db = memoryDb();
    let slices = 0;
    let done = false;
    setAnswersStreaming(db, true);
    runInSlices(db, { slice: () => ++slices >= 3, done: () => (done = true), failed: () => {} });
    await loopTurns(50);
    expect(slices).toBe(0);

    setAnswersStreaming(db, false);
    await loopTurns(1);
    expect(slices).toBe(1);
    // An answer starting part way stops it between two slices.
    setAnswersStreaming(db, true);
    await loopTurns(50);
    expect(slices).toBe(1);
    setAnswersStreaming(db, false);
    await expect.poll(() => done).toBe(true);
    expect(slices).toBe(3);
    db.close();
  });

  describe('through the chat service', () => {
    let replay: ReplayServer;
    beforeAll(async () => {
      replay = await startReplayServer(
        ollama([{ method: 'POST', path: '/api/chat', body: ollamaChatStream(['Trams ', 'climb.']), chunk: 'lines', holdAfterChunks: 1, headers: { 'content-type': 'application/x-ndjson' } }]),
      );
    });
    afterAll(() => replay.close());

    it('a chat deleted while an answer streams is merged out of the search index and its pages given back only after the answer', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'firebrand-pause-'));
      const db = openDatabase(join(dataDir, 'firebrand.db'));
      try {
        const store = new ConversationStore(db);
        store.createConversation('old', 'Old', 'm', tick());
        let parent: string | null = null;
        for (let i = 0; i < 40; i++) {
          store.appendTurn(makeTurn({ id: `old-${i}`, conversationId: 'old', parentId: parent, blocks: text(`zanzibarquux ${i} ${'filler words '.repeat(200)}`) }), tick());
          parent = `old-${i}`;
        }
        const parts = createChat({ db, dataDir, store, ollamaUrl: () => replay.url, readBlob: () => undefined, emit: () => {}, newId: () => `n${tick()}`, now: tick, log: () => {}, titles: false });
        store.createConversation('live', 'Trams', 'llama3.2:1b', tick());
        parts.chat.send({ conversationId: 'live', text: 'How do trams climb?', model: 'llama3.2:1b' });
        await expect.poll(() => replay.held).toBe(1);
        expect(answersStreaming(db)).toBe(true);

        expect(store.deleteConversation('old')).toBe(true);
        const freeAfterDelete = db.pragma('freelist_count', { simple: true }) as number;
        expect(freeAfterDelete).toBeGreaterThan(0);
        await loopTurns(100);
        // Nothing of the background work ran: the deleted words still in the index's segments, no page given back.
        expect(indexHolds(db, 'zanzibarquux')).toBe(true);
        expect(db.pragma('freelist_count', { simple: true })).toBe(freeAfterDelete);

        replay.release();
        await expect.poll(() => parts.chat.activeCount).toBe(0);
        expect(answersStreaming(db)).toBe(false);
        await expect.poll(() => indexHolds(db, 'zanzibarquux')).toBe(false);
        await expect.poll(() => db.pragma('freelist_count', { simple: true })).toBeLessThan(freeAfterDelete);
      } finally {
        db.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });
});
