/**
 * A long chat opens at its end at once (its last turns first, then a window of its latest: bench/long-chat), and
 * it is one list: older turns paged in above as the reader scrolls up without moving what they see, every turn
 * reachable, each shown once, and the next message goes on from the real end. A chat of over 1,000 turns is
 * deleted like any other.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HELD_TURNS } from '../../src/renderer/store/open-conversation';
import { appendBranch, startSeededUi } from './helpers/seeded-ui';
import { ASSISTANT, send, waitIdle } from './helpers/ui-session';

const TURNS = 120;
let cleanup: (() => Promise<void>) | undefined;

afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe('a long chat', () => {
  it('opens at its last turn, then lets the reader scroll back to the first, each turn shown once, and goes on from the end', async () => {
    const ui = await startSeededUi((store) => {
      store.createConversation('long', 'Long chat', 'llama3.2:3b', 1);
      appendBranch(store, 'long', TURNS, (t) => (t % 2 === 0 ? `Question ${t / 2}` : `Answer ${(t - 1) / 2}:\n\n- one point\n- another point`), (t) => `t${t}`);
    }, ['The end', ' goes on.']);
    cleanup = ui.close;
    const { page } = ui;
    // The first screenful (its last turns as plain rows, before the list takes over) covers the window: no gap
    // above its first row. Looked at as it is first laid out, since the list replaces it soon after.
    await page.evaluate(() => {
      const observer = new MutationObserver(() => {
        const box = document.querySelector<HTMLElement>('[data-first-screen]');
        if (!box?.querySelector('[data-testid="turn"]')) return;
        observer.disconnect();
        (window as unknown as { firstScreen: { filled: boolean; rows: number } }).firstScreen = { filled: box.scrollHeight > box.clientHeight, rows: box.querySelectorAll('[data-testid="turn"]').length };
      });
      observer.observe(document.body, { childList: true, subtree: true });
    });
    await page.locator('[data-testid="conversation-item"][title="Long chat"]').click();
    const last = `[data-testid="chat"] [data-turn-id="t${TURNS - 1}"]`;
    await expect.poll(() => page.locator(last).isVisible()).toBe(true);
    const firstScreen = await page.waitForFunction(() => (window as unknown as { firstScreen?: unknown }).firstScreen).then((h) => h.jsonValue());
    expect(firstScreen).toMatchObject({ filled: true });
    // The list takes over from the first screenful.
    await page.locator('[data-first-screen]').waitFor({ state: 'detached' });
    await expect.poll(() => page.locator(last).isVisible()).toBe(true);
    expect(await page.locator(last).count()).toBe(1);

    // The app holds the chat's latest turns (HELD_TURNS, open-conversation.ts): at the top of those, the older ones
    // are paged in above, and the message the reader sees does not move.
    const oldestHeld = `[data-testid="chat"] [data-turn-id="t${TURNS - HELD_TURNS}"]`;
    expect(await page.locator(`[data-testid="chat"] [data-turn-id="t${TURNS - HELD_TURNS - 1}"]`).count()).toBe(0);
    // The reader scrolls up (a wheel: a scroll the reader did not make is undone while the list follows the end).
    const scroller = page.locator('[data-testid="chat"] .turn-list').first();
    await scroller.hover();
    await page.mouse.wheel(0, -1_000_000);
    const seen = await page.evaluate(
      ([selector, olderSelector]) =>
        new Promise<{ before: number; olderThen: boolean }>((resolve) => {
          const look = () => {
            const el = document.querySelector(selector);
            if (el) {
              (window as unknown as { seenTop: number }).seenTop = el.getBoundingClientRect().top;
              resolve({ before: el.getBoundingClientRect().top, olderThen: document.querySelector(olderSelector) !== null });
            }
            else requestAnimationFrame(look);
          };
          look();
        }),
      [oldestHeld, `[data-testid="chat"] [data-turn-id="t${TURNS - HELD_TURNS - 1}"]`] as const,
    );
    await page.locator(`[data-testid="chat"] [data-turn-id="t${TURNS - HELD_TURNS - 1}"]`).waitFor({ state: 'attached' });
    // The list settles the rows it guessed the height of: the message is back where the reader saw it.
    if (!seen.olderThen) {
      await expect
        .poll(() => page.locator(oldestHeld).evaluate((el) => Math.abs(el.getBoundingClientRect().top - (window as unknown as { seenTop: number }).seenTop)))
        .toBeLessThan(4);
    }

    // Scrolling back reaches the first question: the whole chat is there, not only its last turns.
    const first = page.locator('[data-testid="chat"] [data-turn-id="t0"]');
    await expect
      .poll(async () => {
        await page.mouse.wheel(0, -1_000_000);
        return first.isVisible();
      })
      .toBe(true);
    expect(await first.textContent()).toContain('Question 0');

    await page.getByTestId('jump-to-latest').click();
    await expect.poll(() => page.locator(last).isVisible()).toBe(true);
    await send(page, 'And then?');
    await waitIdle(page);
    await expect.poll(() => page.locator(ASSISTANT).last().textContent()).toContain('The end goes on.');
    await expect.poll(() => page.locator('[data-testid="chat"] [data-testid="turn"][data-role="user"]').last().textContent()).toContain('And then?');
  });
});

describe('a very long chat', () => {
  it('is deleted for good from the list after the undo window, with no error (1,000 turns and more could not be)', async () => {
    const ui = await startSeededUi((store) => {
      store.createConversation('long', 'Very long chat', 'llama3.2:3b', 1);
      store.createConversation('kept', 'Kept chat', 'llama3.2:3b', 0);
      appendBranch(store, 'long', 1_200, (t) => `Turn ${t}`);
    });
    cleanup = ui.close;
    const { page } = ui;
    const item = page.getByTestId('conversation-item');
    await expect.poll(() => item.evaluateAll((els) => els.map((e) => e.textContent))).toEqual(['Very long chat', 'Kept chat']);
    await item.first().hover();
    await page.getByTestId('conversation-delete').first().click();
    await expect.poll(() => item.count()).toBe(1);
    // Main deletes it once the undo window is over; until then the list says where it stands.
    await expect.poll(() => page.evaluate(() => window.firebrand.conversations.list({}).then((list) => list.map((c) => c.title))), { timeout: 60_000 }).toEqual(['Kept chat']);
    expect(await page.getByTestId('notice').count()).toBe(0);
    await page.reload();
    await expect.poll(() => item.evaluateAll((els) => els.map((e) => e.textContent))).toEqual(['Kept chat']);
  });
});
