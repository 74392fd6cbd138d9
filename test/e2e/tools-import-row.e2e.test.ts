/**
 * Settings → Tools at a phone's width: the "Import an mcpServers file (JSON)" file box shared its row with "Add a
 * server" and was squeezed to "No …sen" (its basis, 12em, fitted beside the button at 390 px, and the box took what
 * was left). The box now keeps the width it needs: on its own row on a phone, beside the button on a desktop.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startUi, stopUi, type UiSession } from './helpers/ui-session';
import { shootAtBothWidths } from './helpers/screenshots';

let s: UiSession | undefined;
beforeAll(async () => {
  s = await startUi();
});
afterAll(async () => {
  await stopUi(s);
});

interface Boxes {
  add: DOMRect;
  file: DOMRect;
  /** The width of the row the two are laid out in (inside its padding). */
  row: number;
  /**
   * The width a file box takes when nothing squeezes it (the same box, alone in the page): Chromium's is wider than
   * "Choose File  No file chosen" needs, and wider than a 390 px window leaves, so there the box gets the whole row.
   */
  natural: number;
}

/** Where "Add a server" and the file box are, the width of their row, and the file box's natural width. */
function boxes(page: Page): Promise<Boxes> {
  return page.evaluate(() => {
    const tools = document.querySelector('[data-testid="settings-tools"]')!;
    const addButton = tools.querySelector('[data-testid="mcp-add"]')!;
    const add = addButton.getBoundingClientRect().toJSON() as DOMRect;
    const file = tools.querySelector('[data-testid="mcp-import-input"]')!.getBoundingClientRect().toJSON() as DOMRect;
    const row = addButton.parentElement!;
    const style = getComputedStyle(row);
    const probe = document.createElement('input');
    probe.type = 'file';
    probe.style.position = 'absolute';
    probe.style.width = 'auto';
    tools.appendChild(probe);
    const natural = probe.getBoundingClientRect().width;
    probe.remove();
    return { add, file, row: row.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight), natural };
  });
}

const overlap = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

describe('Settings → Tools, "Add a server" and the import file box', () => {
  it('gives the file box the width it needs: its own row at 390 px, beside "Add a server" at 1280 px', async () => {
    const { page } = s!;
    await page.getByTestId('settings-open').click();
    await page.getByTestId('settings-tools').getByTestId('mcp-add').waitFor();
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      await page.getByTestId('settings-tools').getByTestId('mcp-add').scrollIntoViewIfNeeded();
      const b = await boxes(page);
      expect(overlap(b.add, b.file), `at ${width} px`).toBe(false);
      // Before, 181 of the row's 296 px at 390 px, beside the button: "No …sen".
      expect(b.file.width, `at ${width} px`).toBeGreaterThanOrEqual(Math.min(b.natural, b.row) - 1);
      if (width === 390) expect(b.file.top, 'under the button on a phone').toBeGreaterThanOrEqual(b.add.bottom);
      else expect(b.file.top, 'beside the button on a desktop').toBeLessThan(b.add.bottom);
    }
    await shootAtBothWidths(page, 'tools-import-row', '[data-testid="mcp-import-input"]');
  });
});
