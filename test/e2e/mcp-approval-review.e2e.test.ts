/**
 * Tools pass 2, in serve mode with the real server-everything: a tool call that waits for the user's approval is said
 * once by the screen-reader announcer, and the note under the message box has a Review button that takes the focus
 * to the card's first button; the card itself never takes the focus from the message box. The call's step shows no
 * numbers under it while it waits ("1 token · 1.3 tok/s · first token 200 ms" was there).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { importEverything, startMcpUi, stopMcpUi, type McpUi } from './helpers/mcp-ui';
import { assistant, ollamaLines, send, waitIdle } from './helpers/ui-session';

let s: McpUi | undefined;
afterEach(async () => {
  await stopMcpUi(s);
  s = undefined;
});

const focused = (s: McpUi) => s.page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? null);

describe('a tool call waiting for approval, from the keyboard and a screen reader', () => {
  it('is announced once, and Review under the message box takes the focus to the card', async () => {
    const callEcho = ollamaLines([{ tool_calls: [{ function: { name: 'echo', arguments: { message: 'hi' } } }] }]);
    s = await startMcpUi([callEcho, ollamaLines([{ content: 'The server echoed it.' }])], 'mcp-review');
    const { page } = s;
    await importEverything(s);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('settings-tools').count()).toBe(0);

    await send(page, 'Please echo something');
    const input = page.getByTestId('composer-input');
    await input.focus();
    await page.keyboard.type('my next question');
    const card = page.locator('[data-card="tool-approval"]');
    await card.getByTestId('tool-allow-once').waitFor();
    await expect.poll(() => page.getByTestId('answer-announcer').textContent()).toBe('Waiting for your approval: echo (from the tool server everything) wants to run. Review, under the message box, takes you to it.');
    // The note under the message box says it too, but is not a second live region for it.
    expect(await page.getByTestId('composer-reason').getAttribute('role')).toBeNull();
    // The step that only called the tool has no numbers of its own under it.
    expect(await page.getByTestId('answer-stats').count()).toBe(0);
    // The card did not take the focus from the message box, nor what was typed there.
    expect(await focused(s)).toBe('composer-input');
    expect(await input.inputValue()).toBe('my next question');

    // From the message box, Tab reaches Review; Enter there puts the focus on the card's first button.
    for (let i = 0; i < 12 && (await focused(s)) !== 'approval-review'; i++) await page.keyboard.press('Tab');
    expect(await focused(s)).toBe('approval-review');
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(s!)).toBe('tool-allow-once');
    await page.keyboard.press('Enter');
    await waitIdle(page);
    await expect.poll(() => assistant(page, 1).locator('[data-run="answer"]').textContent()).toContain('The server echoed it.');
    expect(await page.getByTestId('approval-review').count()).toBe(0);
    expect(await input.inputValue()).toBe('my next question');
    // The answer's own figures are under its last step, once.
    expect(await page.getByTestId('answer-stats').count()).toBe(1);
  });
});
