/**
 * "Thought for N s" is one figure for one reasoning run. Before: live it was the page's clock, from the run's first
 * part reaching the page to the answer's; after a reload main's, saved with the answer: two numbers for the same
 * answer. The page's clock is pushed 10 s ahead while the run streams, so the two cannot round to the same figure.
 *
 * Then main's figure reached the page only with the saved answer: while the rest of the answer streamed the panel
 * said "Thoughts", and the number popped in as the answer ended. Main now sends it as the run ends.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { assistant, chatRoutes, ollamaLines, send, startUi, stopUi, waitIdle, type UiSession } from './helpers/ui-session';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

describe('"Thought for N s"', () => {
  it("shows main's figure as soon as the reasoning ends, while the answer streams, the same as once saved and after a reload", async () => {
    const thinking = Array.from({ length: 4 }, (_, i) => ({ thinking: `step ${i} of my plan. ` }));
    const answer = Array.from({ length: 6 }, (_, i) => ({ content: `word${i} ` }));
    const body = ollamaLines([...thinking, ...answer]);
    // Held mid-reasoning, then after 2 words of the answer: each state is looked at on any machine.
    s = await startUi(chatRoutes(body, 20, [2, thinking.length + 2]), (page) => page.clock.install());
    const { page, replay } = s;
    const summary = () => assistant(page).getByTestId('reasoning-summary').textContent();

    await send(page, 'Think first, then answer.');
    await expect.poll(() => replay.held).toBe(1);
    // The title request that follows the answer gets the whole stream, held nowhere.
    replay.setRoutes(chatRoutes(body, 20));
    await expect.poll(summary).toMatch(/^Thinking…/);
    // While it reasons the panel counts up by the page's clock.
    await page.clock.fastForward(10_000);
    await expect.poll(async () => Number(/^Thinking… (\d+) s$/.exec((await summary()) ?? '')?.[1] ?? 0)).toBeGreaterThanOrEqual(10);

    replay.release();
    await expect.poll(() => assistant(page).locator('[data-run="answer"]').textContent()).toContain('word1');
    await expect.poll(() => replay.held).toBe(1);
    expect(await assistant(page).getAttribute('data-status')).toBe('streaming');
    // The run ended and the answer streams: main's figure is on screen already (it said "Thoughts" until the end).
    await expect.poll(summary).toMatch(/^Thought for (under a second|\d+ s)$/);
    const live = await summary();

    // A page opened mid-answer (a reload) gets the same figure with the answer as streamed so far.
    await page.reload();
    await page.getByTestId('conversation-item').first().click();
    await expect.poll(summary).toMatch(/^Thought for (under a second|\d+ s)$/);
    expect(await summary()).toBe(live);
    expect(await assistant(page).getAttribute('data-status')).toBe('streaming');
    expect(replay.held).toBe(1);

    replay.release();
    await waitIdle(page);
    await expect.poll(() => assistant(page).locator('[data-run="answer"]').textContent()).toContain('word5');
    // Once saved, and after a reload: the same figure.
    expect(await summary()).toBe(live);

    await page.reload();
    await page.getByTestId('conversation-item').first().click();
    await expect.poll(summary).toMatch(/^Thought for (under a second|\d+ s)$/);
    expect(await summary()).toBe(live);
  });
});
