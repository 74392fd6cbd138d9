/**
 * Round 6, durability: after a start on a full disk, the answers a crash had cut read as still streaming (spinner,
 * Stop, no Continue) until a later start with room. The chat wiring now shows them interrupted with the reason,
 * and Continue works once the user has made room. The disk is "filled" with SQLite's max_page_count.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChat } from '../../../src/main/chat/chat-wiring';
import { conversationView } from '../../../src/main/chat/conversation-view';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { DISK_FULL_NOTE, type LeftOpenTurns } from '../../../src/main/db/left-open';
import { CONTINUE_TEXT } from '../../../src/shared/turn';
import { startReplayServer, type ReplayServer } from '../../replay-server/replay-server';
import { makeTurn, memoryDb, text, tick } from '../db/helpers';
import { ollama } from '../integration/helpers';

let replay: ReplayServer;
beforeAll(async () => {
  replay = await startReplayServer(ollama());
});
afterAll(() => replay.close());

describe('answers a crash cut, at a start on a full disk', () => {
  it('show as interrupted with the reason, not as streaming, and can be continued once there is room', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'firebrand-left-open-'));
    const db = memoryDb();
    const store = new ConversationStore(db);
    store.createConversation('c', 'Trams', 'llama3.2:1b', tick());
    store.appendTurn(makeTurn({ id: 'u', conversationId: 'c', blocks: text('How do trams climb?') }), tick());
    store.appendTurn(makeTurn({ id: 'a', conversationId: 'c', parentId: 'u', role: 'assistant', status: 'streaming', model: 'llama3.2:1b', blocks: text('By cable, and '.repeat(300)) }), tick());
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    let id = 0;
    const logs: string[] = [];
    const parts = createChat({ db, dataDir, store, ollamaUrl: () => replay.url, readBlob: () => undefined, emit: () => {}, newId: () => `n${++id}`, now: tick, log: (m) => logs.push(m), titles: false });
    try {
      const before = conversationView(store, 'c', undefined, undefined, parts.engine).turns.at(-1);
      expect(before).toMatchObject({ id: 'a', status: 'interrupted', error: DISK_FULL_NOTE });
      expect(store.getTurn('a')?.status).toBe('streaming');

      // Still full: a retry (every minute, and before each answer the user starts) writes nothing and loses nothing.
      expect((parts.engine.live?.leftOpen as LeftOpenTurns).retry()).toBe(false);
      expect(store.getTurn('a')?.status).toBe('streaming');
      db.pragma('max_page_count = 1073741823');
      const sent = parts.chat.send({ conversationId: 'c', text: CONTINUE_TEXT, model: 'llama3.2:1b' });
      expect(sent.userTurn.parentId).toBe('a');
      await expect.poll(() => parts.chat.activeCount).toBe(0);
      expect(store.getTurn('a')).toMatchObject({ status: 'interrupted', blocks: before?.blocks });
      const after = conversationView(store, 'c', undefined, undefined, parts.engine).turns;
      expect(after.find((t) => t.id === 'a')?.error).toBeUndefined();
      expect(after.at(-1)).toMatchObject({ role: 'assistant', status: 'done', blocks: text('Fine.') });
      expect(logs).toContain('storage: there is room again: 1 answer(s) left streaming when Firebrand stopped are now saved as interrupted');
    } finally {
      db.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
