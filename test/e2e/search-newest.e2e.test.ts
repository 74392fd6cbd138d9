/**
 * A search that read only the newest messages (an emoji alone, or a word that very many messages hold: main reads
 * the newest 20,000 or 5,000, src/main/db/search.ts) said "Nothing found." as if every message had been read. The
 * list now says how many of the newest were read. Main's side (the channel's `newest`) is test/main/db/
 * search-newest.test.ts; here the page's link to serve mode runs through the test, which adds `newest` to main's
 * real reply for the emoji, as main gives it with 20,000 messages and more.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { SHOTS_DIR } from './helpers/screenshots';
import { send, startUi, stopUi, waitIdle, type UiSession } from './helpers/ui-session';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

describe('a search of the newest messages only', () => {
  it('says how many it read, under what it found and under "Nothing found."', async () => {
    const searches = new Set<number>();
    s = await startUi(undefined, (page) =>
      page.routeWebSocket(/\/ipc\?/, (ws) => {
        const server = ws.connectToServer();
        ws.onMessage((m) => {
          const msg = typeof m === 'string' ? (JSON.parse(m) as { id?: number; channel?: string; payload?: { query?: string } }) : {};
          if (msg.channel === 'conversations:search' && /\p{Extended_Pictographic}/u.test(msg.payload?.query ?? '') && msg.id !== undefined) searches.add(msg.id);
          server.send(m);
        });
        server.onMessage((m) => {
          const msg = typeof m === 'string' ? (JSON.parse(m) as { t?: string; id?: number; result?: { ok: boolean; value?: { results: unknown[] } } }) : {};
          if (msg.t === 'result' && msg.id !== undefined && searches.has(msg.id) && msg.result?.ok && msg.result.value) {
            return ws.send(JSON.stringify({ ...msg, result: { ...msg.result, value: { ...msg.result.value, newest: 20_000 } } }));
          }
          ws.send(m);
        });
      }),
    );
    const { page } = s;
    await send(page, 'We launched 🚀 at dawn');
    await waitIdle(page);

    await page.getByTestId('search-input').fill('🚀');
    await expect.poll(() => page.getByTestId('search-result').count()).toBe(1);
    const note = page.getByTestId('search-newest');
    await expect.poll(() => note.textContent()).toBe('Searched the newest 20,000 messages; older ones were not read.');
    mkdirSync(SHOTS_DIR, { recursive: true });
    await page.screenshot({ path: `${SHOTS_DIR}/search-newest-1280.png` });

    // Nothing found among the newest: said so, and that older ones were not read.
    await page.getByTestId('search-input').fill('🦄');
    await page.getByTestId('search-empty').waitFor();
    await expect.poll(() => note.textContent()).toBe('Searched the newest 20,000 messages; older ones were not read.');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('sidebar-toggle').click();
    await note.waitFor();
    await page.waitForFunction(() => document.getAnimations().length === 0);
    await page.screenshot({ path: `${SHOTS_DIR}/search-newest-390.png` });
    await page.setViewportSize({ width: 1280, height: 800 });

    // A word the index answers reads every message: no note.
    await page.getByTestId('search-input').fill('launched');
    await expect.poll(() => page.getByTestId('search-result').count()).toBe(1);
    expect(await note.count()).toBe(0);
  });
});
