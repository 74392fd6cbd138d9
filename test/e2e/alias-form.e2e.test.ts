/**
 * The alias form on the Models screen as a user fills it (hunt round): a window typed as the list writes it
 * ("8,192"), and the alias being edited deleted from its own row. Serve mode against an Ollama replay.
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
import { shootAtBothWidths } from './helpers/screenshots';

let browser: Browser;
let replay: ReplayServer;
let dataDir: string;
let serve: ServeProcess | undefined;
let page: Page;

const alias = (name: string) => ({ name, connectionId: 'ollama', model: 'llama3.2:3b', systemPrompt: '', parameters: {}, thinkMode: 'off' as const, contextWindow: 6000 });
const focused = () => page.evaluate(() => `${document.activeElement?.tagName ?? ''} ${document.activeElement?.getAttribute('data-testid') ?? ''}`);

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

  it('ends the edit of an alias deleted from its own row: no word of another tab, an empty form, the focus kept', async () => {
    await page.evaluate(async (list) => {
      for (const a of list) await window.firebrand.aliases.create(a);
    }, [alias('first'), alias('second')]);
    await page.getByTestId('models-open').click();
    const first = page.locator('[data-testid="alias-item"][data-alias="first"]');
    await first.getByTestId('alias-edit').click();
    await expect.poll(() => page.getByTestId('alias-name').inputValue()).toBe('first');
    await first.getByTestId('alias-delete').click();
    await first.getByTestId('alias-delete-confirm').click();
    await expect.poll(() => first.count()).toBe(0);
    // Before, the form kept the deleted alias and said "This alias was deleted in another window or tab; saving adds
    // it again as a new alias", and the focus fell to <body> with the row.
    expect(await page.getByTestId('alias-elsewhere').count()).toBe(0);
    expect(await page.getByTestId('alias-name').inputValue()).toBe('');
    expect(await page.getByTestId('alias-context').inputValue()).toBe('');
    expect(await page.getByTestId('alias-save').textContent()).toBe('Add alias');
    // The focus goes to the alias that takes its place in the list.
    await expect.poll(focused).toBe('BUTTON alias-edit');
    expect(await page.evaluate(() => document.activeElement?.closest('[data-testid="alias-item"]')?.getAttribute('data-alias'))).toBe('second');
    await shootAtBothWidths(page, 'alias-deleted-while-edited', '[data-testid="alias-editor"]');
    // The last one deleted: the focus goes to the form's Name, to add one.
    const second = page.locator('[data-testid="alias-item"][data-alias="second"]');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect.poll(focused).toBe('BUTTON alias-delete');
    await page.keyboard.press('Enter');
    await expect.poll(focused).toBe('BUTTON alias-delete-keep');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => second.count()).toBe(0);
    await expect.poll(focused).toBe('INPUT alias-name');
  });

  it('takes the focus into the form on Edit, with the form in view on a phone, and gives it back to that Edit on Cancel and Save', async () => {
    const names = Array.from({ length: 14 }, (_, i) => `alias-${String(i).padStart(2, '0')}`);
    await page.evaluate(async (list) => {
      for (const a of list) await window.firebrand.aliases.create(a);
    }, names.map(alias));
    await page.getByTestId('models-open').click();
    await page.setViewportSize({ width: 390, height: 844 });
    const row = page.locator('[data-testid="alias-item"][data-alias="alias-01"]');
    await row.getByTestId('alias-edit').focus();
    await page.keyboard.press('Enter');
    // Before, the focus stayed on Edit and the form was some screens below it: nothing seemed to happen.
    await expect.poll(focused).toBe('INPUT alias-name');
    expect(await page.getByTestId('alias-name').inputValue()).toBe('alias-01');
    expect(await page.getByTestId('alias-form-title').textContent()).toBe('Edit alias-01');
    /** Whether the whole of `testId` is in the part of the dialog's body on screen. */
    const inView = (testId: string) =>
      page.evaluate((id) => {
        const el = document.querySelector(`[data-testid="${id}"]`)!.getBoundingClientRect();
        const body = document.querySelector('[data-testid="models-screen"] .modal-body')!.getBoundingClientRect();
        return el.top >= body.top - 1 && el.bottom <= Math.min(body.bottom, window.innerHeight) + 1;
      }, testId);
    await expect.poll(() => inView('alias-form-title')).toBe(true);
    expect(await inView('alias-name')).toBe(true);
    await shootAtBothWidths(page, 'alias-edit-focus', '[data-testid="alias-name"]');
    await page.setViewportSize({ width: 390, height: 844 });
    // Cancel gives the focus back to the Edit it came from (it fell to <body>).
    await page.getByTestId('alias-cancel').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('alias-form-title').textContent()).toBe('New alias');
    await expect.poll(focused).toBe('BUTTON alias-edit');
    expect(await page.evaluate(() => document.activeElement?.closest('[data-testid="alias-item"]')?.getAttribute('data-alias'))).toBe('alias-01');
    // Saved (Enter in a field), renamed: the focus goes to the Edit of the row under its new name.
    await page.keyboard.press('Enter');
    await expect.poll(focused).toBe('INPUT alias-name');
    await page.getByTestId('alias-name').fill('alias-01-renamed');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('alias-form-title').textContent()).toBe('New alias');
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[data-testid="alias-item"]')?.getAttribute('data-alias') ?? null)).toBe('alias-01-renamed');
    expect(await focused()).toBe('BUTTON alias-edit');
  });
});
