/**
 * Settings → Tools from the keyboard. "Add a server" gave its place to the form, and Save or Cancel took the form
 * away, with the focus on what went: it fell to the page's body each time, and the next Tab started from the top of
 * the page, outside Settings. The form now opens with the focus in its first field, and closed it gives the focus
 * back to the button that opened it ("Add a server", or the server's Edit).
 */
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startUi, stopUi, type UiSession } from './helpers/ui-session';

const EVERYTHING_BIN = resolve(import.meta.dirname, '../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

const focused = (s: UiSession) => s.page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? null);

describe('the focus in Settings → Tools', () => {
  it('goes into the server form as it opens, and back to the button that opened it after Save or Cancel', async () => {
    s = await startUi();
    const { page } = s;
    await page.getByTestId('settings-open').click();
    const tools = page.getByTestId('settings-tools');
    await tools.getByTestId('mcp-add').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(s!)).toBe('mcp-form-name');
    await page.keyboard.type('everything');
    await tools.getByTestId('mcp-form-command').fill(process.execPath);
    await tools.getByTestId('mcp-form-args').fill(`${EVERYTHING_BIN}\nstdio`);
    await tools.getByTestId('mcp-form-save').focus();
    await page.keyboard.press('Enter');
    const item = tools.locator('[data-testid="mcp-server"][data-name="everything"]');
    await item.waitFor();
    await expect.poll(() => focused(s!)).toBe('mcp-add');

    await item.getByTestId('mcp-server-edit').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(s!)).toBe('mcp-form-name');
    await item.getByRole('button', { name: 'Cancel' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => item.getByTestId('mcp-form').count()).toBe(0);
    await expect.poll(() => focused(s!)).toBe('mcp-server-edit');
  });
});
