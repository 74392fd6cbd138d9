/**
 * The whole path a user takes, against a real llama-server: Firebrand in serve mode (the built app, its own
 * process), driven in Chromium. One server port: between tests it is restarted with another scripted model or
 * another `-c`, the way a user restarts llama-server in a terminal, and the page is reloaded.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../e2e/helpers/browser';
import { startServeProcess, type ServeProcess } from '../e2e/helpers/serve-process';
import { generateScriptedModel } from '../support/scripted-gguf/generate';
import { callFetchUrl, PLAIN_ANSWER, REASONING, SCRIPTS, type Script } from '../support/scripted-gguf/scripts';
import { pageServer } from './support/app';
import type { LlamaServer } from './support/llama-server';
import { ServerPool } from './support/pool';

const ASSISTANT = '[data-testid="turn"][data-role="assistant"]';
const pool = new ServerPool();
let server: LlamaServer;
let browser: Browser;
let serve: ServeProcess;
let page: Page;
let dataDir: string;
let fetched: Awaited<ReturnType<typeof pageServer>>;
/** Responses of 400 and up the page got since the last navigation (a 404 on every load was issue 13.5). */
let failed: string[] = [];

async function useModel(script: Script, ctx: number): Promise<void> {
  const model = generateScriptedModel(script, ctx > 4096 ? { contextLength: ctx } : {});
  server = pool.adopt(await server.restart({ model, ctx, alias: `scripted-${script.name}` }));
  await reload();
  await page.locator(`[role="option"][data-value="scripted-${script.name}"]`).waitFor({ state: 'attached' });
}

async function reload(): Promise<void> {
  failed = [];
  await page.reload();
  await page.getByTestId('composer-input').waitFor();
}

async function sendText(text: string): Promise<void> {
  await page.getByTestId('composer-input').fill(text);
  await page.getByTestId('composer-send').click();
  await page.waitForFunction(() => (document.querySelector('[data-testid="composer-input"]') as HTMLTextAreaElement | null)?.value === '');
}

async function newChat(): Promise<void> {
  await page.getByTestId('new-chat').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="turn"]') === null);
}

/** Whether a streaming assistant turn with an open tool call is stored (read beside the running app, WAL). */
function callOnDisk(path: string): boolean {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare("SELECT blocks FROM turns WHERE role = 'assistant' AND status = 'streaming'").all() as { blocks: string }[];
    return rows.some((r) => r.blocks.includes('"tool_call"'));
  } finally {
    db.close();
  }
}

/** Every state the meter showed since the page loaded, as "source:window" (recorded before the app's scripts run). */
function meterHistory(): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { meterSeen: string[] }).meterSeen);
}

beforeAll(async () => {
  fetched = await pageServer('Hello from the fetched page.');
  server = await pool.own(SCRIPTS.reasoning, { ctx: 8192 });
  browser = await launchChromium();
  dataDir = mkdtempSync(join(tmpdir(), 'firebrand-real-ui-'));
  // Ollama (the built-in connection) is nowhere: this user runs llama-server only.
  serve = await startServeProcess({ dataDir, ollamaUrl: 'http://127.0.0.1:9' });
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('response', (r) => void (r.status() >= 400 && failed.push(`${r.status()} ${r.url()}`)));
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { meterSeen: string[] }).meterSeen = seen;
    new MutationObserver(() => {
      const meter = document.querySelector('[data-testid="context-meter"]');
      const state = meter ? `${meter.getAttribute('data-source')}:${meter.getAttribute('data-window')}` : null;
      if (state && seen.at(-1) !== state) seen.push(state);
    }).observe(document, { subtree: true, childList: true, attributes: true });
  });
  await page.goto(serve.url);
  await page.getByTestId('composer-input').waitFor();
});

afterAll(async () => {
  await browser?.close();
  await serve?.stop();
  await pool.stopAll();
  await fetched?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('Firebrand in Chromium against a real llama-server', () => {
  it('adds the server in Settings; Save closes Settings after Test connection, with the server in use', async () => {
    await page.getByTestId('settings-open').click();
    await page.getByTestId('connection-add-kind').selectOption('llama-server');
    await page.getByTestId('connection-add-label').fill('scripted');
    await page.getByTestId('connection-add-url').fill(server.url);
    await page.getByTestId('connection-add').click();
    const item = page.locator('[data-testid="connection-item"][data-kind="llama-server"]');
    // The radio follows the saved setting, so it turns on once main has saved it.
    await item.getByTestId('connection-use').click();
    await expect.poll(() => item.getByTestId('connection-use').isChecked()).toBe(true);
    await item.getByTestId('connection-test').click();
    await expect.poll(() => item.getByTestId('connection-test-result').getAttribute('data-ok')).toBe('true');
    await expect(item.getByTestId('connection-test-result').textContent()).resolves.toContain('n_ctx 8192');
    // Save keeps the connection picked: Escape asks first, and Cancel goes back to the one in use before.
    await page.getByTestId('settings-save').click();
    await page.getByRole('dialog', { name: 'Settings' }).waitFor({ state: 'detached' });
  });

  it('shows the model with its tools and thinking badges, the Think toggle, and the server window without a default first', async () => {
    await reload();
    await page.locator('[role="option"][data-value="scripted-reasoning"]').waitFor({ state: 'attached' });
    await expect.poll(() => page.getByTestId('model-capabilities').textContent()).toMatch(/tools.*thinking|thinking.*tools/);
    await page.getByTestId('think-toggle').waitFor();
    await expect.poll(() => page.getByTestId('context-meter').getAttribute('data-window')).toBe('8192');
    expect(await page.getByTestId('context-meter').getAttribute('data-source')).toBe('server');
    expect((await meterHistory()).filter((s) => s.startsWith('fallback'))).toEqual([]);
    expect(failed).toEqual([]);
  });

  it('answers, with the reasoning shown apart from the answer', async () => {
    await sendText('What is the weather in Paris?');
    const answer = page.locator(ASSISTANT).last();
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: 30_000 }).toBe('done');
    expect((await answer.locator('[data-run="answer"]').textContent())?.trim()).toBe(PLAIN_ANSWER);
    await answer.getByTestId('reasoning-summary').click();
    await expect.poll(() => answer.locator('[data-run="reasoning"]').textContent()).toContain(REASONING);
  });

  it('a tool that needs approval: Stop is there while it waits, no second message starts, and the call is not run', async () => {
    await useModel(callFetchUrl(fetched.url), 8192);
    await newChat();
    await sendText('Read that page');
    const card = page.locator('[data-card="tool-approval"]');
    await card.getByTestId('tool-allow-once').waitFor();
    await page.getByTestId('composer-input').fill('Hello?');
    await expect.poll(() => page.getByTestId('composer-reason').textContent()).toMatch(/waits for your answer to the tool request/);
    expect(await page.getByTestId('composer-send').count()).toBe(0);
    await page.getByTestId('composer-stop').click();
    await card.getByTestId('tool-allow-once').waitFor({ state: 'detached' });
    await expect.poll(() => page.locator('[data-card="tool-call"]').first().getAttribute('data-result')).toBe('not-run');
    expect(fetched.hits()).toBe(0);
  });

  // Serve mode runs the app's real fetch_url, which reads public pages only (issue 15): the 127.0.0.1 page is
  // refused after the approval, with the reason on the card. (The engine tier fetches it for real.)
  it('allowed for the chat, the call runs and refuses this machine\'s page; at the step limit the last call says it was not run', async () => {
    await sendText('Read it, please');
    await page.locator('[data-card="tool-approval"]').last().getByTestId('tool-allow-conversation').click();
    await page.waitForFunction(() => [...document.querySelectorAll('[data-card="error"]')].some((c) => c.textContent?.includes('Stopped after')), undefined, { timeout: 60_000 });
    const cards = page.locator('[data-card="tool-call"]');
    await expect.poll(() => cards.last().getAttribute('data-result')).toBe('not-run');
    expect(await cards.last().textContent()).toContain('Not run');
    const ran = page.locator('[data-card="tool-call"][data-result="failed"]');
    expect(await ran.count()).toBeGreaterThan(0);
    expect(await ran.first().textContent()).toContain('loopback address');
    expect(fetched.hits()).toBe(0);
    expect(await page.getByText('Writing the call…').count()).toBe(0);
  });

  it('Stop mid-answer keeps what arrived', async () => {
    await useModel(SCRIPTS.long, 16_384);
    await newChat();
    await sendText('Count for me');
    const answer = page.locator(ASSISTANT).last();
    await answer.locator('[data-run="answer"]').waitFor();
    await page.getByTestId('composer-stop').click();
    await expect.poll(() => answer.getAttribute('data-status')).toBe('aborted');
    expect(await answer.locator('[data-run="answer"]').textContent()).toMatch(/^Counting/);
  });

  it('Stop while a call is being written: the card ends cut off, not "Writing the call…"', async () => {
    await useModel(SCRIPTS.malformedCall, 16_384);
    await newChat();
    await sendText('What time is it?');
    await page.locator('[data-card="tool-call"][data-state="streaming"]').waitFor();
    await page.getByTestId('composer-stop').click();
    await expect.poll(() => page.locator(ASSISTANT).last().getAttribute('data-status')).toBe('aborted');
    expect(await page.locator('[data-card="tool-call"]').last().getAttribute('data-state')).toBe('truncated');
    expect(await page.getByText('Writing the call…').count()).toBe(0);
  });

  it('the window follows llama-server restarted with another -c, with a page reload and no app restart', async () => {
    await useModel(SCRIPTS.plain, 4096);
    await expect.poll(() => page.getByTestId('context-meter').getAttribute('data-window')).toBe('4096');
    await useModel(SCRIPTS.plain, 8192);
    await expect.poll(() => page.getByTestId('context-meter').getAttribute('data-window')).toBe('8192');
  });

  // Context audit: the ratio of the server's counts to the character estimate was learned at the first send only, so
  // a new chat's first message was scaled ×1 (~820 tokens for the server's ~3,600): the meter said it fit, Send
  // was there, and the answer was refused "too long for the window". The meter's measure teaches it now.
  it('a first message the server counts over the window is said too long before Send, and nothing is sent', async () => {
    // A model this app has measured nothing of: what the page learns, it learns without a reload.
    await useModel(SCRIPTS.textThenCall, 4096);
    await newChat();
    await page.getByTestId('composer-input').fill('abcd '.repeat(650));
    await expect.poll(() => page.getByTestId('composer-send').isDisabled()).toBe(true);
    expect(await page.getByTestId('context-meter').getAttribute('class')).toContain('over');
    expect(await page.getByTestId('composer-reason').textContent()).toMatch(/too long|context window/i);
    expect(await page.locator('[data-testid="turn"]').count()).toBe(0);
    // A text unlike the tool definitions the ratio was learned from (three byte tokens a character, the estimate a
    // quarter of a token): scaled by that ratio it "fit"; the server counts the draft itself once typing pauses.
    // Sent at once, before typing paused long enough for the count: it is counted first, and not sent.
    await page.getByTestId('composer-input').fill('山'.repeat(800));
    await page.getByTestId('composer-input').press('Enter');
    await expect.poll(() => page.getByTestId('context-meter').getAttribute('data-draft-counted')).toBe('true');
    expect(await page.getByTestId('composer-send').isDisabled()).toBe(true);
    expect(await page.getByTestId('context-meter').getAttribute('class')).toContain('over');
    expect(await page.getByTestId('composer-input').inputValue()).toBe('山'.repeat(800));
    await page.getByTestId('composer-input').fill('山'.repeat(100));
    await expect.poll(() => page.getByTestId('composer-send').isDisabled()).toBe(false);
    expect(await page.locator('[data-testid="turn"]').count()).toBe(0);
    await page.getByTestId('composer-input').fill('');
  });

  // The edit form estimated an edited message by the ratio alone: a CJK edit was said to fit, Send was there, and the
  // resend was refused "too long for the window". It counts the edited text as the message box counts its draft.
  it('an edit the server counts over the window is said too long before Send, even sent at once, and the edit stays', async () => {
    await useModel(SCRIPTS.plain, 4096);
    await newChat();
    await sendText('Hello there.');
    await expect.poll(() => page.locator(ASSISTANT).last().getAttribute('data-status'), { timeout: 30_000 }).toBe('done');
    await page.locator('[data-testid="turn"][data-role="user"]').hover();
    await page.getByTestId('turn-edit').click();
    // Sent at once, before typing paused long enough for the count: it is counted first, and not sent.
    await page.getByTestId('turn-edit-input').fill('山'.repeat(800));
    await page.getByTestId('turn-edit-input').press('Enter');
    await expect.poll(() => page.getByTestId('turn-edit-send').isDisabled()).toBe(true);
    expect(await page.getByTestId('turn-edit-reason').textContent()).toMatch(/too long|context window/i);
    expect(await page.getByTestId('turn-edit-input').inputValue()).toBe('山'.repeat(800));
    expect(await page.locator('[data-testid="turn"]').count()).toBe(2);
    // One that fits is said to fit, and goes.
    await page.getByTestId('turn-edit-input').fill('山'.repeat(100));
    await expect.poll(() => page.getByTestId('turn-edit-send').isDisabled()).toBe(false);
    await page.getByTestId('turn-edit-send').click();
    await page.getByTestId('turn-edit-input').waitFor({ state: 'detached' });
    await expect.poll(() => page.locator(ASSISTANT).last().getAttribute('data-status'), { timeout: 30_000 }).toBe('done');
  });

  it('the app killed mid-call: after a restart the answer is interrupted and its card settled', async () => {
    await useModel(SCRIPTS.malformedCall, 16_384);
    await newChat();
    await sendText('What time is it, again?');
    await page.locator('[data-card="tool-call"][data-state="streaming"]').waitFor();
    // Killed once the open call is on disk (main writes a streaming turn in batches): that is the state a
    // restart finds.
    await expect.poll(() => callOnDisk(join(dataDir, 'firebrand.db')), { timeout: 30_000 }).toBe(true);
    await serve.stop('SIGKILL');
    serve = await startServeProcess({ dataDir, ollamaUrl: 'http://127.0.0.1:9' });
    await page.goto(serve.url);
    await page.getByTestId('conversation-item').first().click();
    const answer = page.locator(ASSISTANT).last();
    await expect.poll(() => answer.getAttribute('data-status')).toBe('interrupted');
    expect(await answer.locator('[data-card="tool-call"]').getAttribute('data-state')).toBe('truncated');
    expect(await page.getByText('Writing the call…').count()).toBe(0);
  });
});
