/**
 * Review reaches a waiting approval card the reader has scrolled far out of the chat (serve mode, the real
 * server-everything): the chat is virtualized, so a card far above or below the viewport is not even in the page.
 * Review brings it into view, puts the focus on its Allow once, and the call can be approved from there; the answer
 * that follows the approval is followed to its end, as it is for a card approved where it was in view.
 */
import type { Locator, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { importEverything, startMcpUi, stopMcpUi, type McpUi } from './helpers/mcp-ui';
import { ollamaLines, send, waitIdle } from './helpers/ui-session';

let s: McpUi | undefined;
afterEach(async () => {
  await stopMcpUi(s);
  s = undefined;
});

const CARD = '[data-card="tool-approval"]';
/** An answer many screens tall: scrolled to its top, whatever comes after it is far out of the list. */
const LONG_ANSWER = Array.from({ length: 160 }, (_, i) => `Paragraph ${i + 1} of a long answer.`).join('\n\n');
/** The answer after the approval: taller than the window, so only a list that follows the end shows its last line. */
const ECHOED = `${Array.from({ length: 40 }, (_, i) => `The server echoed line ${i + 1}.`).join('\n\n')}\n\nThat is all it said.`;

const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null);

/** Whether the element's box lies wholly inside the chat's scroller's visible part. */
const inView = async (what: Locator): Promise<boolean> =>
  (await what.count()) === 1 &&
  what.evaluate((el) => {
    const scroller = el.closest('.turn-list');
    if (!scroller) return false;
    const box = el.getBoundingClientRect();
    const view = scroller.getBoundingClientRect();
    return box.height > 0 && box.top >= view.top - 1 && box.bottom <= view.bottom + 1;
  });

describe('Review, with the waiting card scrolled out of the chat', () => {
  // A phone's width too: the card and the message box share a screen a third as tall.
  it.each([
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
  ])('at $width px: brings the card into view, focuses Allow once, and the call is approved from there', async (size) => {
    const callEcho = ollamaLines([{ tool_calls: [{ function: { name: 'echo', arguments: { message: 'hi' } } }] }]);
    s = await startMcpUi([ollamaLines([{ content: LONG_ANSWER }]), callEcho, ollamaLines([{ content: ECHOED }])], 'mcp-review-far');
    const { page } = s;
    await importEverything(s);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('settings-tools').count()).toBe(0);
    await page.setViewportSize(size);

    await send(page, 'Tell me a lot');
    await waitIdle(page);
    await send(page, 'Please echo something');
    await page.locator(CARD).getByTestId('tool-allow-once').waitFor();

    // The reader scrolls up to the long answer's top: the card is no longer in the page at all.
    const scroller = page.locator('[data-testid="chat"] .turn-list').first();
    await scroller.hover();
    await expect
      .poll(async () => {
        await page.mouse.wheel(0, -100_000);
        return page.locator(CARD).count();
      })
      .toBe(0);
    await expect.poll(() => page.getByText('Paragraph 1 of a long answer.', { exact: true }).isVisible()).toBe(true);

    await page.getByTestId('approval-review').click();
    await expect.poll(() => focused(page)).toBe('tool-allow-once');
    await expect.poll(() => inView(page.locator(CARD).getByTestId('tool-allow-once'))).toBe(true);

    await page.keyboard.press('Enter');
    await waitIdle(page);
    expect(await page.getByTestId('approval-review').count()).toBe(0);
    // The focus went back to the message box, and the list follows the answer after the approval to its end, as it
    // does for a card approved where it was in view.
    expect(await focused(page)).toBe('composer-input');
    await expect.poll(() => inView(page.getByText('That is all it said.', { exact: true }))).toBe(true);
  });
});
