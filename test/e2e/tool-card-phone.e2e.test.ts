/**
 * Tools eyes pass, at a phone's width (390 px): a tool call's head kept its status ("Waiting for your approval…")
 * on the name's line whatever the name's length, so trigger-long-running-operation was squeezed into a column of
 * three broken lines ("trigger-long-" / "running-" / "operation") beside it. Now the status goes under the name
 * when both do not fit on one line. Serve mode in Chromium, the real server-everything from npm.
 */
import type { Locator } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { importEverything, startMcpUi, stopMcpUi, type McpUi } from './helpers/mcp-ui';
import { shootAtBothWidths } from './helpers/screenshots';
import { ollamaLines, send } from './helpers/ui-session';

let s: McpUi | undefined;
afterEach(async () => {
  await stopMcpUi(s);
  s = undefined;
});

/** How many lines an element's text takes on screen (a rectangle per line of each text node; its icon not counted). */
const linesOf = (el: Locator) =>
  el.evaluate((node) => {
    const tops = new Set<number>();
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(text);
      for (const r of range.getClientRects()) tops.add(Math.round(r.top));
    }
    return tops.size;
  });

describe('a tool call card at a phone’s width', () => {
  it('keeps a long tool name on one line, its status under it and inside the card', async () => {
    const call = ollamaLines([{ tool_calls: [{ function: { name: 'trigger-long-running-operation', arguments: { duration: 1, steps: 1 } } }] }]);
    s = await startMcpUi([call, ollamaLines([{ content: 'Not run.' }])], 'toolphone');
    const { page } = s;
    await importEverything(s);
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 390, height: 844 });
    await send(page, 'Run the long job');
    await page.getByTestId('tool-allow-once').waitFor();
    const card = page.locator('[data-card="tool-call"]').first();
    const name = card.locator('.tool-name');
    const status = card.locator('.tool-status');
    await expect.poll(() => status.textContent()).toBe('Waiting for your approval…');
    expect(await linesOf(name)).toBe(1);
    expect(await linesOf(status)).toBe(1);
    const [cardBox, nameBox, statusBox] = await Promise.all([card.boundingBox(), name.boundingBox(), status.boundingBox()]);
    if (!cardBox || !nameBox || !statusBox) throw new Error('the card is not on screen');
    expect(statusBox.y).toBeGreaterThanOrEqual(nameBox.y + nameBox.height - 1);
    expect(statusBox.x + statusBox.width).toBeLessThanOrEqual(cardBox.x + cardBox.width);
    await shootAtBothWidths(page, 'tool-card-phone', '[data-card="tool-approval"]');
    await page.getByTestId('tool-deny').click();
  });
});
