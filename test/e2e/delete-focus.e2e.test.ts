/**
 * Deleting from the Models screen with the keyboard (hunt round): the row goes with the focus on its Delete, and the
 * focus fell to <body>, where the next Tab started over at the top of the dialog. It goes to the row that takes its
 * place, else to where one is added. An Ollama model and a models-folder file; serve mode against an Ollama replay.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ollamaRoutes, TAGS_BODY } from '../replay-server/ollama-wire';
import { startReplayServer, type ReplayRoute, type ReplayServer } from '../replay-server/replay-server';
import { launchChromium, openPage } from './helpers/browser';
import { startServeProcess, type ServeProcess } from './helpers/serve-process';

let browser: Browser;
let replay: ReplayServer;
let dataDir: string;
let serve: ServeProcess;
let page: Page;

const ALL = (JSON.parse(TAGS_BODY) as { models: { name: string }[] }).models;
/** What the replayed Ollama lists now. */
let listed = ALL.map((m) => m.name);
const routes = (names: string[]): ReplayRoute[] => [
  ...ollamaRoutes(['Hi']).filter((r) => r.path !== '/api/tags'),
  { path: '/api/tags', body: JSON.stringify({ models: ALL.filter((m) => names.includes(m.name)) }) },
  { path: '/api/ps', body: '{"models":[]}' },
  { method: 'DELETE', path: '/api/delete', body: '{}' },
];

beforeAll(async () => {
  browser = await launchChromium();
  replay = await startReplayServer(routes(listed));
  // Ollama forgets a model as it answers its delete: the list read after it no longer holds it.
  replay.setOnRequest((req) => {
    if (req.path !== '/api/delete') return;
    const gone = (JSON.parse(req.body) as { model: string }).model;
    listed = listed.filter((n) => n !== gone);
    replay.setRoutes(routes(listed));
  });
  dataDir = mkdtempSync(join(tmpdir(), 'firebrand-e2e-delete-focus-'));
  // Two files the library lists as unusable: each still offers Delete….
  mkdirSync(join(dataDir, 'models'), { recursive: true });
  for (const f of ['broken-a.gguf', 'broken-b.gguf']) writeFileSync(join(dataDir, 'models', f), 'not a gguf');
  serve = await startServeProcess({ dataDir, ollamaUrl: replay.url });
  page = await openPage(browser);
  await page.goto(serve.url);
});
afterAll(async () => {
  await page?.close();
  await browser?.close();
  await serve?.stop();
  await replay?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The focused control: its test id, and the row it is in (a model's name or a file's). */
const focused = () =>
  page.evaluate(() => {
    const el = document.activeElement;
    const row = el?.closest('[data-model], [data-file]');
    return `${el?.getAttribute('data-testid') ?? el?.tagName ?? ''}${row ? ` in ${row.getAttribute('data-model') ?? row.getAttribute('data-file') ?? ''}` : ''}`;
  });

/** Delete… on the row, then Delete (not Keep, which has the focus), by the keyboard. */
async function deleteByKeyboard(row: ReturnType<Page['locator']>, ask: string): Promise<void> {
  await row.getByTestId(ask).focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Keep');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Enter');
  await expect.poll(() => row.count()).toBe(0);
}

describe('deleting on the Models screen by the keyboard', () => {
  it('moves the focus to the model that takes the deleted one’s place, then to the Pull box', async () => {
    await page.getByTestId('models-open').click();
    await expect.poll(() => page.getByTestId('model-row').count()).toBe(2);
    await deleteByKeyboard(page.locator('[data-testid="model-row"][data-model="llama3.2:3b"]'), 'model-delete');
    await expect.poll(focused).toBe('model-details in qwen3:8b');
    await deleteByKeyboard(page.locator('[data-testid="model-row"][data-model="qwen3:8b"]'), 'model-delete');
    await expect.poll(focused).toBe('pull-input');
  });

  it('moves the focus to the file that takes the deleted one’s place, then to the path box', async () => {
    await deleteByKeyboard(page.locator('[data-testid="library-item"][data-file="broken-a.gguf"]'), 'library-delete');
    await expect.poll(focused).toBe('library-where in broken-b.gguf');
    await deleteByKeyboard(page.locator('[data-testid="library-item"][data-file="broken-b.gguf"]'), 'library-delete');
    await expect.poll(focused).toBe('library-add-path');
  });
});
