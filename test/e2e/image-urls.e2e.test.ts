/**
 * A long session with pictures, in Chromium against serve mode: the object URL of every image the page had shown
 * lived until the tab closed (store/attachments.ts cached them by digest "for the life of the window"), each one
 * holding its image's bytes, so opening chat after chat with photos in them piled them up. Now a URL goes once
 * nothing shows its image, and an image still on screen (the same picture in two turns, a chat opened again, a
 * chip in the composer) never loses it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import type { Turn } from '../../src/shared/turn';
import { BlobStore } from '../../src/main/blobs/blob-store';
import { ConversationStore } from '../../src/main/db/conversation-store';
import { createServices } from '../../src/main/services';
import { ollamaRoutes } from '../replay-server/ollama-wire';
import { startReplayServer, type ReplayServer } from '../replay-server/replay-server';
import { launchChromium, openPage } from './helpers/browser';
import { tinyPng } from './helpers/png';
import { startServeProcess, type ServeProcess } from './helpers/serve-process';
import { USER } from './helpers/ui-session';

const CHATS = 8;
let session: { close: () => Promise<void> } | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

/** Serve mode over CHATS chats, each with a picture of its own; the first shows its picture in two messages. */
async function start(): Promise<Page> {
  const dataDir = mkdtempSync(join(tmpdir(), 'firebrand-e2e-images-'));
  const seeded = createServices({ dataDir, log: () => {} });
  try {
    const blobs = new BlobStore(seeded.db, dataDir);
    const store = new ConversationStore(seeded.db);
    for (let c = 0; c < CHATS; c++) {
      const png = tinyPng(c * 30);
      const image = await blobs.put(png, { name: `photo-${c}.png`, mime: 'image/png' }, 1);
      const id = `chat-${c}`;
      store.createConversation(id, `Photos ${c}`, 'llama3.2:3b', 10 + c);
      const asks = c === 0 ? 2 : 1;
      let parentId: string | null = null;
      for (let k = 0; k < asks; k++) {
        const turn = (t: Pick<Turn, 'id' | 'role' | 'blocks'>): Turn => ({ conversationId: id, parentId, meta: {}, status: 'done', createdAt: 10 + c, ...t });
        const user = turn({ id: `${id}-u${k}`, role: 'user', blocks: [{ type: 'text', text: `Look ${c}.${k}` }, image] });
        store.appendTurn(user, 10 + c);
        parentId = user.id;
        const answer = turn({ id: `${id}-a${k}`, role: 'assistant', blocks: [{ type: 'text', text: `Seen ${c}.${k}` }] });
        store.appendTurn(answer, 10 + c);
        parentId = answer.id;
      }
    }
  } finally {
    seeded.close();
  }
  const replay: ReplayServer = await startReplayServer(ollamaRoutes(['Nice', ' photo.']));
  const serve: ServeProcess = await startServeProcess({ dataDir, ollamaUrl: replay.url });
  const browser = await launchChromium();
  session = {
    close: async () => {
      await browser.close();
      await serve.stop();
      await replay.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  const page = await openPage(browser, { viewport: { width: 1280, height: 800 } });
  // The page's object URLs, as made and revoked: those alive keep their bytes in the page.
  await page.addInitScript(() => {
    const alive = new Set<string>();
    (window as unknown as { __blobUrls: Set<string> }).__blobUrls = alive;
    const create = URL.createObjectURL.bind(URL);
    const revoke = URL.revokeObjectURL.bind(URL);
    URL.createObjectURL = (obj: Blob | MediaSource) => {
      const url = create(obj);
      alive.add(url);
      return url;
    };
    URL.revokeObjectURL = (url: string) => {
      alive.delete(url);
      revoke(url);
    };
  });
  await page.goto(serve.url);
  return page;
}

const aliveUrls = (page: Page) => page.evaluate(() => (window as unknown as { __blobUrls: Set<string> }).__blobUrls.size);

/** Opens chat `c` from the list and waits until each of its pictures is drawn (decoded, not "unavailable"). */
async function openChat(page: Page, c: number): Promise<void> {
  await page.locator('[data-testid="conversation-item"]', { hasText: `Photos ${c}` }).click();
  const images = page.locator(USER).locator('[data-kind="image"] img');
  await expect.poll(() => images.count()).toBe(c === 0 ? 2 : 1);
  await page.waitForFunction((n) => {
    const drawn = [...document.querySelectorAll<HTMLImageElement>('[data-testid="turn"][data-role="user"] [data-kind="image"] img')];
    return drawn.length === n && drawn.every((img) => img.complete && img.naturalWidth === 2);
  }, c === 0 ? 2 : 1);
  expect(await page.locator(USER).getByText('Image unavailable').count()).toBe(0);
}

describe('image URLs over a long session', () => {
  it('lets a closed chat’s pictures go, and keeps every picture on screen drawn', async () => {
    const page = await start();
    await page.getByTestId('conversation-item').first().waitFor();
    // Two rounds through every chat: 2 x CHATS switches.
    for (let round = 0; round < 2; round++) for (let c = 0; c < CHATS; c++) await openChat(page, c);
    // Back on a chat whose one picture shows twice: only that picture's URL is left (it was CHATS, one per chat seen).
    await openChat(page, 0);
    await expect.poll(() => aliveUrls(page)).toBe(1);
    // The same picture in the composer and in the chat: removing the chip leaves the chat's pictures drawn.
    await page.getByTestId('attach-input').setInputFiles({ name: 'again.png', mimeType: 'image/png', buffer: tinyPng(0) });
    await page.getByTestId('pending-attachments').locator('img').waitFor();
    await page.getByRole('button', { name: 'Remove again.png' }).click();
    await page.getByTestId('pending-attachments').waitFor({ state: 'detached' });
    // A picture only the composer showed goes with its chip.
    await page.getByTestId('attach-input').setInputFiles({ name: 'other.png', mimeType: 'image/png', buffer: tinyPng(250) });
    await page.getByTestId('pending-attachments').locator('img').waitFor();
    await expect.poll(() => aliveUrls(page)).toBe(2);
    await page.getByRole('button', { name: 'Remove other.png' }).click();
    await expect.poll(() => aliveUrls(page)).toBe(1);
    await openChat(page, 1);
    await openChat(page, 0);
    await expect.poll(() => aliveUrls(page)).toBe(1);
  });
});
