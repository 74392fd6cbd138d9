/**
 * Serve mode over a data folder written beforehand through the real store (a long chat, a long history), with a
 * replay server answering and a page open on the app: the setup of the tests that need more history than a UI
 * session could build in time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { createServices } from '../../../src/main/services';
import type { Turn } from '../../../src/shared/turn';
import { ollamaRoutes } from '../../replay-server/ollama-wire';
import { startReplayServer } from '../../replay-server/replay-server';
import { launchChromium, openPage } from './browser';
import { startServeProcess } from './serve-process';

export interface SeededUi {
  page: Page;
  close: () => Promise<void>;
}

/** Writes the history with `seed` (in one transaction), then starts serve mode on it and opens the app at 1280 x 800. */
export async function startSeededUi(seed: (store: ConversationStore, db: Database) => void, answer: string[] = ['Hello', ' there.']): Promise<SeededUi> {
  const dataDir = mkdtempSync(join(tmpdir(), 'firebrand-e2e-seeded-'));
  const seeded = createServices({ dataDir, log: () => {} });
  try {
    const store = new ConversationStore(seeded.db);
    seeded.db.transaction(() => seed(store, seeded.db))();
  } finally {
    seeded.close();
  }
  const replay = await startReplayServer(ollamaRoutes(answer));
  const browser = await launchChromium();
  const serve = await startServeProcess({ dataDir, ollamaUrl: replay.url });
  const page = await openPage(browser, { viewport: { width: 1280, height: 800 } });
  await page.goto(serve.url);
  return {
    page,
    close: async () => {
      await browser.close();
      await serve.stop();
      await replay.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Appends `count` turns to one branch of `conversationId`, question and answer in turn, from `text(t)`. */
export function appendBranch(store: ConversationStore, conversationId: string, count: number, text: (t: number) => string, idOf = (t: number) => `${conversationId}-${t}`): void {
  let parentId: string | null = null;
  for (let t = 0; t < count; t++) {
    const turn: Turn = { id: idOf(t), conversationId, parentId, role: t % 2 === 0 ? 'user' : 'assistant', blocks: [{ type: 'text', text: text(t) }], meta: {}, status: 'done', createdAt: 10 + t };
    store.appendTurn(turn, 10 + t);
    parentId = turn.id;
  }
}
