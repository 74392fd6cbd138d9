/**
 * Escape in an open tool server form (Settings → Tools) closes the form, asking first where it was typed into, as a
 * connection's editor does ("Discard your changes to Desk llama?"). It went up to the dialog, which asked about the
 * whole of Settings ("A connection or tool server you typed is not added or saved yet.") and, answered Discard, closed
 * Settings with everything else typed there.
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

const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null);

describe('Escape in a tool server form', () => {
  it('closes the add form, asking first once typed into; Escape again keeps editing', async () => {
    s = await startUi();
    const { page } = s;
    await page.getByTestId('settings-open').click();
    const tools = page.getByTestId('settings-tools');
    await tools.getByTestId('mcp-add').click();
    await expect.poll(() => focused(page)).toBe('mcp-form-name');
    // Untouched, Escape closes the form alone, the focus back on "Add a server".
    await page.keyboard.press('Escape');
    await tools.getByTestId('mcp-form').waitFor({ state: 'detached' });
    await expect.poll(() => focused(page)).toBe('mcp-add');
    expect(await page.getByTestId('settings-dialog').isVisible()).toBe(true);

    await tools.getByTestId('mcp-add').click();
    await tools.getByTestId('mcp-form-name').fill('notes');
    await page.keyboard.press('Escape');
    const question = tools.getByTestId('mcp-form-unsaved');
    await question.waitFor();
    expect(await question.textContent()).toContain('Discard this new server?');
    expect(await page.getByTestId('settings-unsaved').count()).toBe(0);
    await expect.poll(() => focused(page)).toBe('mcp-form-keep');
    await shootAtBothWidths(page, 'mcp-form-escape', '[data-testid="mcp-form-unsaved"]');
    // Escape again is Keep editing: the name is there, the focus back in it.
    await page.keyboard.press('Escape');
    await question.waitFor({ state: 'detached' });
    expect(await tools.getByTestId('mcp-form-name').inputValue()).toBe('notes');
    await expect.poll(() => focused(page)).toBe('mcp-form-name');
    // Discard closes the form, not Settings.
    await page.keyboard.press('Escape');
    await tools.getByTestId('mcp-form-discard').click();
    await tools.getByTestId('mcp-form').waitFor({ state: 'detached' });
    expect(await page.getByTestId('settings-dialog').isVisible()).toBe(true);
    expect(await tools.getByTestId('mcp-server').count()).toBe(0);
  });

  it("asks about a saved server's edit by its name", async () => {
    s = await startUi();
    const { page } = s;
    await page.getByTestId('settings-open').click();
    const tools = page.getByTestId('settings-tools');
    await tools.getByTestId('mcp-add').click();
    await tools.getByTestId('mcp-form-name').fill('remote');
    await tools.getByTestId('mcp-form-transport').selectOption('http');
    await tools.getByTestId('mcp-form-url').fill('http://127.0.0.1:9/mcp');
    await tools.getByTestId('mcp-form-save').click();
    const item = tools.locator('[data-testid="mcp-server"][data-name="remote"]');
    await item.waitFor();
    await item.getByTestId('mcp-server-edit').click();
    await item.getByTestId('mcp-form-url').fill('http://127.0.0.1:10/mcp');
    await page.keyboard.press('Escape');
    await expect.poll(() => item.getByTestId('mcp-form-unsaved').textContent()).toContain('Discard your changes to remote?');
    await item.getByTestId('mcp-form-discard').click();
    await item.getByTestId('mcp-form').waitFor({ state: 'detached' });
    await expect.poll(() => focused(page)).toBe('mcp-server-edit');
    expect(await page.getByTestId('settings-dialog').isVisible()).toBe(true);
  });
});
