/**
 * A wide table and a code block's long line scroll inside the answer: a keyboard user reaches them with Tab and
 * scrolls them with the arrow keys, each named for what it is, and axe finds no scroller out of the keyboard's reach
 * (scrollable-region-focusable). A short code block and a narrow table add no Tab stop.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { assistant, chatRoutes, ollamaLines, send, startUi, stopUi, waitIdle, type UiSession } from './helpers/ui-session';
import { shootAtBothWidths } from './helpers/screenshots';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

const columns = Array.from({ length: 14 }, (_, i) => `Column ${i + 1}`);
const LINES = [
  { content: 'A narrow table:\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nA wide one:\n\n' },
  { content: `| ${columns.join(' | ')} |\n|${columns.map(() => '---').join('|')}|\n| ${columns.map((c) => `${c} value`).join(' | ')} |\n\n` },
  { content: '```python\nprint("short")\n```\n\n' },
  { content: `\`\`\`python\nvalues = [${Array.from({ length: 60 }, (_, i) => i * 1000).join(', ')}]\n\`\`\`\n\nThat is all[^1].\n\n[^1]: A note.\n` },
];

/** axe's findings of one rule for the page as it is now. */
async function axeFindings(page: Page, rule: string): Promise<string[]> {
  await page.evaluate(AXE);
  return page.evaluate(async (id) => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'rule', values: [id] }, resultTypes: ['violations'] });
    return result.violations.flatMap((v) => v.nodes.map((n) => n.target.join(' ')));
  }, rule);
}

const focused = (page: Page) => page.evaluate(() => ({ tag: document.activeElement?.tagName ?? '', name: document.activeElement?.getAttribute('aria-label') ?? '' }));

describe('scrolling boxes in an answer', () => {
  it('are reached with Tab and scrolled with the arrow keys, and axe finds none out of reach', async () => {
    s = await startUi(chatRoutes(ollamaLines(LINES), 5));
    const { page } = s;
    await page.setViewportSize({ width: 1280, height: 800 });
    await send(page, 'Show me a wide table and a long line');
    await waitIdle(page);
    const answer = assistant(page);
    const wide = answer.locator('table').nth(1);
    const long = answer.locator('pre.code-block > code').nth(1);
    await expect.poll(() => axeFindings(page, 'scrollable-region-focusable')).toEqual([]);
    await expect.poll(() => wide.getAttribute('tabindex')).toBe('0');
    await expect.poll(() => long.getAttribute('tabindex')).toBe('0');
    expect(await wide.getAttribute('aria-label')).toBe('Table: Column 1, Column 2, Column 3, Column 4, …');
    expect(await long.getAttribute('aria-label')).toBe('Code: python');
    expect(await long.getAttribute('role')).toBe('group');
    // What does not scroll is no Tab stop.
    expect(await answer.locator('table').first().getAttribute('tabindex')).toBeNull();
    expect(await answer.locator('pre.code-block > code').first().getAttribute('tabindex')).toBeNull();

    // From the long line's Copy button, Tab goes into its code, and the arrow keys scroll it.
    await answer.locator('.code-copy').nth(1).focus();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toEqual({ tag: 'CODE', name: 'Code: python' });
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => long.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    // Back past the two Copy buttons (the short code between them is no Tab stop) to the wide table.
    for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).toEqual({ tag: 'TABLE', name: 'Table: Column 1, Column 2, Column 3, Column 4, …' });
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => wide.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);

    // At a phone's width the short code and narrow table still fit; what overflows there is reachable too.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => axeFindings(page, 'scrollable-region-focusable')).toEqual([]);
    await shootAtBothWidths(page, 'answer-scrollers-and-footnotes');
  });
});
