/**
 * What the app says when a server answers, but not as it should: the words point at what went wrong, and nothing
 * the user wrote is lost.
 */
import { describe, expect, it } from 'vitest';
import { ollamaChatStream, ollamaRoutes } from '../replay-server/ollama-wire';
import { startReplayServer, type ReplayRoute } from '../replay-server/replay-server';
import { shootAtBothWidths } from './helpers/screenshots';
import { serveSuite } from './helpers/serve-suite';

const app = serveSuite();

const V1_MODELS = '{"object":"list","data":[{"id":"phi-4","object":"model"}]}';
/** What nginx answers for a server behind it that is down. */
const NGINX_502 = '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.24.0</center>\r\n</body>\r\n</html>\r\n';
const sse = (tokens: string[]): string =>
  [
    ...tokens.map((t) => ({ delta: { content: t }, finish_reason: null })),
    { delta: {}, finish_reason: 'stop' },
  ]
    .map((choice) => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'phi-4', choices: [{ index: 0, ...choice }] })}\n\n`)
    .join('') + 'data: [DONE]\n\n';

/** Adds an OpenAI-compatible connection named `label` at the replay server and makes it the one used. */
async function useOpenAiConnection(label: string): Promise<void> {
  await app.page.getByTestId('settings-open').click();
  await app.page.getByTestId('connection-add-kind').selectOption('openai-compatible');
  await app.page.getByTestId('connection-add-label').fill(label);
  await app.page.getByTestId('connection-add-url').fill(app.replay.url);
  await app.page.getByTestId('connection-add').click();
  const item = app.page.locator('[data-testid="connection-item"][data-kind="openai-compatible"]');
  await item.getByTestId('connection-use').click();
  await expect.poll(() => item.getByTestId('connection-use').isChecked()).toBe(true);
  await app.page.getByTestId('settings-save').click(); // Save keeps the connection picked (Escape asks, Cancel undoes it)
  await app.page.getByTestId('settings-dialog').waitFor({ state: 'detached' });
  await expect.poll(() => app.page.getByTestId('model-picker').inputValue()).toBe('phi-4');
}

describe('a server that answers, but not as it should', () => {
  it('says a server that answered its model list with an error is running: not "cannot be reached: start it"', async () => {
    // Before: the banner said "Ollama at … answered 500 when asked for its models." and the line under the composer
    // "Ollama cannot be reached: start it, …", sending the user to start a server that was running.
    app.replay.setRoutes([...ollamaRoutes(['Hi.']).filter((r) => r.path !== '/api/tags'), { path: '/api/tags', status: 500, body: 'Internal Server Error' }]);
    await app.openApp();
    await expect.poll(() => app.page.getByTestId('models-error').textContent()).toContain('answered 500 when asked for its models');
    const reason = app.page.getByTestId('composer-reason');
    await expect.poll(() => reason.textContent()).toContain('Ollama answered but did not list its models (the message above says why): check its address and kind in Settings → Connections.');
    expect(await reason.textContent()).not.toContain('cannot be reached');

    // A server that cannot be reached is still told to start.
    const port = new URL(app.replay.url).port;
    await app.replay.close();
    await app.page.getByTestId('models-error').getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => reason.textContent()).toContain('Ollama cannot be reached: start it');
    app.replay = await startReplayServer(ollamaRoutes(['Hi.']), Number(port));
  });

  it('names the web page a proxy answered for a server that is down, not its markup, and Retry answers once it is back', async () => {
    // Before: the answer's error was the page's markup, "<html> <head><title>502 Bad Gateway</title></head> <body> …".
    app.replay.setRoutes([
      ...ollamaRoutes(['Hi.']),
      { path: '/v1/models', body: V1_MODELS },
      { method: 'POST', path: '/v1/chat/completions', status: 502, body: NGINX_502, headers: { 'content-type': 'text/html' } },
    ]);
    await app.openApp();
    await useOpenAiConnection('Behind nginx');

    await app.page.getByTestId('composer-input').fill('Are you there behind the proxy?');
    await app.page.getByTestId('composer-send').click();
    const error = app.page.getByTestId('turn-error');
    await expect.poll(() => error.textContent()).toContain(
      'Behind nginx answered HTTP 502 with a web page ("502 Bad Gateway"): a proxy in front of it got no answer from it. Is the server running?',
    );
    expect(await error.textContent()).not.toContain('<');
    await expect.poll(() => app.page.locator('[data-testid="turn"][data-role="user"]').textContent()).toContain('Are you there behind the proxy?');

    // The server is back behind the proxy: Retry answers, with no reload.
    app.replay.setRoutes([
      ...ollamaRoutes(['Hi.']),
      { path: '/v1/models', body: V1_MODELS },
      { method: 'POST', path: '/v1/chat/completions', body: sse(['Here ', 'I am.']), headers: { 'content-type': 'text/event-stream' } },
    ]);
    const answer = app.page.locator('[data-testid="turn"][data-role="assistant"]').last();
    await answer.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => answer.getAttribute('data-status')).toBe('done');
    expect((await answer.locator('[data-run="answer"]').textContent())?.trim()).toBe('Here I am.');
  });

  it('says a web page answered with 200 in place of an answer (a sign-in page) is one, by its title, not that the connection closed', async () => {
    // Before: "Cut off. The connection closed before the answer was finished. What arrived is kept.": an
    // OpenAI-compatible server behind a sign-in proxy answered its page with 200, which held no stream frame.
    const SIGN_IN = '<!doctype html><html><head><title>Sign in to Guest Wi-Fi</title></head><body><form>…</form></body></html>';
    app.replay.setRoutes([
      ...ollamaRoutes(['Hi.']),
      { path: '/v1/models', body: V1_MODELS },
      { method: 'POST', path: '/v1/chat/completions', body: SIGN_IN, headers: { 'content-type': 'text/html; charset=utf-8' } },
    ]);
    await app.openApp();
    await useOpenAiConnection('Office box');
    await app.page.getByTestId('composer-input').fill('Are you there?');
    await app.page.getByTestId('composer-send').click();
    const answer = app.page.locator('[data-testid="turn"][data-role="assistant"]').last();
    await expect.poll(() => answer.getAttribute('data-status')).toBe('error');
    const error = (await answer.getByTestId('turn-error').textContent()) ?? '';
    expect(error).toContain('Office box answered with a web page ("Sign in to Guest Wi-Fi"), not an answer: is this the model server\'s address, and does it need a sign-in first?');
    expect(error).not.toContain('connection closed');
    expect(error).not.toContain('<');
    expect(await app.page.locator('[data-testid="turn"][data-role="user"]').textContent()).toContain('Are you there?');
    expect(await answer.getByRole('button', { name: 'Retry' }).count()).toBe(1);
  });

  it('says an answer in another format than Ollama\'s is not Ollama\'s, not that the connection closed, and keeps the message', async () => {
    // Before: "Cut off. The connection closed before the answer was finished. What arrived is kept.", with nothing
    // kept and nothing closed early: a server at the Ollama address answered in an OpenAI-style stream.
    app.replay.setRoutes([
      ...ollamaRoutes(['Hi.']).filter((r) => r.path !== '/api/chat'),
      { method: 'POST', path: '/api/chat', body: sse(['Hello ', 'there.']), headers: { 'content-type': 'text/event-stream' } },
    ]);
    await app.openApp();
    await expect.poll(() => app.page.getByTestId('model-picker').inputValue()).toBe('llama3.2:3b');
    await app.page.getByTestId('composer-input').fill('Which server are you?');
    await app.page.getByTestId('composer-send').click();
    const answer = app.page.locator('[data-testid="turn"][data-role="assistant"]').last();
    await expect.poll(() => answer.getAttribute('data-status')).toBe('error');
    const error = await answer.getByTestId('turn-error').textContent();
    expect(error).toContain("The answer could not be read: it was not in Ollama's format (it began with \"data: {");
    expect(error).toContain('Is the server at this address Ollama? Check its kind in Settings → Connections.');
    expect(error).not.toContain('connection closed');
    expect(await app.page.locator('[data-testid="turn"][data-role="user"]').textContent()).toContain('Which server are you?');
    expect(await answer.getByRole('button', { name: 'Retry' }).count()).toBe(1);
  });
  // Two connections of one kind: the banner named the one that failed by its kind ("Cannot reach Ollama at …"), the
  // composer by its name ("GPU box cannot be reached"). Both now say the user's name for it.
  it('names a connection that cannot be reached, or lists no models, by its name in the banner and the composer alike', async () => {
    app.replay.setRoutes([{ path: '/v1/models', status: 500, body: '{"error":{"message":"no model loaded"}}' }]);
    // The default Ollama is away too: no model is chosen, so the composer says why.
    await app.openApp('http://127.0.0.1:3');
    await expect.poll(() => app.page.getByTestId('models-error').textContent()).toContain('Cannot reach Ollama at http://127.0.0.1:3.');
    await app.page.getByTestId('settings-open').click();
    const use = async (kind: string, label: string, url: string) => {
      await app.page.getByTestId('connection-add-kind').selectOption(kind);
      await app.page.getByTestId('connection-add-label').fill(label);
      await app.page.getByTestId('connection-add-url').fill(url);
      await app.page.getByTestId('connection-add').click();
      const item = app.page.locator('[data-testid="connection-item"]', { hasText: label });
      await item.getByTestId('connection-use').click();
      await expect.poll(() => item.getByTestId('connection-use').isChecked()).toBe(true);
    };
    const banner = app.page.getByTestId('models-error');
    const reason = app.page.getByTestId('composer-reason');

    await use('ollama', 'GPU box', 'http://127.0.0.1:1');
    await expect.poll(() => banner.textContent()).toContain('Cannot reach GPU box at http://127.0.0.1:1.');
    await app.page.getByTestId('settings-save').click();
    await app.page.getByTestId('settings-dialog').waitFor({ state: 'detached' });
    await expect.poll(() => reason.textContent()).toContain('GPU box cannot be reached');
    await shootAtBothWidths(app.page, 'banner-names-connection');

    await app.page.getByTestId('settings-open').click();
    await use('llama-server', 'Laptop', 'http://127.0.0.1:2');
    await expect.poll(() => banner.textContent()).toContain('Cannot reach Laptop at http://127.0.0.1:2.');

    await use('openai-compatible', 'LM Studio', app.replay.url);
    await expect.poll(() => banner.textContent()).toContain(`LM Studio at ${app.replay.url} answered HTTP 500 when asked for its models`);
    await app.page.getByTestId('settings-save').click();
    await app.page.getByTestId('settings-dialog').waitFor({ state: 'detached' });
    await expect.poll(() => reason.textContent()).toContain('LM Studio answered but did not list its models');
  });
  // An answer's failures said "The server at http://127.0.0.1:…" or "The connection closed", or the server's bare
  // words: with two servers of one kind, none said which failed. They name it as the banner does now.
  // Test connection and the Models screen's own calls said "Cannot reach the server at http://…" and "What Ollama has
  // loaded is not known" of a second Ollama the user called "GPU box", which the banner names by that name.
  it('names a second Ollama that cannot be reached by its name in Test connection and on the Models screen', async () => {
    await app.openApp('http://127.0.0.1:3');
    await app.page.getByTestId('settings-open').click();
    await app.page.getByTestId('connection-add-kind').selectOption('ollama');
    await app.page.getByTestId('connection-add-label').fill('GPU box');
    await app.page.getByTestId('connection-add-url').fill('http://127.0.0.1:1');
    await app.page.getByTestId('connection-add').click();
    const item = app.page.locator('[data-testid="connection-item"]', { hasText: 'GPU box' });
    await item.getByTestId('connection-use').click();
    await expect.poll(() => item.getByTestId('connection-use').isChecked()).toBe(true);
    await item.getByTestId('connection-test').click();
    await expect
      .poll(() => item.getByTestId('connection-test-result').textContent())
      .toBe('Cannot reach GPU box at http://127.0.0.1:1. Is it running? Start it, or change its address here.');
    await app.page.getByTestId('settings-save').click();
    await app.page.getByTestId('settings-dialog').waitFor({ state: 'detached' });
    await app.page.getByTestId('models-open').click();
    await expect.poll(() => app.page.getByTestId('running-unknown').textContent()).toBe('What GPU box has loaded is not known: it could not be asked. Refresh asks again.');
    await shootAtBothWidths(app.page, 'models-names-connection', '[data-testid="running-models"]');
  });

  it("names the connection by the user's name for it when an answer breaks off or its server fails mid-answer", async () => {
    const body = ollamaChatStream(['Half', ' of', ' it', ' and', ' more.']);
    const chat = (route: Partial<ReplayRoute>): ReplayRoute[] => ollamaRoutes(['Hi.'], route);
    app.replay.setRoutes(chat({ body, cutAfterBytes: body.indexOf(' and') - 4 }));
    // The default Ollama is elsewhere (and away): GPU box, an Ollama too, is the one that answers.
    await app.openApp('http://127.0.0.1:9');
    await app.page.getByTestId('settings-open').click();
    await app.page.getByTestId('connection-add-kind').selectOption('ollama');
    await app.page.getByTestId('connection-add-label').fill('GPU box');
    await app.page.getByTestId('connection-add-url').fill(app.replay.url);
    await app.page.getByTestId('connection-add').click();
    const item = app.page.locator('[data-testid="connection-item"]', { hasText: 'GPU box' });
    await item.getByTestId('connection-use').click();
    await expect.poll(() => item.getByTestId('connection-use').isChecked()).toBe(true);
    await app.page.getByTestId('settings-save').click();
    await app.page.getByTestId('settings-dialog').waitFor({ state: 'detached' });
    await expect.poll(() => app.page.getByTestId('model-picker').inputValue()).toBe('llama3.2:3b');

    await app.page.getByTestId('composer-input').fill('Tell me all of it');
    await app.page.getByTestId('composer-send').click();
    const answer = app.page.locator('[data-testid="turn"][data-role="assistant"]').last();
    await expect.poll(() => answer.getAttribute('data-status')).toBe('cut');
    await expect.poll(() => answer.getByTestId('turn-error').textContent()).toContain('The connection to GPU box closed before the answer was finished. What arrived is kept.');
    expect((await answer.locator('[data-run="answer"]').textContent())?.trim()).toBe('Half of it');

    // The runner dies mid-answer: Ollama sends its error as a line of the stream, after two tokens.
    const died = ollamaChatStream(['Half', ' of'], 'llama3.2:3b', { done: false }) + '{"error":"llama runner process has terminated: exit status 2"}\n';
    app.replay.setRoutes(chat({ body: died }));
    await app.page.getByTestId('composer-input').fill('Try again');
    await app.page.getByTestId('composer-send').click();
    const next = app.page.locator('[data-testid="turn"][data-role="assistant"]').last();
    await expect.poll(() => next.getAttribute('data-status')).toBe('error');
    await expect.poll(() => next.getByTestId('turn-error').textContent()).toContain('GPU box: llama runner process has terminated: exit status 2');
    await shootAtBothWidths(app.page, 'answer-failure-names-connection', '[data-testid="turn-error"]');
    expect(await app.page.locator('[data-testid="turn"][data-role="user"]').last().textContent()).toContain('Try again');
  });
});
