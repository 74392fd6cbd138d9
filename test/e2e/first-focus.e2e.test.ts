/**
 * Where the focus starts at a first load. It started on the page, and a keyboard user pressed Tab about 10 times
 * to reach the message box. On a desktop it starts in the box now, as in chat apps, on a new chat and on the chat a
 * reload reopens; not on a touch screen (its keyboard would come up over the chat), and the page's landmarks are
 * still there for a screen reader to move by.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage } from './helpers/browser';
import { shootAtBothWidths } from './helpers/screenshots';
import { chatRoutes, modelOption, ollamaLines, send, startUi, stopUi, USER, waitIdle, type UiSession } from './helpers/ui-session';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? null);

describe('the focus at a first load', () => {
  it('starts in the message box on a desktop, on a new chat and on the chat a reload reopens', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Noted.' }])));
    const { page } = s;
    await expect.poll(() => focused(page)).toBe('composer-input');
    // Typing goes straight into the box, and Enter sends it.
    await page.keyboard.type('Typed at once');
    expect(await page.getByTestId('composer-input').inputValue()).toBe('Typed at once');
    await page.keyboard.press('Enter');
    await waitIdle(page);
    expect(await page.locator(USER).allTextContents()).toEqual(['Typed at once']);

    // A reload reopens the chat, the focus in its message box.
    await page.reload();
    await expect.poll(() => page.locator(USER).allTextContents()).toEqual(['Typed at once']);
    await expect.poll(() => focused(page)).toBe('composer-input');
    await page.locator(USER).first().waitFor({ state: 'visible' });
    await shootAtBothWidths(page, 'first-load-focus');
    // The landmarks a screen reader moves by are still there, the box inside main.
    expect(await page.getByRole('navigation', { name: 'Conversations' }).count()).toBe(1);
    expect(await page.locator('main').getByRole('textbox', { name: 'Message' }).count()).toBe(1);
  });

  it('moves it only at a first load: a chat opened later leaves the focus where the user put it', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Noted.' }])));
    const { page } = s;
    await send(page, 'Hello');
    await waitIdle(page);
    await page.getByTestId('search-input').focus();
    await page.getByTestId('new-chat').click();
    await page.getByTestId('conversation-item').first().click();
    await expect.poll(() => page.locator(USER).allTextContents()).toEqual(['Hello']);
    expect(await focused(page)).not.toBe('composer-input');
  });

  it('does not start in the message box on a touch screen, where its keyboard would come up over the chat', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Noted.' }])));
    const phone = await openPage(s.browser, { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 3 });
    try {
      await phone.goto(s.serve.url);
      await modelOption(phone, 'llama3.2:3b').waitFor({ state: 'attached' });
      expect(await focused(phone)).toBe('BODY');
    } finally {
      await phone.close();
    }
  });
});
