/**
 * A common question asked in many chats: the search listed the oldest chats first (their ranks tie, and ties were in
 * no order) and stopped at 30 with no way to see more. Now ties go newest first, and "Show more" at the end of the
 * list, reached by Tab, lists the next 30, saying how many are shown. Main's side: test/main/db/search.test.ts.
 */
import { mkdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { SHOTS_DIR } from './helpers/screenshots';
import { startSeededUi, type SeededUi } from './helpers/seeded-ui';

let ui: SeededUi | undefined;
afterEach(async () => {
  await ui?.close();
  ui = undefined;
});

describe('search results for a word in many chats', () => {
  it('lists the newest chats first and shows 30 more at a time from the keyboard', async () => {
    ui = await startSeededUi((store) => {
      for (let i = 0; i < 70; i++) {
        store.createConversation(`c${i}`, `Trip ${i}`, null, 1_000 + i);
        store.appendTurn({ id: `m${i}`, conversationId: `c${i}`, parentId: null, role: 'user', blocks: [{ type: 'text', text: 'What is the weather like today?' }], meta: {}, status: 'done', createdAt: 1_000 + i }, 1_000 + i);
      }
    });
    const { page } = ui;
    const results = page.getByTestId('search-result');
    const ids = () => results.evaluateAll((els) => els.map((e) => e.getAttribute('data-conversation-id')));
    const newestFirst = (count: number) => Array.from({ length: count }, (_, i) => `c${69 - i}`);

    await page.getByTestId('search-input').fill('weather');
    await expect.poll(ids).toEqual(newestFirst(30));
    expect(await results.first().textContent()).toContain('Trip 69');
    const more = page.getByTestId('search-more');
    expect(await more.textContent()).toBe('Show more');
    expect(await page.getByTestId('search-shown').textContent()).toBe('30 results shown');

    mkdirSync(SHOTS_DIR, { recursive: true });
    await more.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS_DIR}/search-more-1280.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('sidebar-toggle').click();
    await more.waitFor();
    await page.waitForFunction(() => document.getAnimations().length === 0);
    await page.screenshot({ path: `${SHOTS_DIR}/search-more-390.png` });
    await page.setViewportSize({ width: 1280, height: 800 });

    // From the last result, Tab reaches "Show more"; Enter lists the next 30, the first of them focused.
    await results.last().focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('search-more');
    await page.keyboard.press('Enter');
    await expect.poll(ids).toEqual(newestFirst(60));
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-conversation-id'))).toBe('c39');
    await expect.poll(() => page.getByTestId('search-shown').textContent()).toBe('60 results shown');

    // The last 10: all listed, and no button left.
    await more.click();
    await expect.poll(ids).toEqual(newestFirst(70));
    expect(await more.count()).toBe(0);

    // A new search starts at 30 again.
    await page.getByTestId('search-input').fill('weather today');
    await expect.poll(ids).toEqual(newestFirst(30));
  });
});
