/**
 * Escape or Cancel on an edit of a sent message threw the typing away without a word, and Edit reopened with the
 * original text. Now a changed edit asks first ("Discard your changes to this message?"), as Settings does; Escape
 * on the question is Keep editing. An edit left as it was closes at once. A changed edit open at a reload comes back
 * as it was left, as the message box's draft does.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { shootAtBothWidths } from './helpers/screenshots';
import { chatRoutes, ollamaLines, send, startUi, stopUi, USER, waitIdle, type UiSession } from './helpers/ui-session';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

const focused = (s: UiSession) => s.page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null);

describe('a changed edit of a sent message', () => {
  it('asks before Escape or Cancel throws it away, and closes at once when nothing changed', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Noted.' }])));
    const { page } = s;
    await send(page, 'Plan my week');
    await waitIdle(page);
    const input = page.getByTestId('turn-edit-input');
    const question = page.getByTestId('turn-edit-discard-question');

    // Unchanged: Escape closes it, no question.
    await page.locator(USER).getByTestId('turn-edit').click();
    await input.press('Escape');
    await page.getByTestId('turn-edit-form').waitFor({ state: 'detached' });

    // Changed: Escape asks, with the focus on Keep editing; Escape again keeps the edit as typed.
    await page.locator(USER).getByTestId('turn-edit').click();
    await input.fill('Plan my week, with a day off');
    await input.press('Escape');
    await question.waitFor();
    expect(await question.textContent()).toContain('Discard your changes to this message?');
    await expect.poll(() => focused(s!)).toBe('turn-edit-keep');
    await shootAtBothWidths(page, 'edit-discard-question', '[data-testid="turn-edit-discard-question"]');
    await page.keyboard.press('Escape');
    await question.waitFor({ state: 'detached' });
    expect(await input.inputValue()).toBe('Plan my week, with a day off');
    await expect.poll(() => focused(s!)).toBe('turn-edit-input');

    // Cancel asks too; Keep editing (from the keyboard) keeps it.
    await page.getByTestId('turn-edit-cancel').click();
    await question.waitFor();
    await page.keyboard.press('Enter');
    await question.waitFor({ state: 'detached' });
    expect(await input.inputValue()).toBe('Plan my week, with a day off');

    // Discard, reached by Tab, throws it away: Edit opens with the message as sent.
    await input.press('Escape');
    await question.waitFor();
    await page.keyboard.press('Tab');
    await expect.poll(() => focused(s!)).toBe('turn-edit-discard');
    await page.keyboard.press('Enter');
    await page.getByTestId('turn-edit-form').waitFor({ state: 'detached' });
    await page.locator(USER).getByTestId('turn-edit').click();
    expect(await input.inputValue()).toBe('Plan my week');
  });

  it('comes back after a reload as it was left, until it is discarded', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Noted.' }])));
    const { page } = s;
    await send(page, 'Plan my week');
    await waitIdle(page);
    const input = page.getByTestId('turn-edit-input');
    await page.locator(USER).getByTestId('turn-edit').click();
    await input.fill('Plan my week, with a day off');

    await page.reload();
    await page.getByTestId('turn-edit-form').waitFor();
    expect(await input.inputValue()).toBe('Plan my week, with a day off');
    // It does not take the focus from the message box as the chat opens.
    await expect.poll(() => focused(s!)).not.toBe('turn-edit-input');

    // Discarded, it is gone for good: the next reload shows the message as sent.
    await page.getByTestId('turn-edit-cancel').click();
    await page.getByTestId('turn-edit-discard').click();
    await page.getByTestId('turn-edit-form').waitFor({ state: 'detached' });
    await page.reload();
    await page.locator(USER).getByTestId('user-text').waitFor();
    expect(await page.getByTestId('turn-edit-form').count()).toBe(0);
    expect(await page.locator(USER).getByTestId('user-text').textContent()).toBe('Plan my week');
  });
});
