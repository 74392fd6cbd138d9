/**
 * The walking skeleton, as a user meets it: serve mode against an Ollama replay, a message sent from Chromium,
 * the answer growing on screen before it completes, and the conversation still there after a restart.
 */
import { describe, expect, it } from 'vitest';
import { ollamaRoutes } from '../replay-server/ollama-wire';
import { startReplayServer } from '../replay-server/replay-server';
import { serveSuite } from './helpers/serve-suite';

const ANSWER = 'The sky looks blue because air scatters short blue wavelengths of sunlight far more than red ones.'.split(/(?<= )/);

const app = serveSuite({ routes: () => ollamaRoutes(ANSWER) });

const ASSISTANT = '[data-testid="turn"][data-role="assistant"]';
const USER = '[data-testid="turn"][data-role="user"]';
const ANSWER_RUN = '[data-run="answer"]';
const assistant = () => app.page.locator(ASSISTANT);
/** The answer runs render as markdown, whose block elements add edge whitespace; the words are what count. */
const answerText = async (nth = 0) => (await assistant().nth(nth).locator(ANSWER_RUN).textContent())?.trim();

async function send(text: string): Promise<void> {
  await app.page.getByTestId('composer-input').fill(text);
  await app.page.getByTestId('composer-send').click();
}

describe('chatting in serve mode', () => {
  it('streams the answer onto the screen and keeps the conversation across a restart', async () => {
    // The server holds the answer after 3, 7 and 11 of its lines until the test has seen each part on screen:
    // the answer grows before it completes however busy the machine is (a paced stream could finish first).
    const holds = [3, 7, 11];
    app.replay.setRoutes(ollamaRoutes(ANSWER, { holdAfterChunks: holds }));
    await app.openApp();
    await expect.poll(() => app.page.getByTestId('model-picker').inputValue()).toBe('llama3.2:3b');
    await send('Why is the sky blue?');
    await expect.poll(() => app.replay.held).toBe(1);
    // Requests after this one (the title) are answered without holds.
    app.replay.setRoutes(ollamaRoutes(ANSWER));

    const full = ANSWER.join('');
    for (const lines of holds) {
      await expect.poll(() => answerText()).toBe(ANSWER.slice(0, lines).join('').trim());
      expect(await assistant().getAttribute('data-status')).toBe('streaming');
      app.replay.release();
    }
    await expect.poll(() => assistant().getAttribute('data-status')).toBe('done');
    await expect(answerText()).resolves.toBe(full.trim());

    // The request that reached the server carried the user's text and the chosen model.
    const chat = app.replay.requests.find((r) => r.path === '/api/chat');
    expect(JSON.parse(chat?.body ?? '{}')).toMatchObject({ model: 'llama3.2:3b', stream: true });
    expect(chat?.body).toContain('Why is the sky blue?');

    await app.serve?.stop();
    await app.openApp();
    await app.page.getByTestId('conversation-item').filter({ hasText: 'Why is the sky blue?' }).click();
    await expect.poll(() => answerText()).toBe(full.trim());
    await expect(app.page.locator(USER).textContent()).resolves.toContain('Why is the sky blue?');
  });

  it('says the server cannot be reached, and keeps the message the user wrote', async () => {
    const flaky = await startReplayServer(ollamaRoutes(ANSWER));
    await app.openApp(flaky.url);
    await expect.poll(() => app.page.getByTestId('model-picker').inputValue()).toBe('llama3.2:3b');
    await flaky.close(); // the server goes away after the app found its models
    await send('Are you there?');
    await expect.poll(() => app.page.getByTestId('turn-error').textContent()).toContain('Cannot reach Ollama');
    await expect.poll(() => app.page.locator(USER).textContent()).toContain('Are you there?');

    // Opened while the server is down: the model list says so, and the draft stays in the composer.
    await app.page.reload();
    await expect.poll(() => app.page.getByTestId('models-error').textContent()).toContain('Cannot reach Ollama');
    await app.page.getByTestId('composer-input').fill('Is anyone there?');
    await expect.poll(() => app.page.getByTestId('composer-send').isDisabled()).toBe(true);
    expect(await app.page.getByTestId('composer-input').inputValue()).toBe('Is anyone there?');
  });

  it('shows the server message for an unknown model and keeps the user turn', async () => {
    app.replay.setRoutes([
      ...ollamaRoutes(ANSWER).filter((r) => r.path !== '/api/chat'),
      { method: 'POST', path: '/api/chat', status: 404, body: '{"error":"model \\"llama3.2:3b\\" not found, try pulling it first"}' },
    ]);
    await app.openApp();
    await expect.poll(() => app.page.getByTestId('model-picker').inputValue()).toBe('llama3.2:3b');
    await send('Hello there');
    await expect.poll(() => app.page.getByTestId('turn-error').textContent()).toContain('not found, try pulling it first');
    await expect.poll(() => app.page.locator(USER).textContent()).toContain('Hello there');
    await expect.poll(() => assistant().getAttribute('data-status')).toBe('error');
  });

  it('marks a cut stream, keeps what arrived, and the next message works', async () => {
    const cut = ollamaRoutes(ANSWER, { cutAfterBytes: 600 });
    app.replay.setRoutes(cut);
    await app.openApp();
    await expect.poll(() => app.page.getByTestId('model-picker').inputValue()).toBe('llama3.2:3b');
    await send('Tell me about the sky');
    await expect.poll(() => assistant().getAttribute('data-status')).toBe('cut');
    await expect.poll(() => app.page.getByTestId('turn-error').textContent()).toContain('The connection to Ollama closed before the answer was finished. What arrived is kept.');
    const kept = await answerText();
    expect(kept && ANSWER.join('').startsWith(kept) && kept.length > 0).toBe(true);

    app.replay.setRoutes(ollamaRoutes(['All', ' good', ' now.']));
    await send('Try again');
    await expect.poll(() => assistant().nth(1).getAttribute('data-status')).toBe('done');
    await expect.poll(() => assistant().nth(1).textContent()).toContain('All good now.');
  });
});
