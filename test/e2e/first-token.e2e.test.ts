/**
 * "First token" is one figure for one answer. Before: live it was the page's clock, from Send to the token reaching
 * the page; after a reload main's, from the request leaving to the token: two numbers for the same answer.
 */
import { describe, expect, it } from 'vitest';
import { ollamaRoutes } from '../replay-server/ollama-wire';
import { serveSuite } from './helpers/serve-suite';

const app = serveSuite();

describe("an answer's first token", () => {
  it('shows the same figure live as after a reload', async () => {
    app.replay.setRoutes(ollamaRoutes(['The sky ', 'is blue.']));
    await app.openApp();
    await expect.poll(() => app.page.getByTestId('model-picker').inputValue()).toBe('llama3.2:3b');
    await app.page.getByTestId('composer-input').fill('Why is the sky blue?');
    await app.page.getByTestId('composer-send').click();
    const stats = app.page.locator('[data-testid="turn"][data-role="assistant"] [data-testid="answer-stats"]');
    const firstToken = async () => ((await stats.count()) === 1 ? /first token [\d.]+ m?s/.exec((await stats.textContent()) ?? '')?.[0] : undefined);
    await expect.poll(firstToken).toBeDefined();
    const live = await firstToken();

    await app.page.reload();
    // Its title is the model's (the same replay answers the title request): the one conversation.
    await app.page.getByTestId('conversation-item').first().click();
    await expect.poll(firstToken).toBeDefined();
    expect(await firstToken()).toBe(live);
  });
});
