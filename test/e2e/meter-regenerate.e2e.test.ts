/**
 * The meter while a regenerated answer or an edited message is answered. Found against a real llama-server: a chat
 * measured at 1,736 tokens (tool definitions 1,424) read 106 while the new answer streamed, and came back when it
 * ended. The new answer takes the measured tip off the branch, and the meter fell to the turns' characters alone.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { assistant, chatRoutes, ollamaLines, send, startUi, stopUi, USER, waitIdle, type UiSession } from './helpers/ui-session';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

const meter = async (page: UiSession['page']) => Number(await page.getByTestId('context-meter').getAttribute('data-estimate'));

/** A model that can call tools (its /api/show says so): the built-in tools' definitions go with every request. */
async function chatWithTools(): Promise<UiSession> {
  const lines = Array.from({ length: 10 }, (_, i) => ({ content: `word${i} ` }));
  const show = readFileSync(new URL('../fixtures/ollama-models/show-qwen3-14b.json', import.meta.url), 'utf8');
  // Every answer holds after its fifth line until released: the test looks at the meter mid-answer.
  const session = await startUi([...chatRoutes(ollamaLines(lines), 10, 5), { method: 'POST', path: '/api/show', body: show }]);
  const { page, replay } = session;
  await send(page, 'What time is it in Paris?');
  await expect.poll(() => replay.held).toBe(1);
  replay.release();
  await waitIdle(page);
  return session;
}

/** Releases held streams (the answer's, the title's) until no answer streams and the meter is main's count again. */
async function settle(session: UiSession): Promise<void> {
  const { page, replay } = session;
  await expect
    .poll(async () => {
      if (replay.held > 0) replay.release();
      return (await page.locator('[data-testid="turn"][data-status="streaming"]').count()) === 0 && replay.held === 0;
    })
    .toBe(true);
}

describe('the meter while a new answer replaces the last', () => {
  it('keeps the tool definitions while a regenerated answer streams', async () => {
    s = await chatWithTools();
    const { page, replay } = s;
    await settle(s);
    await expect.poll(() => page.getByTestId('context-meter').getAttribute('data-counted')).toMatch(/^(estimate|server|tokenizer)$/);
    const before = await meter(page);
    expect(before).toBeGreaterThan(100);
    await assistant(page).hover();
    await page.getByTestId('regenerate').click();
    await expect.poll(() => replay.held).toBe(1);
    await expect.poll(() => assistant(page).getAttribute('data-status')).toBe('streaming');
    await expect.poll(() => assistant(page).textContent()).toContain('word4');
    // The same question and about the same answer: not the turns' characters alone (~20 tokens).
    expect(await meter(page)).toBeGreaterThan(before * 0.8);
    replay.release();
    await waitIdle(page);
  });

  it('keeps them while an edited message is answered', async () => {
    s = await chatWithTools();
    const { page, replay } = s;
    await settle(s);
    const before = await meter(page);
    expect(before).toBeGreaterThan(100);
    await page.locator(USER).hover();
    await page.getByTestId('turn-edit').click();
    await page.getByTestId('turn-edit-input').fill('What time is it in Tokyo?');
    await page.getByTestId('turn-edit-send').click();
    await expect.poll(() => replay.held).toBe(1);
    await expect.poll(() => assistant(page).textContent()).toContain('word4');
    expect(await assistant(page).getAttribute('data-status')).toBe('streaming');
    expect(await meter(page)).toBeGreaterThan(before * 0.8);
    replay.release();
    await waitIdle(page);
  });
});
