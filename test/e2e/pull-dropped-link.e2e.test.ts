/**
 * An Ollama pull that fails while the page's link to serve mode is down (a network blip between the browser and a
 * GPU box; serve mode and the pull go on). Before (tabs #3) the page, once back, kept showing the pull's last
 * progress, "running" with Cancel, for good: the failure's event went out while nobody listened, and main kept no
 * record to ask. Now it shows that the pull failed, with the server's reason, and offers to pull again.
 *
 * The link is cut by the test, not by stopping serve mode: Playwright routes the page's WebSocket through itself,
 * closes it, and refuses new ones until the link is to come back.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page, WebSocketRoute } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ollamaRoutes } from '../replay-server/ollama-wire';
import { startReplayServer, type ReplayRoute, type ReplayServer } from '../replay-server/replay-server';
import { launchChromium, openPage } from './helpers/browser';
import { modelOption } from './helpers/picker';
import { shootAtBothWidths } from './helpers/screenshots';
import { startServeProcess, type ServeProcess } from './helpers/serve-process';

const PULL_LINES = readFileSync(new URL('../fixtures/ollama-models/pull-llama3.2-1b.ndjson', import.meta.url), 'utf8').split('\n').filter((l) => l.trim() !== '');
/** Ollama's mid-pull error on HTTP 200, as it says a full disk (the shape ollama-pull.ts reads). */
const DISK_FULL = '{"error":"write /root/.ollama/models/blobs/sha256-74701a8c35f6-partial-3: no space left on device"}';
const HELD_AT = 8;

let browser: Browser;
let replay: ReplayServer;
let serve: ServeProcess;
let dataDir: string;
let page: Page;

function routes(pull: string, hold: boolean): ReplayRoute[] {
  return [
    ...ollamaRoutes(['Hi']),
    { path: '/api/ps', body: '{"models":[]}' },
    { method: 'POST', path: '/api/pull', body: pull, chunk: 'lines', delayMs: 120, headers: { 'content-type': 'application/x-ndjson' }, ...(hold ? { holdAfterChunks: HELD_AT } : {}) },
  ];
}

beforeEach(async () => {
  browser = await launchChromium();
  dataDir = mkdtempSync(join(tmpdir(), 'firebrand-e2e-pull-link-'));
  replay = await startReplayServer(routes([...PULL_LINES.slice(0, HELD_AT + 4), DISK_FULL].join('\n') + '\n', true));
  serve = await startServeProcess({ dataDir, ollamaUrl: replay.url });
  page = await openPage(browser, { viewport: { width: 1280, height: 800 } });
});
afterEach(async () => {
  await browser?.close();
  await serve?.stop();
  await replay?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a pull that fails while the page’s link is down', () => {
  it('shows that it failed, with the reason, once the page is back, and pulls again from there (tabs #3)', async () => {
    // The page's link to serve mode, through the test: `down` refuses new sockets, `cut` closes the open one.
    let down = false;
    let open: WebSocketRoute | null = null;
    await page.routeWebSocket(/\/ipc\?/, (ws) => {
      if (down) return void ws.close();
      ws.connectToServer();
      open = ws;
    });
    await page.goto(serve.url);
    await modelOption(page, 'llama3.2:3b').waitFor({ state: 'attached' });
    await page.getByTestId('models-open').click();
    await page.getByTestId('pull-input').fill('llama3.2:1b');
    await page.getByTestId('pull-button').click();
    const progress = page.getByTestId('pull-progress');
    await expect.poll(() => progress.getAttribute('data-percent').then(Number)).toBeGreaterThan(0);

    down = true;
    await (open as WebSocketRoute | null)?.close();
    await expect.poll(() => page.getByTestId('serve-problem').locator('.banner-text').textContent().catch(() => '')).toBe('Lost the connection to Firebrand. Reconnecting…');
    // The pull goes on in serve mode and fails there; a second tab, linked all along, hears it end.
    const witness = await openPage(browser);
    await witness.goto(serve.url);
    await witness.evaluate(() => {
      (window as unknown as { ended: string[] }).ended = [];
      window.firebrand.models.onPullProgress((p) => p.state !== 'running' && (window as unknown as { ended: string[] }).ended.push(p.state));
    });
    replay.release();
    await expect.poll(() => witness.evaluate(() => (window as unknown as { ended: string[] }).ended)).toEqual(['error']);
    expect(await progress.getAttribute('data-state')).toBe('running');

    down = false;
    await page.getByTestId('serve-problem').waitFor({ state: 'detached', timeout: 30_000 });
    await expect.poll(() => progress.getAttribute('data-state')).toBe('error');
    expect(await page.getByTestId('pull-error').textContent()).toBe('Pulling llama3.2:1b failed on Ollama: write /root/.ollama/models/blobs/sha256-74701a8c35f6-partial-3: no space left on device');
    expect(await page.getByTestId('pull-cancel').count()).toBe(0);
    await shootAtBothWidths(page, 'models-pull-failed-while-away', '[data-testid="pull-progress"]');

    // Pull again: Ollama resumes (here it finishes), and the failed entry gives way to the new one.
    replay.setRoutes(routes(PULL_LINES.join('\n') + '\n', false));
    await page.getByTestId('pull-retry').click();
    await expect.poll(() => progress.getAttribute('data-state')).toBe('done');
    expect(await progress.count()).toBe(1);
  });
});
