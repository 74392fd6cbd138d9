/**
 * Settings → Tools, as it looks: the section's "Tools" heading had a "Tools (MCP servers)" legend right under it and
 * an empty band under that (the paragraphs' own margins, and an empty list), and at 1280 px "Add a server" stood level
 * with the import box's name, above the box itself.
 */
import type { Locator } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { shootAtBothWidths } from './helpers/screenshots';
import { startUi, stopUi, type UiSession } from './helpers/ui-session';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

const box = async (l: Locator) => {
  const b = await l.boundingBox();
  if (!b) throw new Error('not shown');
  return b;
};

describe('Settings → Tools, laid out', () => {
  it('says "Tools" once, with no empty band under its legend, and "Add a server" on the import box\'s line', async () => {
    s = await startUi();
    const { page } = s;
    await page.getByTestId('settings-open').click();
    const tools = page.getByTestId('settings-tools');
    await tools.waitFor();
    expect(await tools.locator('legend').textContent()).toBe('MCP servers');

    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      await tools.scrollIntoViewIfNeeded();
      const legend = await box(tools.locator('legend'));
      const intro = await box(tools.locator('p').first());
      expect(intro.y - (legend.y + legend.height), `the band under the legend at ${width} px`).toBeLessThan(16);
    }

    await page.setViewportSize({ width: 1280, height: 800 });
    const add = await box(tools.getByTestId('mcp-add'));
    const file = await box(tools.locator('.mcp-import'));
    expect(Math.abs(add.y + add.height - (file.y + file.height))).toBeLessThanOrEqual(2);
    await shootAtBothWidths(page, 'settings-tools-layout', '[data-testid="settings-tools"]');
  });
});
