/**
 * Settings, polished from a user's-eyes pass: a connection added without a name was named "llama-server" (its kind's
 * id); the Ollama row read "Ollama Ollama"; each row's Summarize hint ran to 3 lines at 390 px; Ollama's address
 * was shown twice, as a field above the list and in its row; Enter on the theme's choices or the default model's list
 * did not save, where Enter in Settings' fields does.
 */
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { shootAtBothWidths } from './helpers/screenshots';
import { startUi, stopUi, type UiSession } from './helpers/ui-session';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

const dialog = (page: Page) => page.getByTestId('settings-dialog');
const row = (page: Page, id: string) => page.locator(`[data-testid="connection-item"][data-connection-id="${id}"]`);
const saved = (page: Page) => page.evaluate(() => window.firebrand.settings.get({}));

/** Adds a connection of `kind` at `url` with the name box left empty; resolves once the list has one more row. */
async function addUnnamed(page: Page, kind: string, url: string): Promise<void> {
  const before = await page.getByTestId('connection-item').count();
  await page.getByTestId('connection-add-kind').selectOption(kind);
  await page.getByTestId('connection-add-url').fill(url);
  await page.getByTestId('connection-add').click();
  await expect.poll(() => page.getByTestId('connection-item').count()).toBe(before + 1);
}

describe('Settings, polished', () => {
  it("names an unnamed connection by its kind, says a name once, and shows Ollama's address once, in its row", async () => {
    s = await startUi();
    const { page } = s;
    await page.getByTestId('settings-open').click();
    // The name box says the name an empty box gives.
    expect(await page.getByTestId('connection-add-label').getAttribute('placeholder')).toBe('llama.cpp server');
    await addUnnamed(page, 'llama-server', 'http://127.0.0.1:8080');
    expect(await page.getByTestId('connection-add-label').getAttribute('placeholder')).toBe('llama.cpp server 2');
    await addUnnamed(page, 'llama-server', 'http://127.0.0.1:8081');
    const names = () => page.getByTestId('connection-item').locator('label.radio strong').allTextContents();
    await expect.poll(names).toEqual(['Ollama', 'Built-in (llama.cpp)', 'llama.cpp server', 'llama.cpp server 2']);

    // A name that says its kind ("Ollama Ollama" before) is said once; the kind shows beside any other name.
    for (const id of ['ollama', 'builtin']) expect(await row(page, id).getByTestId('connection-kind').count()).toBe(0);
    expect(await page.getByTestId('connection-kind').count()).toBe(0);
    // The rows Firebrand provides take no key (they have no Edit to give one): "no key" said nothing there. A
    // connection the user added says whether it has one.
    for (const id of ['ollama', 'builtin']) expect(await row(page, id).getByTestId('connection-key-status').count()).toBe(0);
    expect(await page.getByTestId('connection-key-status').allTextContents()).toEqual(['no key', 'no key']);

    // Ollama's address: one field, in Ollama's row, and no second copy of it as text.
    const ollama = row(page, 'ollama');
    expect(await ollama.getByTestId('settings-ollama-url').count()).toBe(1);
    expect(await ollama.getByTestId('connection-url').count()).toBe(0);
    const address = await page.getByTestId('settings-ollama-url').inputValue();
    const shownAsText = await dialog(page).evaluate((d, a) => (d.textContent ?? '').split(a).length - 1, address);
    expect(shownAsText).toBe(0);
    // Typed without http://, it says what will be saved, as the row's address did.
    await page.getByTestId('settings-ollama-url').fill('localhost:11434');
    await expect.poll(() => page.getByTestId('settings-ollama-url-note').textContent()).toBe('Will be saved as http://localhost:11434.');
    await page.getByTestId('settings-ollama-url').fill(address);

    // At a phone's width, each row's Summarize hint takes two lines at most.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => page.evaluate(() => window.innerWidth)).toBe(390);
    const hintLines = () =>
      page.getByTestId('connection-auto-compact-hint').evaluateAll((hints) =>
        hints.map((h) => Math.round(h.getBoundingClientRect().height / parseFloat(getComputedStyle(h).lineHeight))),
      );
    await expect.poll(async () => Math.max(...(await hintLines()))).toBeLessThanOrEqual(2);
    await page.setViewportSize({ width: 1280, height: 800 });
    await shootAtBothWidths(page, 'settings-polish-top', '[data-testid="settings-theme-system"]');
    await shootAtBothWidths(page, 'settings-polish-connections', '[data-testid="connection-add"]');
  });

  it("saves on Enter on the theme's choices and on the default model's list, whose arrow keys still choose", async () => {
    s = await startUi();
    const { page } = s;
    await page.getByTestId('settings-open').click();
    await page.getByTestId('settings-theme-system').focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.getByTestId('settings-theme-light').isChecked()).toBe(true);
    // The arrow chose without saving: the dialog is open and the saved theme unchanged.
    expect((await saved(page)).theme ?? 'system').toBe('system');
    await page.keyboard.press('Enter');
    await dialog(page).waitFor({ state: 'detached' });
    expect((await saved(page)).theme).toBe('light');

    await page.getByTestId('settings-open').click();
    const list = page.getByTestId('settings-default-model');
    await list.focus();
    await page.keyboard.press('ArrowDown');
    const picked = await list.inputValue();
    expect(picked).not.toBe('');
    expect(await dialog(page).isVisible()).toBe(true);
    await page.keyboard.press('Enter');
    await dialog(page).waitFor({ state: 'detached' });
    expect((await saved(page)).defaultChatModel).toBe(picked);
  });
});
