/**
 * Import with the keyboard (documents and import pass): Tab to Import, Enter, pick a file. The input is disabled while
 * the file comes in (so it cannot be imported twice), and a disabled control loses the focus: it fell to <body>,
 * where the next Tab started over at the top of the page, after a refused file and after one that came in alike.
 * It comes back to Import on a desktop; on a phone the drawer closes and the focus goes to its toggle.
 */
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { startUi, stopUi, type UiSession } from './helpers/ui-session';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? null);

/** A one-conversation export with one message, as Firebrand writes it (file-format.ts). */
async function exportOf(page: Page): Promise<Buffer> {
  await page.getByTestId('composer-input').fill('How hot should green tea be?');
  await page.getByTestId('composer-send').click();
  await page.getByTestId('conversation-item').first().waitFor();
  await page.getByTestId('conversation-item').first().hover();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('conversation-export').click()]);
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('the focus after an import', () => {
  it('stays on Import after a refused file and after one that came in, on a desktop', async () => {
    s = await startUi();
    const { page } = s;
    const input = page.getByTestId('conversation-import-input');

    await input.focus();
    await input.setInputFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"hello":"world"}') });
    await expect.poll(() => page.getByTestId('notice').textContent().catch(() => null)).toContain('cannot be imported');
    await expect.poll(() => page.getByTestId('import-progress').count()).toBe(0);
    await expect.poll(() => focused(page)).toBe('conversation-import-input');

    const file = await exportOf(page);
    await input.focus();
    await input.setInputFiles({ name: 'tea.firebrand.json', mimeType: 'application/json', buffer: file });
    await expect.poll(() => page.getByTestId('conversation-item').count()).toBe(2);
    await expect.poll(() => page.getByTestId('import-progress').count()).toBe(0);
    await expect.poll(() => focused(page)).toBe('conversation-import-input');
  });

  it('goes to the toggle of the drawer that closed over a refused file, on a phone', async () => {
    s = await startUi();
    const { page } = s;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('sidebar-toggle').click();
    const input = page.getByTestId('conversation-import-input');
    await input.focus();
    await input.setInputFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('[1,2,3]') });
    await expect.poll(() => page.getByTestId('notice').textContent().catch(() => null)).toContain('cannot be imported');
    await expect.poll(() => page.getByTestId('import-progress').count()).toBe(0);
    await expect.poll(() => focused(page)).toBe('sidebar-toggle');
  });
});
