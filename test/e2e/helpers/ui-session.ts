/**
 * One Firebrand in serve mode against the replay server, driven from Chromium: the setup every ui-*.e2e test
 * shares, plus Ollama streams shaped for the UI cases (native thinking, tool calls, a chosen done_reason).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { ollamaRoutes, TAGS_BODY } from '../../replay-server/ollama-wire';
import { startReplayServer, type ReplayRoute, type ReplayServer } from '../../replay-server/replay-server';
import { launchChromium, openPage } from './browser';
import { startServeProcess, type ServeProcess } from './serve-process';
import { modelOption } from './picker';

export { expectPicked, modelOption, pickerValues, pickModel } from './picker';

export interface UiSession {
  browser: Browser;
  replay: ReplayServer;
  page: Page;
  serve: ServeProcess;
  dataDir: string;
}

export const ASSISTANT = '[data-testid="turn"][data-role="assistant"]';
export const USER = '[data-testid="turn"][data-role="user"]';

/** `beforeOpen` runs on the page before it loads the app (routing its WebSocket through the test, say). */
export async function startUi(routes: ReplayRoute[] = ollamaRoutes(['Hello', ' there.']), beforeOpen?: (page: Page) => Promise<void>): Promise<UiSession> {
  const browser = await launchChromium();
  const replay = await startReplayServer(routes);
  const dataDir = mkdtempSync(join(tmpdir(), 'firebrand-ui-'));
  const serve = await startServeProcess({ dataDir, ollamaUrl: replay.url });
  const page = await openPage(browser, { viewport: { width: 1280, height: 800 } });
  await beforeOpen?.(page);
  await page.goto(serve.url);
  await modelOption(page, 'llama3.2:3b').waitFor({ state: 'attached' });
  return { browser, replay, page, serve, dataDir };
}



export async function stopUi(s: UiSession | undefined): Promise<void> {
  if (!s) return;
  await s.page.close().catch(() => undefined);
  await s.browser.close();
  await s.serve.stop();
  await s.replay.close();
  rmSync(s.dataDir, { recursive: true, force: true });
}

export async function send(page: Page, text: string): Promise<void> {
  await page.getByTestId('composer-input').fill(text);
  await page.getByTestId('composer-send').click();
  // The draft empties once main accepted the message: from then on its turns are in the view.
  await page.waitForFunction(() => (document.querySelector('[data-testid="composer-input"]') as HTMLTextAreaElement | null)?.value === '');
}

export function assistant(page: Page, nth = 0): Locator {
  return page.locator(ASSISTANT).nth(nth);
}

/** Waits until an answer is on screen and none streams any more. */
export async function waitIdle(page: Page): Promise<void> {
  await page.waitForFunction(
    () => document.querySelector('[data-testid="turn"][data-role="assistant"]') !== null && document.querySelector('[data-testid="turn"][data-status="streaming"]') === null,
  );
}

/** Sends each message in a chat of its own (New chat before each but the first) and waits for its answer. */
export async function sendInChats(page: Page, messages: string[]): Promise<void> {
  for (const [i, message] of messages.entries()) {
    if (i > 0) await page.getByTestId('new-chat').click();
    await send(page, message);
    await waitIdle(page);
  }
}

/**
 * A second tab on the same serve mode with the session's (most recent) chat open and idle: the resilience cases of
 * serve mode open twice. The caller closes it.
 */
export async function openChatInOtherTab(s: UiSession): Promise<Page> {
  const other = await openPage(s.browser, { viewport: { width: 1280, height: 800 } });
  try {
    await other.goto(s.serve.url);
    await other.getByTestId('conversation-item').first().click();
    await waitIdle(other);
    return other;
  } catch (err) {
    await other.close();
    throw err;
  }
}

type OllamaLine = { thinking?: string; content?: string; tool_calls?: unknown[] };

/** An `/api/chat` NDJSON body: one line per entry, then a done line with `doneReason`. */
export function ollamaLines(lines: OllamaLine[], doneReason = 'stop', model = 'llama3.2:3b'): string {
  const created = '2026-11-30T08:00:00.000000000Z';
  const out = lines.map((m) => JSON.stringify({ model, created_at: created, message: { role: 'assistant', content: '', ...m }, done: false }));
  out.push(
    JSON.stringify({
      model,
      created_at: created,
      message: { role: 'assistant', content: '' },
      done_reason: doneReason,
      done: true,
      total_duration: 912000000,
      prompt_eval_count: 26,
      prompt_eval_duration: 130000000,
      eval_count: lines.length,
      eval_duration: 760000000,
    }),
  );
  return out.map((l) => `${l}\n`).join('');
}

/**
 * Routes for an Ollama whose chat answers with `body` one line at a time, `delayMs` apart (pace only). With
 * `holdAfterLines` the answer stops there until `replay.release()`: a test that must see it mid-stream holds it.
 */
export function chatRoutes(body: string, delayMs = 40, holdAfterLines?: number | number[]): ReplayRoute[] {
  return [
    { path: '/api/tags', body: TAGS_BODY },
    { path: '/api/version', body: '{"version":"0.12.6"}' },
    {
      method: 'POST',
      path: '/api/chat',
      body,
      chunk: 'lines',
      delayMs,
      headers: { 'content-type': 'application/x-ndjson' },
      ...(holdAfterLines !== undefined ? { holdAfterChunks: holdAfterLines } : {}),
    },
  ];
}

/** The bodies of the chat requests the replay server received, parsed. */
export function chatRequests(replay: ReplayServer): { messages: { role: string; content: string; images?: string[] }[] }[] {
  return replay.requests.filter((r) => r.path === '/api/chat').map((r) => JSON.parse(r.body) as { messages: { role: string; content: string; images?: string[] }[] });
}

/**
 * The chat requests that asked for an answer, without the title lane's. A chat's title is asked for after an answer
 * ends, so it can land after the answer a test just waited for: the last answer request is not the last request.
 */
export function answerRequests(replay: ReplayServer): ReturnType<typeof chatRequests> {
  return chatRequests(replay).filter((r) => !r.messages.some((m) => m.content.startsWith('Write a title')));
}
