/**
 * Search for a date written with its month's English name or without leading zeros, typed in the search box: "2024-01-15"
 * found nothing where a message said "January 15, 2024" or "2024-1-15", and "15 January 2024" found 15, January
 * and 2024 anywhere, not the message that said "2024-1-15". Main's side is test/main/db/search-dates.test.ts; here
 * the hits are marked whole in the list and in the opened chat.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { chatRoutes, ollamaLines, sendInChats, startUi, stopUi, type UiSession } from './helpers/ui-session';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

describe('search for a date however it is written', () => {
  it('finds a date with its month\'s name by its numbers and the reverse, marked whole in the hit and in the chat', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Noted.' }])));
    const { page } = s;
    await sendInChats(page, ['Invoice dated January 15, 2024, paid in full', 'Shipped on 2024-1-15 at noon', 'Nothing on 15 May 2024 or January 16, 2024']);
    await page.getByTestId('new-chat').click();
    const hit = page.getByTestId('search-result');
    for (const query of ['2024-01-15', '15 January 2024', 'Jan 15, 2024', '15.1.2024', '15 de enero de 2024', '15/01/24']) {
      await page.getByTestId('search-input').fill(query);
      await expect.poll(() => hit.locator('mark').allTextContents().then((marks) => marks.sort())).toEqual(['2024-1-15', 'January 15, 2024']);
      expect(await hit.count()).toBe(2);
      // Opened, the chat marks the date as it is written there, once.
      await hit.filter({ hasText: 'Invoice' }).click();
      const shown = page.locator('[data-testid="turn"][data-search-hit][data-role="user"]');
      await expect.poll(() => shown.getAttribute('data-search-marks').catch(() => null)).toBe('1');
      await page.getByTestId('new-chat').click();
    }
  });
});
