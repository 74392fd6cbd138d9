/**
 * Footnotes as models write them (`claim[^1]` … `[^1]: source`): a reference streamed before its note reads as
 * written, in its paragraph, and links once the note has come; a reference's link moves the reader to its note and
 * the note's link back, inside the same answer (two answers in one chat both have a note 1), without navigating the
 * page or opening anything.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ASSISTANT, assistant, chatRoutes, ollamaLines, send, startUi, stopUi, waitIdle, type UiSession } from './helpers/ui-session';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

const LINES = [
  { content: 'Paris is the capital of France[^1] and has about 2.1 million people[^2].\n\n' },
  { content: 'More text in between, to put the notes further down.\n\n[^1]: Encyclopaedia, "Paris".\n[^2]: INSEE, 2024 census.\n' },
];

/** Which answer (0, 1, …) holds the focused element, and what it is. */
const focused = (page: Page) =>
  page.evaluate((selector) => {
    const el = document.activeElement;
    const answer = el?.closest(selector);
    return { answer: answer ? [...document.querySelectorAll(selector)].indexOf(answer) : -1, note: el?.getAttribute('data-footnote') ?? null, ref: el?.getAttribute('data-footnote-ref') ?? null };
  }, ASSISTANT);

describe('footnotes in an answer', () => {
  it('read as written while their note streams, then link to it and back within their own answer', async () => {
    s = await startUi(chatRoutes(ollamaLines(LINES), 5, 1));
    const { page, replay } = s;
    const popups: string[] = [];
    page.on('popup', (p) => popups.push(p.url()));
    await send(page, 'Tell me about Paris');
    await expect.poll(() => replay.held).toBe(1);
    // Held before the notes: the reference is text in its paragraph, which is drawn as markdown.
    await expect.poll(() => assistant(page).locator('.markdown p').first().textContent()).toContain('France[^1] and has about 2.1 million people[^2].');
    replay.release();
    await waitIdle(page);
    await expect.poll(() => assistant(page).locator('a[data-footnote-ref]').count()).toBe(2);
    expect(await assistant(page).locator('.markdown').textContent()).not.toContain('[^');
    expect(await assistant(page).locator('.footnote[data-footnote="1"]').textContent()).toContain('Encyclopaedia, "Paris".');

    // A second answer in the same chat, with the same labels, not held (nor the chat's title, which may be held now).
    replay.setRoutes(chatRoutes(ollamaLines(LINES), 5));
    replay.release();
    await send(page, 'And again');
    await expect.poll(() => page.locator(ASSISTANT).count()).toBe(2);
    await waitIdle(page);
    await expect.poll(() => page.locator(`${ASSISTANT} a[data-footnote-ref="1"]`).count()).toBe(2);
    const url = page.url();

    await assistant(page, 1).locator('a[data-footnote-ref="1"]').click();
    await expect.poll(() => focused(page)).toEqual({ answer: 1, note: '1', ref: null });
    await assistant(page, 1).locator('.footnote[data-footnote="1"] a[data-footnote-back]').click();
    await expect.poll(() => focused(page)).toEqual({ answer: 1, note: null, ref: '1' });

    // By keyboard too, in the first answer.
    await assistant(page, 0).locator('a[data-footnote-ref="2"]').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toEqual({ answer: 0, note: '2', ref: null });

    expect(page.url()).toBe(url);
    expect(popups).toEqual([]);
  });
});
