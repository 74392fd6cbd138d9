/**
 * A chat whose own load failed (the read of that conversation threw, or timed out) showed an error once, and its row
 * in the list read as before: the user clicked it again and again with no hint. The row now says "Couldn’t open —
 * retry" until a load works, and the retry on it opens the chat. The page's link to serve mode runs through the
 * test, which answers the chat's open with main's error while `failing` is set.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { SHOTS_DIR } from './helpers/screenshots';
import { send, startUi, stopUi, USER, waitIdle, type UiSession } from './helpers/ui-session';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

const READ_FAILED = 'The conversation could not be read: database disk image is malformed.';

describe('a chat whose load fails', () => {
  it('says so on its row until it opens, and the row’s retry opens it', async () => {
    let failing = false;
    let refused = 0;
    s = await startUi(undefined, (page) =>
      page.routeWebSocket(/\/ipc\?/, (ws) => {
        const server = ws.connectToServer();
        server.onMessage((m) => ws.send(m));
        ws.onMessage((m) => {
          const msg = typeof m === 'string' ? (JSON.parse(m) as { id?: number; channel?: string }) : {};
          if (failing && msg.channel === 'conversations:open') {
            refused++;
            return ws.send(JSON.stringify({ t: 'result', id: msg.id, result: { ok: false, error: { code: 'internal', message: READ_FAILED } } }));
          }
          server.send(m);
        });
      }),
    );
    const { page } = s;
    await send(page, 'The first chat');
    await waitIdle(page);
    const current = page.locator('[data-testid="conversation-item"][aria-current="true"]');
    await current.waitFor();
    const firstId = await current.getAttribute('data-conversation-id');
    await page.getByTestId('new-chat').click();
    await send(page, 'The second chat');
    await waitIdle(page);
    const firstRow = page.locator('.conversation-row', { has: page.locator(`[data-testid="conversation-item"][data-conversation-id="${firstId}"]`) });
    await firstRow.first().waitFor();
    const mark = firstRow.getByTestId('conversation-open-failed');

    failing = true;
    await firstRow.getByTestId('conversation-item').click();
    await expect.poll(() => page.getByTestId('notice').locator('.banner-text').textContent()).toContain(READ_FAILED);
    // Before: the row read as any other, and nothing said this one had failed once the notice was gone.
    await expect.poll(() => mark.textContent()).toBe('Couldn’t open — retry');
    expect(await firstRow.getByTestId('conversation-item').getAttribute('aria-describedby')).toBe(await mark.getAttribute('id'));
    await page.getByTestId('notice').getByTestId('banner-close').click();
    expect(await mark.isVisible()).toBe(true);
    // The second chat is still the one open, as it was.
    expect(await page.locator(USER).allTextContents()).toEqual(['The second chat']);

    mkdirSync(SHOTS_DIR, { recursive: true });
    await page.screenshot({ path: `${SHOTS_DIR}/chat-open-failed-1280.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('sidebar-toggle').click();
    await mark.waitFor();
    await page.waitForFunction(() => document.getAnimations().length === 0);
    await page.screenshot({ path: `${SHOTS_DIR}/chat-open-failed-390.png` });
    await page.setViewportSize({ width: 1280, height: 800 });

    // A retry that fails again keeps the mark; one that works opens the chat and clears it.
    const refusedBefore = refused;
    await mark.click();
    await expect.poll(() => refused).toBeGreaterThan(refusedBefore);
    expect(await mark.isVisible()).toBe(true);
    failing = false;
    await mark.click();
    await expect.poll(() => page.locator(USER).allTextContents()).toEqual(['The first chat']);
    expect(await mark.count()).toBe(0);
  });
});
