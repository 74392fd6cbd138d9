/**
 * `npm run screenshots`: Firebrand in serve mode against the stand-in server (test/replay-server), driven in
 * Chromium, writes PNGs of the main screens in light and dark at 1280×800 and 390×844 into `screenshots/`
 * (not committed). `--out DIR` writes elsewhere. `--docs` also writes the few the README shows into
 * docs/screenshots/, as small palette PNGs (committed).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { buildIfStale } from './build-if-stale.mjs';
import { launchChromium } from '../test/e2e/helpers/browser';
import { startServeProcess } from '../test/e2e/helpers/serve-process';
import { ollamaLines } from '../test/e2e/helpers/ui-session';
import { TAGS_BODY } from '../test/replay-server/ollama-wire';
import { startReplayServer, type ReplayRoute } from '../test/replay-server/replay-server';

const root = resolve(import.meta.dirname, '..');
const outArg = process.argv.indexOf('--out');
const OUT = resolve(outArg > 0 ? (process.argv[outArg + 1] ?? 'screenshots') : join(root, 'screenshots'));

const ANSWERS = [
  ollamaLines([
    { thinking: 'They want the difference in practice. A table, a command each, and the context question.' },
    { content: 'Both run models on your own machine; they differ in how you drive them.\n\n' },
    { content: '| | Ollama | llama-server |\n|---|---|---|\n| API | `/api/chat` | `/v1/chat/completions` |\n| Models | pulled by name | one GGUF per process |\n| Window | per request (`num_ctx`) | fixed at start (`-c`) |\n\n' },
    { content: 'Start one like this:\n\n```bash\nollama serve\nllama-server -m qwen3-8b.gguf -c 16384 --port 8080\n```\n\n' },
    { content: 'The KV cache grows linearly with the window: for $n$ tokens it takes $$\\text{bytes} = 2 \\cdot L \\cdot h_{kv} \\cdot d \\cdot n \\cdot b$$ where $b$ is 2 for an f16 cache.' },
  ]),
  ollamaLines([{ content: 'Run `ollama ps`: it lists each loaded model with the memory it holds on the GPU and when it unloads.' }]),
];

function routes(chat: string): ReplayRoute[] {
  return [
    { path: '/api/tags', body: TAGS_BODY },
    { path: '/api/version', body: '{"version":"0.12.6"}' },
    { method: 'POST', path: '/api/show', body: '{"capabilities":["completion","tools","thinking"],"model_info":{"general.architecture":"qwen3","qwen3.context_length":40960}}' },
    { path: '/api/ps', body: '{"models":[]}' },
    { method: 'POST', path: '/api/chat', body: chat, chunk: 'lines', delayMs: 5, headers: { 'content-type': 'application/x-ndjson' } },
  ];
}

async function settle(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));
}

async function main(): Promise<void> {
  buildIfStale(root);
  mkdirSync(OUT, { recursive: true });
  const replay = await startReplayServer(routes(ANSWERS[0] ?? ''));
  const dataDir = mkdtempSync(join(tmpdir(), 'firebrand-shots-'));
  const serve = await startServeProcess({ dataDir, ollamaUrl: replay.url });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(serve.url);
    await page.locator('[role="option"][data-value="llama3.2:3b"]').waitFor({ state: 'attached' });
    for (const [i, text] of ['How do Ollama and llama-server differ?', 'How do I see what is loaded?'].entries()) {
      replay.setRoutes(routes(ANSWERS[i] ?? ''));
      await page.getByTestId('composer-input').fill(text);
      await page.getByTestId('composer-send').click();
      await page.waitForFunction((n) => document.querySelectorAll('[data-testid="turn"][data-role="assistant"][data-status="done"]').length >= n, i + 1);
    }
    await page.close();

    for (const theme of ['dark', 'light'] as const) {
      for (const [w, h] of [
        [1280, 800],
        [390, 844],
      ] as const) {
        const phone = w < 500;
        const tag = `${theme}-${w}`;
        const p = await browser.newPage({ viewport: { width: w, height: h }, colorScheme: theme, deviceScaleFactor: phone ? 2 : 1 });
        await p.goto(serve.url);
        await p.locator('[role="option"][data-value="llama3.2:3b"]').waitFor({ state: 'attached' });
        const shot = async (name: string) => {
          await settle(p);
          await p.screenshot({ path: join(OUT, `${name}-${tag}.png`) });
        };
        await shot('empty');
        if (phone) {
          await p.getByTestId('sidebar-toggle').click();
          await p.getByTestId('new-chat').waitFor({ state: 'visible' });
          // The drawer slides in: the picture is taken once it is in place.
          await p.waitForFunction(() => document.querySelector('#sidebar')?.getBoundingClientRect().left === 0);
          await shot('drawer');
          await p.keyboard.press('Escape');
        }
        if (phone) await p.getByTestId('sidebar-toggle').click();
        await p.getByTestId('conversation-item').first().click();
        await p.locator('[data-testid="turn"][data-role="assistant"]').last().waitFor();
        await p.getByTestId('composer-input').fill('A draft with a question');
        await shot('chat');
        await p.getByTestId('model-picker').click();
        await shot('picker');
        await p.keyboard.press('Escape');
        if (phone) await p.getByTestId('sidebar-toggle').click();
        await p.getByTestId('search-input').fill('loaded');
        await p.getByTestId('search-result').first().waitFor();
        await shot('search');
        await p.getByTestId('search-result').first().click();
        await p.locator('[data-search-hit]').waitFor();
        await shot('search-hit');
        if (phone) await p.getByTestId('sidebar-toggle').click();
        await p.getByTestId('search-input').fill('');
        await p.getByTestId('settings-open').click();
        await p.getByTestId('settings-dialog').waitFor();
        await shot('settings');
        await p.keyboard.press('Escape');
        await p.getByTestId('settings-dialog').waitFor({ state: 'detached' });
        if (phone) await p.getByTestId('sidebar-toggle').click();
        await p.getByTestId('models-open').click();
        await p.getByTestId('models-screen').waitFor();
        await shot('models');
        await p.close();
      }
    }
    console.log(`Screenshots in ${OUT}`);
    if (process.argv.includes('--docs')) await writeDocs();
  } finally {
    await browser.close();
    await serve.stop();
    await replay.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The README's pictures: a few screens, as 256-colour PNGs (a UI needs no more, and they stay small in git). */
async function writeDocs(): Promise<void> {
  const docs = join(root, 'docs/screenshots');
  mkdirSync(docs, { recursive: true });
  const picks: [string, string][] = [
    ['chat-dark-1280', 'chat-dark'],
    ['chat-light-1280', 'chat-light'],
    ['chat-dark-390', 'phone-dark'],
    ['drawer-light-390', 'phone-drawer-light'],
    ['models-light-1280', 'models-light'],
  ];
  for (const [from, to] of picks) {
    const width = from.endsWith('-390') ? 390 : 1280;
    await sharp(join(OUT, `${from}.png`)).resize({ width }).png({ palette: true, quality: 80, compressionLevel: 9 }).toFile(join(docs, `${to}.png`));
  }
  console.log(`README pictures in ${docs}`);
}

await main();
