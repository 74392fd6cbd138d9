/**
 * First-run pass: a new chat says which key lists the shortcuts, but on a desktop the focus starts in the message
 * box (first-focus), where the `?` it named was typed into the message and no list came. Ctrl+/ opens the list from
 * anywhere, the box too, without touching what was typed, and the new chat names it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { chatRoutes, ollamaLines, startUi, stopUi, type UiSession } from './helpers/ui-session';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

describe('the keyboard shortcuts from a first load', () => {
  it('opens the list with the key the new chat names, from the message box, and keeps the draft', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Noted.' }])));
    const { page } = s;
    const box = page.getByTestId('composer-input');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null)).toBe('composer-input');
    await page.keyboard.type('Half a question');
    await page.keyboard.press('Control+/');
    const list = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await list.waitFor({ state: 'visible' });
    expect(await list.innerText()).toContain('This list, from anywhere (the message box too)');
    await page.keyboard.press('Escape');
    await list.waitFor({ state: 'detached' });
    expect(await box.inputValue()).toBe('Half a question');
    expect(await page.locator('.empty-hint .shortcuts').innerText()).toContain('Ctrl / all shortcuts');
  });
});
