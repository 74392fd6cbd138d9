/**
 * Send and Stop take each other's place as an answer starts and ends. A keyboard user who pressed Send (Tab to it,
 * Enter) or Stop, or who waited on Stop until the answer ended, had the focus on a button that was gone: it fell to
 * the page's body, and the next Tab started again from the top of the page. The message box takes it, as after
 * Regenerate or a tool approval.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { assistant, chatRoutes, ollamaLines, startUi, stopUi, waitIdle, type UiSession } from './helpers/ui-session';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

const focused = (s: UiSession) => s.page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? null);

describe('the focus after Send and Stop', () => {
  it('stays in the message box after Send and Stop pressed from the keyboard, and after an answer ends while Stop had it', async () => {
    const long = Array.from({ length: 40 }, (_, i) => ({ content: `w${i} ` }));
    // Held after 5 lines: the answer is still streaming when Stop is pressed, on any machine.
    s = await startUi(chatRoutes(ollamaLines(long), 20, 5));
    const { page, replay } = s;
    await page.getByTestId('composer-input').fill('Count for me');
    await page.getByTestId('composer-send').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('composer-stop').waitFor();
    await expect.poll(() => focused(s!)).toBe('composer-input');

    await page.getByTestId('composer-stop').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => assistant(page).getAttribute('data-status')).toBe('aborted');
    await expect.poll(() => focused(s!)).toBe('composer-input');

    // Regenerate, wait on Stop, and let the answer end by itself.
    await page.getByTestId('turn-retry').click();
    await page.getByTestId('composer-stop').focus();
    // The stopped answer's stream still waits at its hold: one release for it, one for this answer's.
    replay.release();
    replay.release();
    await waitIdle(page);
    await expect.poll(() => assistant(page).getAttribute('data-status')).toBe('done');
    await expect.poll(() => focused(s!)).toBe('composer-input');
  });
});
