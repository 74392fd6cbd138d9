/**
 * Round 7, durability: after a start on a full disk, an answer a crash had cut is shown interrupted (db/left-open.ts)
 * but still saved as streaming. Its export read as a finished answer: the Markdown had no "interrupted" mark and the
 * JSON said "streaming". It now reads as interrupted, as the page shows it (without the page's note about the disk).
 * The disk is "filled" with SQLite's max_page_count, as in test/main/chat/left-open-wiring.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BlobStore } from '../../../src/main/blobs/blob-store';
import { createChat } from '../../../src/main/chat/chat-wiring';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { DISK_FULL_NOTE } from '../../../src/main/db/left-open';
import { exportFile } from '../../../src/main/export/export-file';
import type { ConversationFile } from '../../../src/main/export/file-format';
import { makeTurn, memoryDb, text, tick } from '../db/helpers';

describe('exporting an answer a crash cut, before a full disk let it be saved as interrupted', () => {
  it('reads as interrupted in Markdown and in JSON', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'firebrand-export-left-open-'));
    const db = memoryDb();
    try {
      const store = new ConversationStore(db);
      store.createConversation('c', 'Trams', 'llama3.2:1b', tick());
      store.appendTurn(makeTurn({ id: 'u', conversationId: 'c', blocks: text('How do trams climb?') }), tick());
      store.appendTurn(makeTurn({ id: 'a', conversationId: 'c', parentId: 'u', role: 'assistant', status: 'streaming', model: 'llama3.2:1b', blocks: text('By cable, and '.repeat(300)) }), tick());
      db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
      let id = 0;
      const parts = createChat({ db, dataDir, store, ollamaUrl: () => 'http://127.0.0.1:9', readBlob: () => undefined, emit: () => {}, newId: () => `n${++id}`, now: tick, log: () => {}, titles: false });
      expect(store.getTurn('a')?.status).toBe('streaming');
      const deps = { db, store, blobs: new BlobStore(db, dataDir), live: parts.engine.live };

      const markdown = exportFile(deps, 'c', 'markdown').text;
      expect(markdown).toMatch(/By cable, and[^]*\*\(answer interrupted\)\*\n$/);
      expect(markdown).not.toContain(DISK_FULL_NOTE);

      const file = JSON.parse(exportFile(deps, 'c', 'json').text) as ConversationFile;
      const answer = file.turns.find((t) => t.id === 'a');
      expect(answer).toMatchObject({ status: 'interrupted', blocks: text('By cable, and '.repeat(300)) });
      expect(answer?.error).toBeUndefined();
    } finally {
      db.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
