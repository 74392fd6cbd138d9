/**
 * Search reads what a user read in a chat beside its messages (search audit): the text of an attached file, and the
 * model's reasoning. A phrase from "notes.txt" or from the thinking found nothing; it now finds the chat, and the
 * result says the words are in that file or in the reasoning, not in the message its snippet seemed to come from.
 * Main's side: test/main/db/search-beyond-text.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { SHOTS_DIR } from './helpers/screenshots';
import { chatRoutes, ollamaLines, startUi, stopUi, waitIdle, type UiSession } from './helpers/ui-session';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

const results = (s: UiSession) => s.page.getByTestId('search-result');

describe('search beyond the messages’ text', () => {
  it('finds a phrase of an attached text file and of the reasoning, and says where each is', async () => {
    const body = ollamaLines([{ thinking: 'The saffron budget matters most here.' }, { content: 'Noted, I will keep it in mind.' }]);
    s = await startUi(chatRoutes(body, 10));
    const { page } = s;
    await page.getByTestId('attach-input').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Remember the quarterly offsite in Lisbon, by the river.') });
    await expect.poll(() => page.locator('[data-testid="pending-attachments"] [data-testid="attachment"]').first().getAttribute('data-tokens')).not.toBeNull();
    await page.getByTestId('composer-input').fill('Keep these notes');
    await page.getByTestId('composer-send').click();
    await waitIdle(page);

    // In the file: the result says which, and its snippet is the file's, with the word marked.
    await page.getByTestId('search-input').fill('lisbon');
    await expect.poll(() => results(s!).count()).toBe(1);
    const hit = results(s).first();
    expect(await hit.getByTestId('search-where').textContent()).toBe('in notes.txt');
    expect(await hit.locator('.search-snippet').textContent()).toContain('offsite in Lisbon');
    expect(await hit.locator('.search-snippet mark').allTextContents()).toEqual(['Lisbon']);

    // In the reasoning: said so.
    await page.getByTestId('search-input').fill('saffron budget');
    await expect.poll(() => hit.getByTestId('search-where').textContent()).toBe('in reasoning');
    expect(await results(s).count()).toBe(1);
    expect(await hit.locator('.search-snippet mark').allTextContents()).toEqual(['saffron', 'budget']);
    mkdirSync(SHOTS_DIR, { recursive: true });
    await page.screenshot({ path: `${SHOTS_DIR}/search-reasoning-1280.png` });
    // Opened, the answer shows its reasoning unfolded, with the words marked there.
    await hit.click();
    const answer = page.locator('[data-testid="turn"][data-role="assistant"]').first();
    await expect.poll(() => answer.getAttribute('data-search-marks')).toBe('2');
    await expect.poll(() => answer.locator('details[data-run="reasoning"]').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);

    // A word of the message itself: no place named.
    await page.getByTestId('search-input').fill('keep');
    await expect.poll(() => results(s!).count()).toBe(2);
    expect(await results(s).first().getByTestId('search-where').count()).toBe(0);

    await page.getByTestId('search-input').fill('river');
    await expect.poll(() => hit.getByTestId('search-where').textContent()).toBe('in notes.txt');
    await page.screenshot({ path: `${SHOTS_DIR}/search-file-1280.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('sidebar-toggle').click();
    await hit.waitFor();
    await page.waitForFunction(() => document.getAnimations().length === 0);
    await page.screenshot({ path: `${SHOTS_DIR}/search-file-390.png` });
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
