/**
 * The Models screen's rows as a user meets them (models round 2), in serve mode against an Ollama replay: a model's
 * Details fold when clicked again; the focus stays where the user was as a pull or a download changes state (Pull,
 * Cancel, Pull again, Dismiss, Pause, Resume) and as a models-folder file is renamed, where it fell to <body> with
 * the button that went; a llama-server model's row shows its size and parameters, not a lone "—".
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ollamaRoutes, TAGS_BODY } from '../replay-server/ollama-wire';
import { startReplayServer, type ReplayRoute, type ReplayServer } from '../replay-server/replay-server';
import { generateScriptedModel } from '../support/scripted-gguf/generate';
import { SCRIPTS } from '../support/scripted-gguf/scripts';
import { launchChromium, openPage } from './helpers/browser';
import { shootAtBothWidths } from './helpers/screenshots';
import { startServeProcess, type ServeProcess } from './helpers/serve-process';

const fx = (p: string) => readFileSync(new URL(`../fixtures/ollama-models/${p}`, import.meta.url), 'utf8');
// Real llama-server captures, shared by the project; read in place, never copied.
const CONFORMANCE = resolve(import.meta.dirname, '../../../shared/conformance/llama-server');

let browser: Browser;
let replay: ReplayServer;
let dataDir: string;
let serve: ServeProcess | undefined;
let page: Page;

function routes(pull: Partial<ReplayRoute> = {}): ReplayRoute[] {
  return [
    ...ollamaRoutes(['Hi']).filter((r) => r.path !== '/api/tags'),
    { path: '/api/tags', body: TAGS_BODY },
    { method: 'POST', path: '/api/show', body: fx('show-qwen3-14b.json') },
    { path: '/api/ps', body: '{"models":[]}' },
    // Held part-way: still running when Cancel is pressed, on any machine.
    { method: 'POST', path: '/api/pull', body: fx('pull-llama3.2-1b.ndjson'), chunk: 'lines', headers: { 'content-type': 'application/x-ndjson' }, holdAfterChunks: 10, ...pull },
  ];
}

beforeAll(async () => {
  browser = await launchChromium();
  replay = await startReplayServer();
});
afterAll(async () => {
  await browser?.close();
  await replay?.close();
});
beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'firebrand-e2e-models-rows-'));
  replay.setRoutes(routes());
  page = await openPage(browser);
});
afterEach(async () => {
  await page?.close();
  await serve?.stop();
  serve = undefined;
  rmSync(dataDir, { recursive: true, force: true });
});

/** The focused control's test id (its tag where it has none: BODY when the focus fell). */
const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? '');

async function open(): Promise<void> {
  serve = await startServeProcess({ dataDir, ollamaUrl: replay.url });
  await page.goto(serve.url);
  await page.getByTestId('models-open').click();
}

describe('the rows of the Models screen', () => {
  it("folds a model's Details when Details is clicked again, and says whether they are open (aria-expanded)", async () => {
    await open();
    const row = page.locator('[data-testid="model-row"][data-model="qwen3:8b"]');
    const details = row.getByTestId('model-details');
    expect(await details.getAttribute('aria-expanded')).toBe('false');
    await details.click();
    await expect.poll(() => row.getByTestId('model-details-view').count()).toBe(1);
    expect(await details.getAttribute('aria-expanded')).toBe('true');
    expect(await details.getAttribute('aria-controls')).toBe(await row.getByTestId('model-details-view').getAttribute('id'));
    // Before, the second click asked for them again and they stayed open.
    await details.click();
    await expect.poll(() => row.getByTestId('model-details-view').count()).toBe(0);
    expect(await details.getAttribute('aria-expanded')).toBe('false');
    expect(await focused()).toBe('model-details');
  });

  it('keeps the focus on a pull: Pull → its Cancel → "Pull again" in its place → the new pull\'s Cancel; Dismiss → the Pull box', async () => {
    await open();
    await page.getByTestId('pull-input').fill('llama3.2:1b');
    await page.getByTestId('pull-button').click();
    // Pull disables as the box empties: the focus fell to <body>.
    await expect.poll(focused).toBe('pull-cancel');
    await expect.poll(() => replay.held).toBe(1);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('pull-progress').getAttribute('data-state')).toBe('cancelled');
    expect(await focused()).toBe('pull-retry');
    await shootAtBothWidths(page, 'models-pull-cancelled', '[data-testid="pull-progress"]');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('pull-progress').getAttribute('data-state')).toBe('running');
    await expect.poll(focused).toBe('pull-cancel');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('pull-progress').getAttribute('data-state')).toBe('cancelled');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('pull-dismiss');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('pull-progress').count()).toBe(0);
    await expect.poll(focused).toBe('pull-input');
  });

  it('keeps the focus on Enter in the Pull box, for the next name', async () => {
    await open();
    await page.getByTestId('pull-input').fill('llama3.2:1b');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('pull-progress').count()).toBe(1);
    expect(await focused()).toBe('pull-input');
  });

  it('keeps the focus on Pause as it turns into Resume, and back', async () => {
    // A file server that sends part of the file and then holds: the download runs until paused, on any machine.
    const model = readFileSync(generateScriptedModel(SCRIPTS.plain));
    const files: Server = createServer((req, res) => {
      const from = Number(/bytes=(\d+)-/.exec(req.headers.range ?? '')?.[1] ?? 0);
      const rest = model.subarray(from);
      res.writeHead(from > 0 ? 206 : 200, {
        'accept-ranges': 'bytes',
        'content-length': String(rest.length),
        ...(from > 0 ? { 'content-range': `bytes ${from}-${model.length - 1}/${model.length}` } : {}),
      });
      if (req.method === 'HEAD') res.end();
      else res.write(rest.subarray(0, 4096));
    });
    await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
    try {
      const a = files.address();
      await open();
      await page.getByTestId('library-download-url').fill(`http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}/m/plain-dl.gguf`);
      await page.getByTestId('library-download-start').click();
      const row = page.getByTestId('library-download-progress');
      await expect.poll(() => row.getAttribute('data-state')).toBe('running');
      await row.getByTestId('library-download-pause').focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => row.getAttribute('data-state')).toBe('paused');
      // Before, Pause went and Resume came as another button: the focus fell to <body>.
      expect(await focused()).toBe('library-download-resume');
      await shootAtBothWidths(page, 'models-download-paused', '[data-testid="library-download-progress"]');
      await page.keyboard.press('Enter');
      await expect.poll(() => row.getAttribute('data-state')).toBe('running');
      expect(await focused()).toBe('library-download-pause');
      await row.getByTestId('library-download-cancel').click();
    } finally {
      files.closeAllConnections();
      await new Promise((r) => files.close(r));
    }
  });

  it('keeps the focus through Rename…: in the name, then on the renamed file\'s Rename…, and on Rename… after Cancel', async () => {
    mkdirSync(join(dataDir, 'models'), { recursive: true });
    writeFileSync(join(dataDir, 'models', 'plain.gguf'), readFileSync(generateScriptedModel(SCRIPTS.plain)));
    await open();
    const row = page.locator('[data-testid="library-item"][data-file="plain.gguf"]');
    await row.getByTestId('library-rename').click();
    await expect.poll(focused).toBe('library-rename-input');
    await row.getByTestId('library-rename-cancel').click();
    await expect.poll(focused).toBe('library-rename');
    await page.keyboard.press('Enter');
    await expect.poll(focused).toBe('library-rename-input');
    await page.getByTestId('library-rename-input').fill('plain-renamed.gguf');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    const renamed = page.locator('[data-testid="library-item"][data-file="plain-renamed.gguf"]');
    await expect.poll(() => renamed.count()).toBe(1);
    // Before, the row came back under its new name and the focus fell to <body>.
    await expect.poll(() => page.evaluate(() => `${document.activeElement?.getAttribute('data-testid')} in ${document.activeElement?.closest('[data-file]')?.getAttribute('data-file')}`)).toBe(
      'library-rename in plain-renamed.gguf',
    );
  });

  it.skipIf(!existsSync(CONFORMANCE))("shows a llama-server model's size and parameters from its /v1/models, never a lone \"—\"", async () => {
    replay.setRoutes([
      ...routes(),
      { path: '/health', body: '{"status":"ok"}' },
      { path: '/props', body: JSON.stringify({ default_generation_settings: { n_ctx: 4096 }, chat_template: '{{ messages }}' }) },
      { path: '/v1/models', body: readFileSync(resolve(CONFORMANCE, 'v1-models-deepseek.json'), 'utf8') },
    ]);
    serve = await startServeProcess({ dataDir, ollamaUrl: replay.url });
    await page.goto(serve.url);
    const id = await page.evaluate((url) => window.firebrand.connections.save({ kind: 'llama-server', label: 'Local llama', baseUrl: url }).then((c) => c.id), replay.url);
    await page.evaluate((c) => window.firebrand.settings.update({ activeConnectionId: c }), id);
    await page.reload();
    await page.getByTestId('models-open').click();
    const row = page.locator('[data-testid="model-row"][data-model="scripted-a-plain.gguf"]');
    await expect.poll(() => row.getByTestId('model-facts').textContent()).toBe('2.6 MiB · 674K');
    expect(await row.innerText()).not.toMatch(/^—$/m);
    await shootAtBothWidths(page, 'models-llama-server-row', '[data-testid="model-row"]');
  });
});
