/**
 * What the app says when a server answers, but not as it should: the words point at what went wrong, and nothing
 * the user wrote is lost.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ollamaRoutes } from '../replay-server/ollama-wire';
import { startReplayServer, type ReplayServer } from '../replay-server/replay-server';
import { launchChromium, openPage } from './helpers/browser';
import { startServeProcess, type ServeProcess } from './helpers/serve-process';

let browser: Browser;
let replay: ReplayServer;
let dataDir: string;
let serve: ServeProcess | undefined;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
  replay = await startReplayServer();
});
afterAll(async () => {
  await browser?.close();
  await replay?.close();
});
beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'firebrand-e2e-'));
  replay.requests.length = 0;
  page = await openPage(browser);
});
afterEach(async () => {
  await page?.close();
  await serve?.stop();
  serve = undefined;
  rmSync(dataDir, { recursive: true, force: true });
});

async function openApp(): Promise<void> {
  serve = await startServeProcess({ dataDir, ollamaUrl: replay.url });
  await page.goto(serve.url);
}

describe('a server that answers, but not as it should', () => {
  it('says a server that answered its model list with an error is running: not "cannot be reached: start it"', async () => {
    // Before: the banner said "Ollama at … answered 500 when asked for its models." and the line under the composer
    // "Ollama cannot be reached: start it, …", sending the user to start a server that was running.
    replay.setRoutes([...ollamaRoutes(['Hi.']).filter((r) => r.path !== '/api/tags'), { path: '/api/tags', status: 500, body: 'Internal Server Error' }]);
    await openApp();
    await expect.poll(() => page.getByTestId('models-error').textContent()).toContain('answered 500 when asked for its models');
    const reason = page.getByTestId('composer-reason');
    await expect.poll(() => reason.textContent()).toContain('Ollama answered but did not list its models (the message above says why): check its address and kind in Settings → Connections.');
    expect(await reason.textContent()).not.toContain('cannot be reached');

    // A server that cannot be reached is still told to start.
    const port = new URL(replay.url).port;
    await replay.close();
    await page.getByTestId('models-error').getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => reason.textContent()).toContain('Ollama cannot be reached: start it');
    replay = await startReplayServer(ollamaRoutes(['Hi.']), Number(port));
  });
});
