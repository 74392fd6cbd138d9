/**
 * Settings → Tools, the add/edit server form: its boxes said what they were only by placeholders, which go as the
 * user types, so a filled form no longer said which box was which. Each field now has a label over it, as the other
 * Settings fields do, whose text is the field's accessible name; the variable and header rows have headings over
 * their columns. axe finds nothing on the form in either theme; screenshots at 1280 and 390 px in both themes.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { shootAtBothWidths } from './helpers/screenshots';
import { startUi, stopUi, type UiSession } from './helpers/ui-session';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

/**
 * The words the user sees naming each field, found by its accessible name: the text of its label where it has one
 * (and the label shows), else the heading drawn straight over it (a column of rows); null where nothing says.
 */
async function shownLabels(form: Locator, names: string[]): Promise<Record<string, string | null>> {
  const shown: Record<string, string | null> = {};
  for (const name of names) {
    shown[name] = await form.getByLabel(name, { exact: true }).evaluate((el: HTMLInputElement) => {
      const seen = (n: Node) => {
        const range = document.createRange();
        range.selectNodeContents(n);
        const r = range.getBoundingClientRect();
        return r.width > 0 && r.height > 0;
      };
      const label = el.labels?.[0];
      if (label) {
        const words = [...label.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '' && seen(n));
        return words.length > 0 ? words.map((n) => n.textContent).join('').trim() : null;
      }
      const box = el.getBoundingClientRect();
      const form = el.closest('[data-testid="mcp-form"]')!;
      const over = [...form.querySelectorAll('*')].filter((h) => {
        if (h.children.length > 0 || (h.textContent ?? '').trim() === '' || h.closest('select') || !seen(h)) return false;
        const b = h.getBoundingClientRect();
        return b.bottom <= box.top + 1 && Math.abs(b.left - box.left) < 2;
      });
      return over.at(-1)?.textContent?.trim() ?? null;
    });
  }
  return shown;
}

/** axe's findings, of any impact, on the form as it is now. */
async function axeOnForm(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: string, opts: object) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run('[data-testid="mcp-form"]', { resultTypes: ['violations'] });
    return result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  });
}

/** In the light theme and the dark: axe finds nothing on the form, and its pictures at 1280 and 390 px are taken. */
async function checkBothThemes(page: Page, what: string, shot: string): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
    expect(await axeOnForm(page), `${what} (${theme})`).toEqual([]);
    await shootAtBothWidths(page, `mcp-form-labels-${shot}-${theme}`, '[data-testid="mcp-form"]');
  }
}

describe('the MCP server form in Settings → Tools', () => {
  it('says over each box what it is, still once every box is filled', async () => {
    s = await startUi();
    const { page } = s;
    await page.getByTestId('settings-open').click();
    const tools = page.getByTestId('settings-tools');
    await tools.getByTestId('mcp-add').click();
    const form = tools.getByTestId('mcp-form');

    await form.getByLabel('Server name', { exact: true }).fill('notes');
    await form.getByLabel('Command', { exact: true }).fill('npx');
    await form.getByLabel('Arguments, one per line', { exact: true }).fill('-y\n@modelcontextprotocol/server-memory');
    await form.getByLabel('Working folder (optional)', { exact: true }).fill('/home/me/notes');
    await form.getByRole('button', { name: 'Add variable' }).click();
    await form.getByRole('textbox', { name: 'Environment variables: name' }).fill('API_KEY');
    await form.getByLabel('Environment variables: value of API_KEY', { exact: true }).fill('secret');
    expect(
      await shownLabels(form, [
        'Server name',
        'How to reach it',
        'Command',
        'Arguments, one per line',
        'Working folder (optional)',
        'Environment variables: name',
        'Environment variables: value of API_KEY',
        'Call timeout (seconds)',
      ]),
    ).toEqual({
      'Server name': 'Server name',
      'How to reach it': 'How to reach it',
      Command: 'Command',
      'Arguments, one per line': 'Arguments, one per line',
      'Working folder (optional)': 'Working folder (optional)',
      'Environment variables: name': 'Name',
      'Environment variables: value of API_KEY': 'Value',
      'Call timeout (seconds)': 'Call timeout (seconds)',
    });
    await checkBothThemes(page, 'stdio form', 'stdio');

    // A server reached by URL: its address and its header rows say what they are too.
    await form.getByLabel('How to reach it', { exact: true }).selectOption('http');
    await form.getByLabel('Server URL', { exact: true }).fill('https://mcp.example.com/mcp');
    await form.getByRole('button', { name: 'Add header' }).click();
    await form.getByRole('textbox', { name: 'Headers: name' }).fill('Authorization');
    await form.getByLabel('Headers: value of Authorization', { exact: true }).fill('Bearer x');
    expect(await shownLabels(form, ['Server URL', 'Headers: name', 'Headers: value of Authorization'])).toEqual({
      'Server URL': 'Server URL',
      'Headers: name': 'Name',
      'Headers: value of Authorization': 'Value',
    });
    await checkBothThemes(page, 'URL form', 'url');
  });
});
