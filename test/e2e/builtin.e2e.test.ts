/**
 * The built-in engine through the UI in serve mode, with no Ollama and no llama-server anywhere: the models
 * folder given with `--models-dir`, a GGUF downloaded from a URL in Models (a local server that speaks Range),
 * the built-in connection made active in Settings, the picker listing the files, and a real answer from a
 * scripted model, reasoning shown apart.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateScriptedModel } from '../support/scripted-gguf/generate';
import { PLAIN_ANSWER, REASONING, SCRIPTS } from '../support/scripted-gguf/scripts';
import { launchChromium } from './helpers/browser';
import { startServeProcess, type ServeProcess } from './helpers/serve-process';
import { modelOption, pickerValues, pickModel } from './helpers/picker';

let dir: string;
let modelsDir: string;
let serve: ServeProcess;
let browser: Browser;
let page: Page;
let files: Server;
let fileUrl: string;
let plain: Buffer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'firebrand-builtin-e2e-'));
  modelsDir = join(dir, 'my-models');
  mkdirSync(join(modelsDir, 'scripted'), { recursive: true });
  copyFileSync(generateScriptedModel(SCRIPTS.reasoning), join(modelsDir, 'scripted', 'thinker.gguf'));
  plain = readFileSync(generateScriptedModel(SCRIPTS.plain));
  files = createServer((req, res) => {
    const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const from = m ? Number(m[1]) : 0;
    res.writeHead(m ? 206 : 200, { 'accept-ranges': 'bytes', 'content-length': String(plain.length - from) });
    res.end(req.method === 'HEAD' ? undefined : plain.subarray(from));
  });
  await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
  const a = files.address();
  fileUrl = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}/files/weather.gguf`;
  // One engine thread: the CI machine's two cores are shared.
  process.env.FIREBRAND_BUILTIN_THREADS = '1';
  // Nothing listens on this Ollama address: the app must work without it.
  serve = await startServeProcess({ dataDir: join(dir, 'data'), ollamaUrl: 'http://127.0.0.1:9', extraArgs: ['--models-dir', modelsDir] });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(serve.url);
});

afterAll(async () => {
  await browser?.close();
  await serve?.stop();
  await new Promise<void>((r) => files?.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

describe('built-in llama.cpp through the UI', () => {
  it('on a first start, with Ollama away and a GGUF in the folder, says to choose Built-in instead of waiting for a window, and blames no server for another’s failure (first-hour audit F1, F2, F6)', async () => {
    // Before: the picker said "No models yet: pull or add one in Models." (the GGUF was there already, and Models
    // listed it), and the meter read "0 / … reading the window…" for ever.
    const hint = 'Ollama cannot be reached: start it, or change its address in Settings → Connections. Your models folder has a GGUF file: to chat with it, choose Built-in (llama.cpp) in Settings → Connections.';
    const reason = page.getByTestId('composer-reason');
    await expect.poll(() => reason.textContent()).toBe(hint);
    expect(await page.getByTestId('context-meter').count()).toBe(0);
    expect(await page.getByTestId('composer-send').getAttribute('title')).toBe(hint);
    await page.getByTestId('model-picker').click();
    expect(await page.locator('.model-empty').textContent()).toBe(hint);
    await page.keyboard.press('Escape');

    // Another server made active, slow to answer: Ollama's failure is not said of it while its list is asked
    // (before: "Cannot reach Ollama…" stayed up, and the composer said the new server had no models).
    const held: ServerResponse[] = [];
    const slow = createServer((_req, res) => void held.push(res));
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    const at = slow.address();
    const slowUrl = `http://127.0.0.1:${typeof at === 'object' && at ? at.port : 0}`;
    await page.getByTestId('settings-open').click();
    await page.getByTestId('connection-add-kind').selectOption('llama-server');
    await page.getByTestId('connection-add-label').fill('Slow box');
    await page.getByTestId('connection-add-url').fill(slowUrl);
    await page.getByTestId('connection-add').click();
    const item = page.locator('[data-testid="connection-item"]').filter({ hasText: 'Slow box' });
    // What the banner and the composer say, each change in turn ("" for nothing), from before the switch.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { saidSeen: string[] }).saidSeen = seen;
      const look = () => {
        const now = [...document.querySelectorAll('[data-testid="models-error"], [data-testid="composer-reason"]')].map((n) => n.textContent ?? '').join(' | ');
        if (seen.at(-1) !== now) seen.push(now);
      };
      look();
      new MutationObserver(look).observe(document.body, { childList: true, subtree: true, characterData: true });
    });
    await item.getByTestId('connection-use').click();
    await expect.poll(() => item.getByTestId('connection-use').isChecked()).toBe(true);
    await page.getByTestId('settings-save').click();
    await page.getByRole('dialog', { name: 'Settings' }).waitFor({ state: 'detached' });
    await expect.poll(() => held.length).toBeGreaterThan(0);
    // Once it fails, that is said of it.
    slow.closeAllConnections();
    await new Promise<void>((r) => slow.close(() => r()));
    await expect.poll(() => reason.textContent()).toBe(hint.replace('Ollama cannot', 'Slow box cannot'));
    const said = await page.evaluate(() => (window as unknown as { saidSeen: string[] }).saidSeen);
    // Ollama's words went as the switch was made: nothing was said while the new server was asked.
    const lastOllama = said.findLastIndex((t) => t.includes('Ollama'));
    expect(said[lastOllama + 1]).toBe('');
    expect(said.slice(lastOllama + 1).some((t) => t.includes('Slow box cannot be reached'))).toBe(true);
  });

  it('shows the built-in connection and the models folder, and makes it the active connection', async () => {
    await page.getByTestId('settings-open').click();
    const item = page.locator('[data-testid="connection-item"][data-kind="builtin"]');
    await item.waitFor();
    expect(await item.getByTestId('connection-url').textContent()).toBe(modelsDir);
    expect(await item.getByTestId('connection-remove').count()).toBe(0);
    expect(await page.getByTestId('models-folder').inputValue()).toBe(modelsDir);
    await item.getByTestId('connection-use').click();
    await expect.poll(() => item.getByTestId('connection-use').isChecked()).toBe(true);
    await page.getByTestId('settings-save').click();
    await page.getByRole('dialog', { name: 'Settings' }).waitFor({ state: 'detached' });
  });

  it('lists the folder’s GGUFs from their metadata and downloads another by URL with progress', async () => {
    await page.getByTestId('models-open').click();
    const thinker = page.locator('[data-testid="library-item"][data-file="scripted/thinker.gguf"]');
    await thinker.waitFor();
    expect(await thinker.getAttribute('data-state')).toBe('usable');
    expect(await thinker.innerText()).toMatch(/llama · .*F32 · trained 4,096 tokens/);
    // The engine started as the built-in model was chosen; it says its build once it is up (on a busy machine, after
    // the screen opened).
    await expect.poll(() => page.getByTestId('library-backend').innerText()).toMatch(/^(CPU|CUDA|Vulkan|Metal)/);

    await page.getByTestId('library-download-url').fill(fileUrl);
    await page.getByTestId('library-download-start').click();
    const progress = page.locator('[data-testid="library-download-progress"][data-state="done"]');
    await progress.waitFor({ timeout: 60_000 });
    expect(await progress.getAttribute('data-bytes')).toBe(String(plain.length));
    expect(await progress.getAttribute('data-total')).toBe(String(plain.length));
    await page.locator('[data-testid="library-item"][data-file="weather.gguf"][data-state="usable"]').waitFor();
    await page.getByTestId('models-close').click();
  });

  it('picks a GGUF by its file name and chats with it: reasoning and answer apart', async () => {
    await expect.poll(() => pickerValues(page)).toEqual(['scripted/thinker.gguf', 'weather.gguf']);
    await pickModel(page, 'scripted/thinker.gguf');
    // The model is not loaded yet: main tells the page it loads, then that it is loaded, and the answer says so
    // meanwhile (first-hour audit F5; before, a silent "…"). The tiny model loads in 11-180 ms, so the page may
    // take both before it draws: the line itself is checked by test/renderer/model-loading.test.ts.
    await page.evaluate(() => {
      const reasons: string[] = [];
      (window as unknown as { loadReasons: string[] }).loadReasons = reasons;
      window.firebrand.library.onChanged(({ reason }) => {
        if (/^load(ing|ed):/.test(reason)) reasons.push(reason);
      });
    });
    await page.getByTestId('composer-input').fill('What is the weather in Paris?');
    await page.getByTestId('composer-send').click();
    const answer = page.locator('[data-testid="turn"][data-role="assistant"]').last();
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: 60_000 }).toBe('done');
    expect(await page.evaluate(() => (window as unknown as { loadReasons: string[] }).loadReasons)).toEqual(['loading:scripted/thinker.gguf', 'loaded:scripted/thinker.gguf']);
    expect(await page.getByTestId('model-loading').count()).toBe(0);
    // Read until the list settles: the meter's count arriving after the answer re-renders the page around it.
    await expect.poll(async () => (await answer.locator('[data-run="answer"]').innerText()).trim()).toBe(PLAIN_ANSWER);
    await answer.getByTestId('reasoning-summary').click();
    expect(await answer.locator('[data-run="reasoning"]').innerText()).toContain(REASONING);
  });

  it('notices a GGUF put in the models folder, or taken out of it, without a reload', async () => {
    copyFileSync(generateScriptedModel(SCRIPTS.plain), join(modelsDir, 'added-later.gguf'));
    // The folder is looked at every few seconds, as a server is.
    await expect.poll(() => pickerValues(page)).toContain('added-later.gguf');
    await pickModel(page, 'added-later.gguf');
    rmSync(join(modelsDir, 'added-later.gguf'));
    await expect.poll(() => pickerValues(page)).not.toContain('added-later.gguf');
    await expect.poll(() => page.getByTestId('notice').locator('.banner-text').textContent()).toContain('added-later.gguf is no longer in the models folder');
    await page.getByTestId('notice').getByTestId('banner-close').click();
  });

  it('renaming a GGUF in Models takes its aliases along: the alias row and the picker name the new file', async () => {
    await page.getByTestId('models-open').click();
    await page.getByTestId('alias-name').fill('forecaster');
    await page.getByTestId('alias-model').selectOption('weather.gguf');
    await page.getByTestId('alias-save').click();
    const alias = page.locator('[data-testid="alias-item"][data-alias="forecaster"]');
    await expect.poll(() => alias.innerText()).toMatch(/forecaster → weather\.gguf/);
    const row = page.locator('[data-testid="library-item"][data-file="weather.gguf"]');
    await row.getByTestId('library-rename').click();
    await row.getByTestId('library-rename-input').fill('forecast-v2.gguf');
    await row.getByTestId('library-rename-save').click();
    await page.locator('[data-testid="library-item"][data-file="forecast-v2.gguf"]').waitFor();
    await expect.poll(() => alias.innerText()).toMatch(/forecaster → forecast-v2\.gguf/);
    await page.getByTestId('models-close').click();
    // The alias stays usable in the picker (an alias whose model is gone is offered disabled).
    const option = modelOption(page, 'forecaster', 'alias');
    await expect.poll(() => option.getAttribute('aria-disabled')).not.toBe('true');
    await pickModel(page, 'forecaster', 'alias');
  });

  it('says why a typed window is not kept for a GGUF: not a window, or beyond its trained context (models audit #2, #4)', async () => {
    await page.getByTestId('models-open').click();
    const row = page.locator('[data-testid="library-item"][data-file="scripted/thinker.gguf"]');
    await row.getByTestId('library-context').click();
    const typed = row.getByLabel('Context window in tokens');
    await typed.fill('3072');
    await row.getByTestId('library-context-keep').click();
    await expect.poll(() => page.getByTestId('library-note').textContent()).toBe('scripted/thinker.gguf: keeps 3,072 tokens.');
    // Before, this did nothing and the note above stayed, as if it had been kept.
    await typed.fill('1.5');
    await row.getByTestId('library-context-keep').click();
    await expect.poll(() => row.getByTestId('library-context-problem').textContent()).toBe('A window is a whole number of tokens, at least 256.');
    expect(await page.getByTestId('library-note').count()).toBe(0);
    // Before, 1,000,000 was kept for a model trained for 4,096, and the engine loaded it (1.4 GB for 2.5 MiB).
    await typed.fill('1000000');
    await row.getByTestId('library-context-keep').click();
    await expect.poll(() => row.getByTestId('library-context-problem').textContent()).toBe(
      'scripted/thinker.gguf was trained for a context of 4,096 tokens, so a 1,000,000-token window is more than it can use. Keep 4,096 or less.',
    );
    await expect.poll(() => row.getByTestId('context-stored').textContent()).toContain('3,072 tokens');
    await row.getByRole('button', { name: 'Use what fits' }).click();
    await expect.poll(() => row.getByTestId('context-stored').count()).toBe(0);
    expect(await row.getByTestId('library-context-problem').count()).toBe(0);
    await page.getByTestId('models-close').click();
  });
});
