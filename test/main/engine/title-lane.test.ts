/**
 * The title lane follows the local-request rules and the reasoning rule (issue 16): the conversation's own window
 * and options, no thinking where the model allows it, think-open where the template opens a block, the splitter
 * and the seed's last-close-tag peel on its output, and the salvage walk when the final answer is blank.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../../../src/main/services';
import { ollamaChatStream } from '../../replay-server/ollama-wire';
import { startReplayServer, type ReplayServer } from '../../replay-server/replay-server';
import { TITLE_ASK, TITLE_PROMPT } from '../../../src/main/engine/title-lane';
import { CONTINUE_TEXT } from '../../../src/shared/turn';
import { CASES, conformance, openaiText, script } from './helpers';

let dir: string;
let services: Services | undefined;
let replay: ReplayServer;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'firebrand-title-'));
  replay = await startReplayServer();
});
afterEach(async () => {
  services?.close();
  services = undefined;
  await replay.close();
  rmSync(dir, { recursive: true, force: true });
});

const ollamaShow = { method: 'POST', path: '/api/show', body: '{"capabilities":["completion","tools","thinking"],"template":"{{ .Prompt }}"}' };
const bodies = (path: string) => replay.requests.filter((r) => r.path === path).map((r) => JSON.parse(r.body) as Record<string, unknown>);
const title = async () => (await services!.handlers['conversations:list']({}))[0]?.title;

describe('the title lane', () => {
  // Chat audit #3: Continue is sent as a user message, so a chat whose first answer was stopped (or cut) and
  // continued had two user turns and never got a title.
  it('names a chat whose first answer was cut off and continued', async () => {
    services = createServices({ dataDir: dir, ollamaUrl: replay.url, log: () => {} });
    // No terminal frame: the answer is cut, and the chat keeps its first words as its title.
    const cut = `${JSON.stringify({ model: 'm', created_at: '2026-11-30T08:00:00Z', message: { role: 'assistant', content: 'It is' }, done: false })}\n`;
    script(replay, join(dir, 'firebrand.db'), [ollamaShow], '/api/chat', [
      { body: cut },
      { body: ollamaChatStream([' sunny in Paris today.']) },
      { body: ollamaChatStream(['Sunny Paris weather']) },
    ]);
    const first = await services.handlers['chat:send']({ conversationId: null, text: 'Please describe the weather where I live today', model: 'qwen3:8b' });
    await expect.poll(() => services!.chat.activeCount, { timeout: 10_000 }).toBe(0);
    expect((await services.handlers['conversations:open']({ conversationId: first.conversationId })).turns.at(-1)?.status).toBe('cut');
    expect(await title()).toBe('Please describe the weather where I live today');
    await services.handlers['chat:send']({ conversationId: first.conversationId, text: CONTINUE_TEXT, model: 'qwen3:8b' });
    await expect.poll(title, { timeout: 10_000 }).toBe('Sunny Paris weather');
    // A second message of the user's own is not a first exchange: no title is asked for after it.
    const second = await services.handlers['chat:send']({ conversationId: first.conversationId, text: 'And tomorrow?', model: 'qwen3:8b' });
    await expect.poll(() => services!.chat.activeCount, { timeout: 10_000 }).toBe(0);
    expect(second.conversationId).toBe(first.conversationId);
    expect(bodies('/api/chat')).toHaveLength(4);
  });

  // Rendering audit follow-up: the list shows a title as plain text, so a title the model wrote in markdown read
  // "Saving a **file** in `Python`" there, asterisks and ticks drawn as themselves.
  it('takes the markdown out of a title the model dressed in it, and keeps names with underscores', async () => {
    services = createServices({ dataDir: dir, ollamaUrl: replay.url, log: () => {} });
    script(replay, join(dir, 'firebrand.db'), [ollamaShow], '/api/chat', [
      { body: ollamaChatStream(['Use open() with "w".']) },
      { body: ollamaChatStream(['## **Title:** Saving a **file** with `open()` in __main__']) },
    ]);
    await services.handlers['chat:send']({ conversationId: null, text: 'How do I save a file in Python?', model: 'qwen3:8b' });
    await expect.poll(title, { timeout: 10_000 }).toBe('Saving a file with open() in __main__');
  });

  // A title with a link in it read "Reading [the docs](https://docs.python.org/3/) on…" in the list.
  it('keeps only the words of a link, emphasis and strikes in a title, and leaves snake_case alone', async () => {
    services = createServices({ dataDir: dir, ollamaUrl: replay.url, log: () => {} });
    script(replay, join(dir, 'firebrand.db'), [ollamaShow], '/api/chat', [
      { body: ollamaChatStream(['See the docs.']) },
      { body: ollamaChatStream(['*Reading* [the docs](https://docs.python.org/3/) on ~~old~~ _snake_case_ files:']) },
    ]);
    await services.handlers['chat:send']({ conversationId: null, text: 'Where are the Python docs?', model: 'qwen3:8b' });
    await expect.poll(title, { timeout: 10_000 }).toBe('Reading the docs on old snake_case files');
  });

  // Rendering audit, round 6: a right-to-left override in the model's title reversed the rest of it in the list and
  // the top bar ("Open ti nur neht dna exe.txt"), where a title is shown as text.
  it('drops the direction controls from a title the model made, keeping the Arabic and Hebrew in it', async () => {
    services = createServices({ dataDir: dir, ollamaUrl: replay.url, log: () => {} });
    script(replay, join(dir, 'firebrand.db'), [ollamaShow], '/api/chat', [
      { body: ollamaChatStream(['Open it.']) },
      { body: ollamaChatStream(['Open \u202Etxt.exe\u202C then \u2067مرحبا\u2069 שלום']) },
    ]);
    await services.handlers['chat:send']({ conversationId: null, text: 'Which file?', model: 'qwen3:8b' });
    await expect.poll(title, { timeout: 10_000 }).toBe('Open txt.exe then مرحبا שלום');
  });

  it("asks Ollama with the conversation's own window and options, truncate off, and no thinking", async () => {
    services = createServices({ dataDir: dir, ollamaUrl: replay.url, log: () => {}, chat: { appLayer: { contextWindow: 8192, params: { temperature: 0.2 } } } });
    // A thinking model whose title answer still carries the close tag of reasoning it was not asked for.
    script(replay, join(dir, 'firebrand.db'), [ollamaShow], '/api/chat', [
      { body: ollamaChatStream(['Hello! How can I help?']) },
      { body: ollamaChatStream(['The user greets me.', '</think>\n\n', 'Greeting exchange']) },
    ]);
    await services.handlers['chat:send']({ conversationId: null, text: 'Hi there', model: 'qwen3:8b', think: 'on' });
    await expect.poll(title, { timeout: 10_000 }).toBe('Greeting exchange');
    const [chat, titled] = bodies('/api/chat');
    expect(chat).toMatchObject({ think: true, truncate: false, options: { num_ctx: 8192, temperature: 0.2 } });
    // The same window (no reload of the model between the title and the next message), thinking off.
    expect(titled).toMatchObject({ think: false, truncate: false, options: { num_ctx: 8192, temperature: 0.2, num_predict: 200 } });
  });

  it('starts its splitter inside a think block the template opens, with thinking off', async () => {
    const rendered = (JSON.parse(conformance('apply-template-deepseek.json')) as { prompt: string }).prompt;
    services = createServices({ dataDir: dir, log: () => {} });
    const { id } = await services.handlers['connections:save']({ kind: 'llama-server', label: 'llama', baseUrl: replay.url });
    // A DeepSeek-R1-style template: the rendered prompt ends inside `<think>` whatever enable_thinking says.
    const probes = [
      { path: '/props', body: conformance('props-none.json') },
      { method: 'POST', path: '/apply-template', body: JSON.stringify({ prompt: `${rendered}<think>\n` }) },
    ];
    script(replay, join(dir, 'firebrand.db'), probes, '/v1/chat/completions', [
      { body: readFileSync('test/fixtures/openai/think-open-template.sse', 'utf8') },
      // Reasoning that never closed before the token budget ran out: no title in it.
      { body: openaiText(['The user asks about', ' the weather so a title']) },
    ]);
    await services.handlers['chat:send']({ conversationId: null, text: 'Weather?', model: 'm', connectionId: id });
    await expect.poll(() => bodies('/v1/chat/completions').length, { timeout: 10_000 }).toBe(2);
    await expect.poll(() => services!.chat.activeCount, { timeout: 10_000 }).toBe(0);
    expect(await title()).toBe('Weather?');
    expect(bodies('/v1/chat/completions')[1]).toMatchObject({ chat_template_kwargs: { enable_thinking: false }, max_tokens: 200 });
    expect(bodies('/apply-template').some((b) => (b['chat_template_kwargs'] as { enable_thinking?: boolean } | undefined)?.enable_thinking === false)).toBe(true);
  });

  it('salvages the last answer with text when the final answer is blank', async () => {
    const ollama = CASES.find((c) => c.kind === 'ollama');
    services = createServices({ dataDir: dir, ollamaUrl: replay.url, log: () => {}, chat: { tools: ollama?.tools } });
    const call = JSON.stringify({ model: 'm', message: { role: 'assistant', content: 'Let me check the weather in Paris.', tool_calls: [{ function: { name: 'get_current_weather', arguments: { location: 'Paris', format: 'celsius' } } }] }, done: false });
    const done = JSON.stringify({ model: 'm', message: { role: 'assistant', content: '' }, done_reason: 'stop', done: true });
    const thinkOnly = JSON.stringify({ model: 'm', message: { role: 'assistant', content: '', thinking: 'It is 18 degrees; nothing to add.' }, done: false });
    script(replay, join(dir, 'firebrand.db'), [ollamaShow], '/api/chat', [
      { body: `${call}\n${done}\n` },
      { body: `${thinkOnly}\n${done}\n` },
      { body: ollamaChatStream(['Paris weather check']) },
    ]);
    await services.handlers['chat:send']({ conversationId: null, text: 'Weather in Paris?', model: 'm' });
    await expect.poll(title, { timeout: 10_000 }).toBe('Paris weather check');
    const ask = bodies('/api/chat')[2] as { messages: { role: string; content: string }[] };
    expect(ask.messages).toContainEqual(expect.objectContaining({ role: 'assistant', content: 'Let me check the weather in Paris.' }));
    expect(ask.messages.at(-1)).toEqual({ role: 'user', content: TITLE_ASK });
  });

  it("follows the conversation as its next message would (system prompt, history, tools), so the next message's prompt starts with all of the title's but its ask", async () => {
    const ollama = CASES.find((c) => c.kind === 'ollama');
    services = createServices({
      dataDir: dir, ollamaUrl: replay.url, log: () => {},
      chat: { tools: ollama?.tools, appLayer: { systemPrompt: 'Answer briefly.', contextWindow: 8192 } },
    });
    script(replay, join(dir, 'firebrand.db'), [ollamaShow], '/api/chat', [
      { body: ollamaChatStream(['Hello! How can I help?']) },
      { body: ollamaChatStream(['Greeting exchange']) },
      { body: ollamaChatStream(['Paris is sunny.']) },
    ]);
    const { conversationId } = await services.handlers['chat:send']({ conversationId: null, text: 'Hi there', model: 'qwen3:8b' });
    await expect.poll(title, { timeout: 10_000 }).toBe('Greeting exchange');
    await services.handlers['chat:send']({ conversationId, text: 'Weather in Paris?', model: 'qwen3:8b' });
    await expect.poll(() => bodies('/api/chat').length, { timeout: 10_000 }).toBe(3);
    type Body = { messages: { role: string; content: string }[]; tools?: unknown[] };
    const [, titled, next] = bodies('/api/chat') as unknown as Body[];
    expect(titled!.messages[0]).toEqual({ role: 'system', content: 'Answer briefly.' });
    expect(titled!.messages.at(-1)).toEqual({ role: 'user', content: TITLE_ASK });
    // Everything before the ask is the next message's prompt too: a server's prompt cache still holds it.
    expect(next!.messages.slice(0, -1)).toEqual(titled!.messages.slice(0, -1));
    expect(next!.tools?.length).toBeGreaterThan(0);
    expect(titled!.tools).toEqual(next!.tools);
  });

  it('quotes the first question and answer in one short ask where the conversation leaves no room for one', async () => {
    services = createServices({ dataDir: dir, ollamaUrl: replay.url, log: () => {}, chat: { appLayer: { contextWindow: 1024 } } });
    const long = 'Sheep number one jumps the fence, and then the next one follows it. '.repeat(60);
    script(replay, join(dir, 'firebrand.db'), [ollamaShow], '/api/chat', [
      { body: ollamaChatStream([long]) },
      { body: ollamaChatStream(['Counting sheep']) },
    ]);
    await services.handlers['chat:send']({ conversationId: null, text: 'Count sheep for me', model: 'm' });
    await expect.poll(title, { timeout: 10_000 }).toBe('Counting sheep');
    const asks = bodies('/api/chat').slice(1) as { messages: { role: string; content: string }[] }[];
    expect(asks).toHaveLength(1);
    expect(asks[0]!.messages).toHaveLength(1);
    expect(asks[0]!.messages[0]!.content).toContain(`${TITLE_PROMPT}\n\nUser: Count sheep for me\n\nAssistant: Sheep number one`);
  });
});
