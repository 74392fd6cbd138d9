/**
 * The alias form on the Models screen as a user fills it (hunt round): a window typed as the list writes it
 * ("8,192"). Serve mode against an Ollama replay.
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
  replay = await startReplayServer([...ollamaRoutes(['Hi']), { path: '/api/ps', body: '{"models":[]}' }]);
});
afterAll(async () => {
  await browser?.close();
  await replay?.close();
});
beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'firebrand-e2e-alias-form-'));
  serve = await startServeProcess({ dataDir, ollamaUrl: replay.url });
  page = await openPage(browser);
  await page.goto(serve.url);
});
afterEach(async () => {
  await page?.close();
  await serve?.stop();
  serve = undefined;
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the alias form', () => {
  it('keeps a window typed as the list writes it, "8,192", as the Context window panel does', async () => {
    await page.getByTestId('models-open').click();
    await expect.poll(() => page.getByTestId('model-row').count()).toBe(2);
    await page.getByTestId('alias-name').fill('wide');
    await page.getByTestId('alias-model').selectOption('qwen3:8b');
    // Before, this was refused with "The context window is a whole number of tokens, at least 256."
    await page.getByTestId('alias-context').fill('8,192');
    await page.getByTestId('alias-save').click();
    const row = page.locator('[data-testid="alias-item"][data-alias="wide"]');
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain('8,192 tokens');
    expect(await page.getByTestId('alias-problem').count()).toBe(0);
    expect(await page.evaluate(() => window.firebrand.aliases.list({}).then((l) => l.map((a) => a.contextWindow)))).toEqual([8192]);
    // What no window can be is still refused, in the panel's words, and the typed text stays.
    await page.getByTestId('alias-name').fill('narrow');
    await page.getByTestId('alias-context').fill('8k');
    await page.getByTestId('alias-save').click();
    await expect.poll(() => page.getByTestId('alias-problem').textContent()).toBe('A window is a whole number of tokens, at least 256.');
    expect(await page.getByTestId('alias-context').inputValue()).toBe('8k');
  });
});
