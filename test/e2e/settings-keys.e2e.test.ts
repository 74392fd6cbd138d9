/**
 * Settings by keyboard alone (settings user's-eyes pass): Escape in a connection's editor threw what was typed there
 * away without a word, where Settings and a message's edit ask first; Enter in the add form's fields added nothing
 * (only a click on Add connection did); Enter in the dialog's own fields (the Ollama address, GPU memory, the
 * models folder, the idle minutes) did nothing either, where the editor's Enter saves.
 */
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { shootAtBothWidths } from './helpers/screenshots';
import { chatRoutes, ollamaLines, startUi, stopUi, type UiSession } from './helpers/ui-session';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

const focusedTestId = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
const item = (page: Page) => page.locator('[data-testid="connection-item"][data-kind="llama-server"]');

/** Types a llama-server connection into the add form, then presses Enter in its address field (or clicks Add). */
async function addConnection(page: Page, label: string, url: string, how: 'enter' | 'click'): Promise<void> {
  await page.getByTestId('connection-add-kind').selectOption('llama-server');
  await page.getByTestId('connection-add-label').fill(label);
  await page.getByTestId('connection-add-url').fill(url);
  if (how === 'enter') await page.getByTestId('connection-add-url').press('Enter');
  else await page.getByTestId('connection-add').click();
}

describe('Settings from the keyboard', () => {
  it('adds a connection on Enter in the add form, once, and the form empties', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Hi' }])));
    const { page } = s;
    await page.getByTestId('settings-open').click();
    await addConnection(page, 'Desk llama', 'http://127.0.0.1:18080', 'enter');
    await expect.poll(() => item(page).locator('strong').textContent()).toBe('Desk llama');
    await expect.poll(() => page.getByTestId('connection-add-label').inputValue()).toBe('');
    expect(await page.getByTestId('connection-item').count()).toBe(3);
    // The dialog stays: Enter there is the add form's, not Save's.
    expect(await page.getByTestId('settings-dialog').isVisible()).toBe(true);
  });

  it("asks before Escape throws away what was typed in a connection's editor; Escape again keeps editing", async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Hi' }])));
    const { page } = s;
    await page.getByTestId('settings-open').click();
    await addConnection(page, 'Desk llama', 'http://127.0.0.1:18080', 'click');
    await item(page).getByTestId('connection-edit-open').click();
    // Unchanged, Escape closes the editor at once.
    await page.keyboard.press('Escape');
    await item(page).getByTestId('connection-edit').waitFor({ state: 'detached' });

    await item(page).getByTestId('connection-edit-open').click();
    await item(page).getByTestId('connection-edit-url').fill('http://127.0.0.1:18081');
    await page.keyboard.press('Escape');
    const question = item(page).getByTestId('connection-edit-unsaved');
    await question.waitFor();
    expect(await question.textContent()).toContain('Discard your changes to Desk llama?');
    await expect.poll(() => focusedTestId(page)).toBe('connection-edit-keep');
    await shootAtBothWidths(page, 'settings-editor-escape', '[data-testid="connection-edit-unsaved"]');
    // Escape again is Keep editing: the typing is there, the focus back in the field it was typed in.
    await page.keyboard.press('Escape');
    await question.waitFor({ state: 'detached' });
    expect(await item(page).getByTestId('connection-edit-url').inputValue()).toBe('http://127.0.0.1:18081');
    await expect.poll(() => focusedTestId(page)).toBe('connection-edit-url');
    expect(await page.getByTestId('settings-dialog').isVisible()).toBe(true);

    // Discard closes the editor with nothing saved, the focus on its Edit.
    await page.keyboard.press('Escape');
    await item(page).getByTestId('connection-edit-discard').click();
    await item(page).getByTestId('connection-edit').waitFor({ state: 'detached' });
    expect(await item(page).getByTestId('connection-url').textContent()).toBe('http://127.0.0.1:18080');
    await expect.poll(() => focusedTestId(page)).toBe('connection-edit-open');
  });

  it("saves Settings on Enter in the dialog's own fields", async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Hi' }])));
    const { page } = s;
    await page.getByTestId('settings-open').click();
    await page.getByTestId('builtin-idle-minutes').fill('25');
    await page.getByTestId('builtin-idle-minutes').press('Enter');
    await page.getByTestId('settings-dialog').waitFor({ state: 'detached' });
    expect((await page.evaluate(() => window.firebrand.settings.get({}))).builtinIdleMinutes).toBe(25);

    // A value refused on Enter is said, as on Save, and the dialog stays with it.
    await page.getByTestId('settings-open').click();
    await page.getByTestId('gpu-override').fill('lots');
    await page.getByTestId('gpu-override').press('Enter');
    await expect.poll(() => page.getByTestId('settings-error').textContent()).toContain('GPU memory is a number of GiB');
    expect(await page.getByTestId('gpu-override').inputValue()).toBe('lots');
  });
});
