/**
 * An edit of a sent message kept across a reload opens again in its message without taking the focus; in a long
 * chat, which opens at its end, that message was far above what is shown and nothing said the edit was there. A note
 * under the message box says so, and Show scrolls to the message and puts the focus in its edit. Not for an edit being
 * typed now, and the focus stays where the page put it on load. Only while the edit is out of sight: the note showed
 * beside an edit on screen, and once used it did not come back when the edit was scrolled away again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { shootAtBothWidths } from './helpers/screenshots';
import { chatRoutes, ollamaLines, send, startUi, stopUi, USER, waitIdle, type UiSession } from './helpers/ui-session';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

const LONG = Array.from({ length: 40 }, (_, i) => `Paragraph ${i + 1} of a long answer.`).join('\n\n');
/** Whether the edit box is on screen now (the virtualized list may not have it mounted). */
const editOnScreen = () =>
  s!.page.evaluate(() => {
    const box = document.querySelector('[data-testid="turn-edit-input"]');
    if (!box) return false;
    const r = box.getBoundingClientRect();
    return r.bottom > 0 && r.top < window.innerHeight && document.elementFromPoint(r.left + r.width / 2, Math.max(r.top, 0) + 8) === box;
  });
const focusedTestId = () => s!.page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null);

describe('an edit kept across a reload, above what a long chat shows', () => {
  it('is said under the message box, and Show takes the user to it', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'A short answer.' }])));
    const { page, replay } = s;
    await send(page, 'The first question');
    await waitIdle(page);
    await page.locator(USER).getByTestId('turn-edit').click();
    await page.getByTestId('turn-edit-input').fill('The first question, asked better');
    await expect.poll(() => page.evaluate(() => localStorage.getItem('firebrand.edit-drafts') ?? '')).toContain('asked better');
    // A long answer after it: the chat opens at its end, far below the first question.
    replay.setRoutes(chatRoutes(ollamaLines([{ content: LONG }]), 3));
    await send(page, 'The second question');
    await waitIdle(page);
    // Typed now: the user is there, and no note is shown.
    expect(await page.getByTestId('kept-edit-note').count()).toBe(0);

    await page.reload();
    const note = page.getByTestId('kept-edit-note');
    await note.waitFor();
    expect(await note.textContent()).toBe('You have an unsent edit of an earlier message.Show');
    // The chat opens at its end: the edit is out of sight, and the focus is not taken to it.
    expect(await editOnScreen()).toBe(false);
    expect(await focusedTestId()).not.toBe('turn-edit-input');
    await shootAtBothWidths(page, 'kept-edit-note', '[data-testid="kept-edit-note"]');

    // The user scrolls up to the edit themselves (a wheel: the list undoes a scroll the reader did not make): the
    // note goes while the edit is on screen, and comes back once it is scrolled away again.
    await page.locator('[data-testid="chat"] .turn-list').first().hover();
    await expect
      .poll(async () => {
        await page.mouse.wheel(0, -1_000_000);
        return editOnScreen();
      })
      .toBe(true);
    await expect.poll(() => note.count()).toBe(0);
    await page.getByTestId('jump-to-latest').click();
    await expect.poll(editOnScreen).toBe(false);
    await note.waitFor();

    await page.getByTestId('kept-edit-show').click();
    await expect.poll(focusedTestId).toBe('turn-edit-input');
    expect(await page.getByTestId('turn-edit-input').inputValue()).toBe('The first question, asked better');
    expect(await page.getByTestId('turn-edit-input').evaluate((el) => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight; })).toBe(true);
    await expect.poll(() => note.count()).toBe(0);
    // Shown once, it still comes back when the edit goes out of sight (the reader goes back to the end).
    await page.locator('[data-testid="chat"] .turn-list').first().hover();
    await page.mouse.wheel(0, 1_000_000);
    await expect.poll(editOnScreen).toBe(false);
    await note.waitFor();
    expect(await note.textContent()).toBe('You have an unsent edit of an earlier message.Show');
  });
});
