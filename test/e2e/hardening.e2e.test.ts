/**
 * Issue 15, in Chromium against serve mode: what a browser user meets.
 * - item 8: no request to another port of the same host carries the token (it used to ride in a cookie);
 * - item 13: an address without a valid token says how to get in, and a live page whose token is refused (serve
 *   mode restarted) says so instead of reconnecting forever, and its Send says why nothing went;
 * - item 14: a message the UI cannot draw shows what failed in its place; the rest of the app still works;
 * - item 7: stored bytes that are not a real image never get a blob URL (an SVG could run at the app's origin);
 * - the audit's files #3: a call cut off by a dropped link says so once the link is back, and "Reconnecting…" goes;
 * - the resilience audit's R1 and R2: a page whose link dropped catches up with main once it is back (an answer that
 *   ended in the gap stayed "streaming" for good), and a message sent while it was down is said not sent, and is not
 *   (it was said cut off, yet went out once the link was back: trying again sent it twice).
 */
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Turn } from '../../src/shared/turn';
import { BlobStore } from '../../src/main/blobs/blob-store';
import { ConversationStore } from '../../src/main/db/conversation-store';
import { createServices } from '../../src/main/services';
import { startReplayServer, type ReplayRoute, type ReplayServer } from '../replay-server/replay-server';
import { launchChromium } from './helpers/browser';
import { shootAtBothWidths } from './helpers/screenshots';
import { startServeProcess, type ServeProcess } from './helpers/serve-process';
import { ASSISTANT, chatRoutes, ollamaLines, send, USER, waitIdle } from './helpers/ui-session';

let browser: Browser;
let replay: ReplayServer;
let serve: ServeProcess | undefined;
let dataDir: string;

beforeAll(async () => {
  browser = await launchChromium();
  replay = await startReplayServer(chatRoutes(ollamaLines([{ content: 'Still here.' }])));
});
afterAll(async () => {
  await browser.close();
  await replay.close();
});
afterEach(async () => {
  await serve?.stop();
  serve = undefined;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Routes whose answer waits after its first two lines until `replay.release()`; the title request never waits. */
function heldAnswer(lines: { content: string }[]): ReplayRoute[] {
  const title = chatRoutes(ollamaLines([{ content: 'Counting' }])).filter((r) => r.path === '/api/chat');
  const answer = chatRoutes(ollamaLines(lines), 40, 2).map((r) => (r.path === '/api/chat' ? { ...r, when: (body: string) => !body.includes('Write a title') } : r));
  return [...answer, ...title];
}

async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

describe('serve mode in a browser', () => {
  it('sends the token to no other port of the same host (item 8)', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'firebrand-e2e-hard-'));
    serve = await startServeProcess({ dataDir, ollamaUrl: replay.url });
    const seen: string[] = [];
    const trap: Server = createServer((req, res) => {
      seen.push(JSON.stringify(req.headers));
      res.end('<p>another service</p>');
    });
    await new Promise<void>((r) => trap.listen(0, '127.0.0.1', () => r()));
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(serve.url);
      await page.locator('[role="option"][data-value="llama3.2:3b"]').waitFor({ state: 'attached' });
      // A model-written link to another service on 127.0.0.1, opened in the same browser.
      const other = await context.newPage();
      await other.goto(`http://127.0.0.1:${(trap.address() as AddressInfo).port}/`);
      // The page and whatever else the browser asks that service for (its favicon): none carries the token.
      expect(seen.length).toBeGreaterThan(0);
      for (const headers of seen) expect(headers).not.toContain(serve.token);
      expect((await context.cookies()).map((c) => c.value)).not.toContain(serve.token);
    } finally {
      await context.close();
      await new Promise<void>((r) => trap.close(() => r()));
    }
  });

  it('says how to get in, without a token and after a restart with a new one (item 13)', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'firebrand-e2e-hard-'));
    const port = await freePort();
    const first = '0123456789abcdef0123456789abcdef';
    serve = await startServeProcess({ dataDir, ollamaUrl: replay.url, extraArgs: ['--port', String(port), '--token', first] });
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const bare = await page.goto(`http://127.0.0.1:${port}/`);
      expect(bare?.status()).toBe(401);
      expect(await page.textContent('body')).toContain('open the address serve mode printed when it started');

      await page.goto(`http://127.0.0.1:${port}/?token=${first}`);
      await page.locator('[role="option"][data-value="llama3.2:3b"]').waitFor({ state: 'attached' });
      // Serve mode restarts with another token: this page's token is refused from now on.
      await serve.stop();
      serve = await startServeProcess({ dataDir, ollamaUrl: replay.url, extraArgs: ['--port', String(port), '--token', 'fedcba9876543210fedcba9876543210'] });
      await expect
        .poll(() => page.getByTestId('serve-problem').locator('.banner-text').textContent().catch(() => ''), { timeout: 30_000 })
        .toBe('This page’s token is no longer accepted (serve mode was restarted). Open the address it printed this time.');
    } finally {
      await context.close();
    }
  });

  // What was typed in a page whose token was refused (or in the second before: a draft is saved once the typing
  // pauses) never reached main, and opening the address serve mode printed this time lost it.
  it('keeps what was typed in a page whose token a restart refused, once the new address is open', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'firebrand-e2e-hard-'));
    const port = await freePort();
    serve = await startServeProcess({ dataDir, ollamaUrl: replay.url, extraArgs: ['--port', String(port), '--token', '0123456789abcdef0123456789abcdef'] });
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(serve.url);
      await page.locator('[role="option"][data-value="llama3.2:3b"]').waitFor({ state: 'attached' });
      await send(page, 'Hello');
      await waitIdle(page);
      await serve.stop();
      serve = await startServeProcess({ dataDir, ollamaUrl: replay.url, extraArgs: ['--port', String(port), '--token', 'fedcba9876543210fedcba9876543210'] });
      await expect
        .poll(() => page.getByTestId('serve-problem').locator('.banner-text').textContent().catch(() => ''), { timeout: 30_000 })
        .toBe('This page’s token is no longer accepted (serve mode was restarted). Open the address it printed this time.');
      await page.getByTestId('composer-input').fill('Typed after the restart');
      // Send says why nothing went, in words of its own (it did nothing the user could see: its failure was the
      // banner's words, hidden under it), even with that banner closed; the message stays in the box.
      await page.getByTestId('serve-problem').getByTestId('banner-close').click();
      await page.getByTestId('composer-send').click();
      await expect
        .poll(() => page.getByTestId('notice').locator('.banner-text').textContent().catch(() => ''))
        .toBe('Sending the message did not start: this page’s token is no longer accepted (serve mode was restarted). Open the address it printed this time. Your message is kept.');
      expect(await page.getByTestId('notice').getAttribute('role')).toBe('alert');
      // No Retry there: trying again cannot help, opening the new address can.
      expect(await page.getByTestId('notice').getByTestId('banner-retry').count()).toBe(0);
      expect(await page.getByTestId('composer-input').inputValue()).toBe('Typed after the restart');
      await shootAtBothWidths(page, 'send-token-refused');

      // The user opens the new address in this tab: the chat comes back with what was typed in it.
      await page.goto(serve.url);
      await expect.poll(() => page.locator(USER).allTextContents()).toEqual(['Hello']);
      await expect.poll(() => page.getByTestId('composer-input').inputValue()).toBe('Typed after the restart');
      // Main keeps it now: another browser (its own storage) opening the chat finds it too.
      const elsewhere = await (await browser.newContext()).newPage();
      try {
        await elsewhere.goto(serve.url);
        await elsewhere.getByTestId('conversation-item').first().click();
        await expect.poll(() => elsewhere.getByTestId('composer-input').inputValue()).toBe('Typed after the restart');
      } finally {
        await elsewhere.context().close();
      }
    } finally {
      await context.close();
    }
  });

  it('says which action a dropped link cut off once it is back, and leaves no "Reconnecting…" (audit files #3)', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'firebrand-e2e-hard-'));
    const port = await freePort();
    const args = ['--port', String(port), '--token', '0123456789abcdef0123456789abcdef'];
    serve = await startServeProcess({ dataDir, ollamaUrl: replay.url, extraArgs: args });
    const page = await browser.newPage();
    try {
      const sent: string[] = [];
      page.on('websocket', (ws) => ws.on('framesent', (frame) => sent.push(String(frame.payload))));
      await page.goto(serve.url);
      await page.locator('[role="option"][data-value="llama3.2:3b"]').waitFor({ state: 'attached' });
      // Serve mode stops answering (paused) while an import is on its way, then dies: the import is cut off.
      const paused = serve;
      paused.child.kill('SIGSTOP');
      await page.getByTestId('conversation-import-input').setInputFiles({ name: 'chat.json', mimeType: 'application/json', buffer: Buffer.from('{"hello":"world"}') });
      await expect.poll(() => sent.some((f) => f.includes('"conversations:import-begin"'))).toBe(true);
      await paused.stop('SIGKILL');
      await expect.poll(() => page.getByTestId('serve-problem').locator('.banner-text').textContent().catch(() => '')).toBe('Lost the connection to Firebrand. Reconnecting…');
      // Back on the same address and token: the link's banner goes, and the cut-off import says what happened.
      serve = await startServeProcess({ dataDir, ollamaUrl: replay.url, extraArgs: args });
      await page.getByTestId('serve-problem').waitFor({ state: 'detached', timeout: 30_000 });
      await expect
        .poll(() => page.getByTestId('notice').locator('.banner-text').textContent().catch(() => ''))
        .toBe('The import was not finished: the connection to Firebrand dropped; try again.');
      expect(await page.locator('.banners').textContent()).not.toContain('Reconnecting');
    } finally {
      await page.close();
    }
  });

  it('catches up with an answer that ended while its socket was down (resilience R1)', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'firebrand-e2e-hard-'));
    serve = await startServeProcess({ dataDir, ollamaUrl: replay.url });
    // The answer waits after its first two lines until released, so the link drops mid-answer however busy the machine.
    replay.setRoutes(heldAnswer([{ content: 'One' }, { content: ' two' }, { content: ' three' }, { content: ' four.' }]));
    const page = await browser.newPage();
    try {
      // The page's sockets, so the test can drop the link as a network blip would, serve mode running on.
      await page.addInitScript(() => {
        const Native = window.WebSocket;
        const opened: WebSocket[] = [];
        (window as unknown as { __sockets: WebSocket[] }).__sockets = opened;
        window.WebSocket = class extends Native {
          constructor(url: string | URL, protocols?: string | string[]) {
            super(url, protocols);
            opened.push(this);
          }
        };
      });
      await page.goto(serve.url);
      await page.locator('[role="option"][data-value="llama3.2:3b"]').waitFor({ state: 'attached' });
      await send(page, 'Count');
      await expect.poll(() => page.locator(ASSISTANT).first().textContent()).toContain('One two');
      await expect.poll(() => replay.held).toBe(1);
      await page.evaluate(() => (window as unknown as { __sockets: WebSocket[] }).__sockets.forEach((ws) => ws.close()));
      // The answer ends while the page has no link: its end never reaches the page as an event.
      await expect.poll(() => page.getByTestId('serve-problem').locator('.banner-text').textContent().catch(() => '')).toBe('Lost the connection to Firebrand. Reconnecting…');
      replay.release();
      await page.getByTestId('serve-problem').waitFor({ state: 'detached', timeout: 30_000 });
      await expect.poll(() => page.locator(ASSISTANT).first().getAttribute('data-status')).toBe('done');
      expect(await page.locator(ASSISTANT).first().locator('[data-run="answer"]').textContent()).toContain('One two three four.');
      await page.getByTestId('composer-stop').waitFor({ state: 'detached' });
    } finally {
      replay.setRoutes(chatRoutes(ollamaLines([{ content: 'Still here.' }])));
      await page.close();
    }
  });

  it('shows an answer cut off by a restart as interrupted once back, and sends nothing typed while down (resilience R1, R2)', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'firebrand-e2e-hard-'));
    const port = await freePort();
    const args = ['--port', String(port), '--token', '0123456789abcdef0123456789abcdef'];
    serve = await startServeProcess({ dataDir, ollamaUrl: replay.url, extraArgs: args });
    replay.setRoutes(heldAnswer([{ content: 'One' }, { content: ' two' }, { content: ' three' }]));
    const page = await browser.newPage();
    try {
      await page.goto(serve.url);
      await page.locator('[role="option"][data-value="llama3.2:3b"]').waitFor({ state: 'attached' });
      await send(page, 'Count');
      await expect.poll(() => replay.held).toBe(1);
      await expect.poll(() => page.locator(ASSISTANT).first().textContent()).toContain('One two');
      // Serve mode dies mid-answer and comes back on the same address and token.
      await serve.stop('SIGKILL');
      await expect.poll(() => page.getByTestId('serve-problem').locator('.banner-text').textContent().catch(() => '')).toBe('Lost the connection to Firebrand. Reconnecting…');
      replay.setRoutes(chatRoutes(ollamaLines([{ content: 'Still here.' }])));
      replay.release();
      serve = await startServeProcess({ dataDir, ollamaUrl: replay.url, extraArgs: args });
      await page.getByTestId('serve-problem').waitFor({ state: 'detached', timeout: 30_000 });
      // The answer is what main kept of it, with its Continue; no Stop left for an answer nothing writes any more.
      await expect.poll(() => page.locator(ASSISTANT).first().getAttribute('data-status')).toBe('interrupted');
      await page.getByTestId('composer-stop').waitFor({ state: 'detached' });

      // Down again; the user sends a message meanwhile.
      await serve.stop('SIGKILL');
      await expect.poll(() => page.getByTestId('serve-problem').locator('.banner-text').textContent().catch(() => '')).toBe('Lost the connection to Firebrand. Reconnecting…');
      await page.getByTestId('composer-input').fill('Typed while down');
      let failedTries = 0;
      page.on('websocket', (ws) => ws.on('close', () => failedTries++));
      await page.getByTestId('composer-send').click();
      // A try to reconnect fails after the message was sent: from then on it must never go out. (Back before any
      // try failed, it goes once the link is: that case sends it once, as it should.)
      const before = failedTries;
      await expect.poll(() => failedTries).toBeGreaterThan(before);
      serve = await startServeProcess({ dataDir, ollamaUrl: replay.url, extraArgs: args });
      await page.getByTestId('serve-problem').waitFor({ state: 'detached', timeout: 30_000 });
      // The message was not sent, says so, and waits in the composer.
      await expect
        .poll(() => page.getByTestId('notice').locator('.banner-text').textContent().catch(() => ''))
        .toBe('Sending the message did not start: the connection to Firebrand is down. Nothing was sent; try again once it is back.');
      expect(await page.getByTestId('composer-input').inputValue()).toBe('Typed while down');
      // Sent again, it goes once: the frame made while down did not go out when the link came back.
      await page.getByTestId('composer-send').click();
      await expect.poll(() => page.locator(ASSISTANT).nth(1).getAttribute('data-status')).toBe('done');
      expect(replay.requests.filter((r) => r.path === '/api/chat' && r.body.includes('Typed while down') && !r.body.includes('Write a title')).length).toBe(1);
      expect(await page.locator(USER).allTextContents()).toEqual(['Count', 'Typed while down']);
    } finally {
      replay.setRoutes(chatRoutes(ollamaLines([{ content: 'Still here.' }])));
      await page.close();
    }
  });

  it('keeps working when one message cannot be drawn, and says what failed (item 14); no blob URL for a non-image (item 7)', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'firebrand-e2e-hard-'));
    // A database an older, laxer import could have left: a text block that is not text, and an "image" whose
    // stored bytes are an SVG with a script.
    const seeded = createServices({ dataDir, log: () => {} });
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="window.__pwned=1"><script>window.__pwned=1</script></svg>');
    const digest = await new BlobStore(seeded.db, dataDir).store(svg, 'image/svg+xml', Date.now());
    const store = new ConversationStore(seeded.db);
    store.createConversation('c', 'Hostile', 'llama3.2:3b', 1);
    const turn = (t: Partial<Turn> & Pick<Turn, 'id' | 'role' | 'blocks'>): Turn => ({ conversationId: 'c', parentId: null, meta: {}, status: 'done', createdAt: 2, ...t });
    store.appendTurn(turn({ id: 'u1', role: 'user', blocks: [{ type: 'text', text: 'Look' }, { type: 'attachment', id: digest, kind: 'image', name: 'cat.svg', mime: 'image/svg+xml', size: svg.length }] }), 2);
    store.appendTurn(turn({ id: 'a1', parentId: 'u1', role: 'assistant', blocks: [{ type: 'text', text: { evil: true } as unknown as string }], createdAt: 3 }), 3);
    seeded.close();

    serve = await startServeProcess({ dataDir, ollamaUrl: replay.url });
    const page = await browser.newPage();
    try {
      await page.goto(serve.url);
      await page.getByTestId('conversation-item').first().click();
      await expect.poll(() => page.getByTestId('render-error').textContent().catch(() => ''), { timeout: 15_000 }).toMatch(/^This message could not be shown: .+\. The rest of Firebrand still works\.$/);
      // The user's turn still shows, its "image" without a blob URL.
      await expect.poll(() => page.locator('[data-testid="attachment"][data-kind="image"]').textContent()).toContain('Image unavailable');
      expect(await page.locator('img[src^="blob:"]').count()).toBe(0);
      // And the app still works: a new message gets its answer.
      await send(page, 'Are you there?');
      await waitIdle(page);
      await expect.poll(() => page.locator(ASSISTANT).last().locator('[data-run="answer"]').textContent()).toContain('Still here.');
      expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    } finally {
      await page.close();
    }
  });
});
