/**
 * The walking skeleton, as a user meets it: serve mode against an Ollama replay, a message sent from Chromium,
 * the answer growing on screen before it completes, and the conversation still there after a restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ollamaRoutes } from '../replay-server/ollama-wire';
import { startReplayServer, type ReplayServer } from '../replay-server/replay-server';
import { launchChromium } from './helpers/browser';
import { startServeProcess, type ServeProcess } from './helpers/serve-process';

const ANSWER = 'The sky looks blue because air scatters short blue wavelengths of sunlight far more than red ones.'.split(/(?<= )/);

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
  replay.setRoutes(ollamaRoutes(ANSWER));
  replay.requests.length = 0;
  page = await browser.newPage();
});
afterEach(async () => {
  await page?.close();
  await serve?.stop();
  serve = undefined;
  rmSync(dataDir, { recursive: true, force: true });
});

async function openApp(ollamaUrl = replay.url): Promise<void> {
  serve = await startServeProcess({ dataDir, ollamaUrl });
  await page.goto(serve.url);
}

const ASSISTANT = '[data-testid="turn"][data-role="assistant"]';
const USER = '[data-testid="turn"][data-role="user"]';
const ANSWER_RUN = '[data-run="answer"]';
const assistant = () => page.locator(ASSISTANT);
/** The answer runs render as markdown, whose block elements add edge whitespace; the words are what count. */
const answerText = async (nth = 0) => (await assistant().nth(nth).locator(ANSWER_RUN).textContent())?.trim();

async function send(text: string): Promise<void> {
  await page.getByTestId('composer-input').fill(text);
  await page.getByTestId('composer-send').click();
}

describe('chatting in serve mode', () => {
  it('streams the answer onto the screen and keeps the conversation across a restart', async () => {
    await openApp();
    await expect.poll(() => page.getByTestId('model-picker').inputValue()).toBe('llama3.2:3b');

    // Record every distinct text the answer shows, frame by frame, from before the send.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __paints: string[] }).__paints = seen;
      const tick = () => {
        const el = document.querySelector('[data-testid="turn"][data-role="assistant"] [data-run="answer"]');
        const text = (el?.textContent ?? '').trim();
        if (text && seen[seen.length - 1] !== text) seen.push(text);
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    await send('Why is the sky blue?');

    const full = ANSWER.join('');
    await expect.poll(() => assistant().getAttribute('data-status'), { timeout: 15_000 }).toBe('done');
    await expect(answerText()).resolves.toBe(full.trim());
    const paints = await page.evaluate(() => (window as unknown as { __paints: string[] }).__paints);
    const partial = paints.filter((p) => p !== full.trim() && full.startsWith(p));
    expect(partial.length).toBeGreaterThanOrEqual(3);

    // The request that reached the server carried the user's text and the chosen model.
    const chat = replay.requests.find((r) => r.path === '/api/chat');
    expect(JSON.parse(chat?.body ?? '{}')).toMatchObject({ model: 'llama3.2:3b', stream: true });
    expect(chat?.body).toContain('Why is the sky blue?');

    await serve?.stop();
    await openApp();
    await page.getByTestId('conversation-item').filter({ hasText: 'Why is the sky blue?' }).click();
    await expect.poll(() => answerText()).toBe(full.trim());
    await expect(page.locator(USER).textContent()).resolves.toContain('Why is the sky blue?');
  });

  it('says the server cannot be reached, and keeps the message the user wrote', async () => {
    const flaky = await startReplayServer(ollamaRoutes(ANSWER));
    await openApp(flaky.url);
    await expect.poll(() => page.getByTestId('model-picker').inputValue()).toBe('llama3.2:3b');
    await flaky.close(); // the server goes away after the app found its models
    await send('Are you there?');
    await expect.poll(() => page.getByTestId('turn-error').textContent()).toContain('Cannot reach Ollama');
    await expect.poll(() => page.locator(USER).textContent()).toContain('Are you there?');

    // Opened while the server is down: the model list says so, and the draft stays in the composer.
    await page.reload();
    await expect.poll(() => page.getByTestId('models-error').textContent()).toContain('Cannot reach Ollama');
    await page.getByTestId('composer-input').fill('Is anyone there?');
    expect(await page.getByTestId('composer-send').isDisabled()).toBe(true);
    expect(await page.getByTestId('composer-input').inputValue()).toBe('Is anyone there?');
  });

  it('shows the server message for an unknown model and keeps the user turn', async () => {
    replay.setRoutes([
      ...ollamaRoutes(ANSWER).filter((r) => r.path !== '/api/chat'),
      { method: 'POST', path: '/api/chat', status: 404, body: '{"error":"model \\"llama3.2:3b\\" not found, try pulling it first"}' },
    ]);
    await openApp();
    await expect.poll(() => page.getByTestId('model-picker').inputValue()).toBe('llama3.2:3b');
    await send('Hello there');
    await expect.poll(() => page.getByTestId('turn-error').textContent()).toContain('not found, try pulling it first');
    await expect.poll(() => page.locator(USER).textContent()).toContain('Hello there');
    await expect.poll(() => assistant().getAttribute('data-status')).toBe('error');
  });

  it('marks a cut stream, keeps what arrived, and the next message works', async () => {
    const cut = ollamaRoutes(ANSWER, { cutAfterBytes: 600 });
    replay.setRoutes(cut);
    await openApp();
    await expect.poll(() => page.getByTestId('model-picker').inputValue()).toBe('llama3.2:3b');
    await send('Tell me about the sky');
    await expect.poll(() => assistant().getAttribute('data-status'), { timeout: 15_000 }).toBe('cut');
    await expect.poll(() => page.getByTestId('turn-error').textContent()).toContain('connection closed before the answer was finished');
    const kept = await answerText();
    expect(kept && ANSWER.join('').startsWith(kept) && kept.length > 0).toBe(true);

    replay.setRoutes(ollamaRoutes(['All', ' good', ' now.']));
    await send('Try again');
    await expect.poll(() => assistant().nth(1).getAttribute('data-status'), { timeout: 15_000 }).toBe('done');
    await expect.poll(() => assistant().nth(1).textContent()).toContain('All good now.');
  });
});
