/**
 * Firebrand's engine (services in this process) against a real llama-server playing scripted models: what a user
 * gets for each kind of answer, each of the app's tools, and a stop or a dead server mid-answer.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { turnText, type ToolCallBlock, type ToolResultBlock, type Turn } from '../../src/shared/turn';
import { CALL_READ_DOCUMENT, callFetchUrl, PLAIN_ANSWER, REASONING, SCRIPTS } from '../support/scripted-gguf/scripts';
import { ask, pageServer, savedTurn, send, settle, startApp, streamingText, type RealApp } from './support/app';
import { ServerPool } from './support/pool';

const pool = new ServerPool();
const apps: RealApp[] = [];
afterAll(async () => {
  for (const app of apps) app.close();
  await pool.stopAll();
});

/** The app's three tools cost ~1,900 prompt tokens with these tokenizers: tool servers get room for a few steps. */
const TOOL_CTX = 8192;

async function app(url: string, opts: { maxSteps?: number; titles?: boolean } = {}): Promise<RealApp> {
  const a = await startApp(url, opts);
  apps.push(a);
  return a;
}

const assistants = (turns: Turn[]) => turns.filter((t) => t.role === 'assistant');
const calls = (t: Turn | undefined) => (t?.blocks ?? []).filter((b): b is ToolCallBlock => b.type === 'tool_call');
const results = (t: Turn | undefined) => (t?.blocks ?? []).filter((b): b is ToolResultBlock => b.type === 'tool_result');
const reasoningOf = (t: Turn | undefined) => (t?.blocks ?? []).flatMap((b) => (b.type === 'reasoning' ? [b] : []));

describe('answers from a real llama-server', () => {
  it('plain: the answer, end_turn, and the prompt tokens the server counted', async () => {
    const a = await app((await pool.get(SCRIPTS.plain, { ctx: TOOL_CTX })).url);
    const { turns } = await ask(a, 'What is the weather in Paris?');
    const answer = turns.at(-1);
    expect(answer).toMatchObject({ role: 'assistant', status: 'done', stop: 'end_turn', wireReason: 'stop' });
    expect(turnText(answer!)).toBe(PLAIN_ANSWER);
    expect(answer?.usage?.inputTokens).toBeGreaterThan(100);
  });

  it("the chat's title request leaves the chat in the one slot's cache: the second message is read from where the chat ends", async () => {
    // No host-memory prompt cache: the slot holds only the last prompt (a server that could restore the chat from
    // memory would hide what the title request did to the slot).
    const a = await app((await pool.get(SCRIPTS.plain, { ctx: TOOL_CTX, cacheRam: 0 })).url, { titles: true });
    const first = await ask(a, 'What is the weather in Paris?');
    expect((await a.services.handlers['conversations:list']({}))[0]?.title).toBe('It is sunny in Paris today');
    const second = await ask(a, 'And tomorrow?', first.conversationId);
    const [one, two] = [first, second].map((x) => assistants(x.turns).at(-1)!.usage!);
    // The server's timings.cache_n: the tools, the question and the answer were not read again.
    expect(two!.cachedTokens).toBeGreaterThan(one!.inputTokens! + one!.outputTokens! - 8);
  });

  it('reasoning apart with --reasoning-format deepseek (native) and none (split from the tags)', async () => {
    for (const [format, origin] of [['deepseek', 'native'], ['none', 'inline']] as const) {
      const a = await app((await pool.get(SCRIPTS.reasoning, { reasoningFormat: format, ctx: TOOL_CTX })).url);
      const answer = (await ask(a, 'Weather?')).turns.at(-1);
      expect(reasoningOf(answer).map((r) => [r.origin, r.text.trim()]), format).toEqual([[origin, REASONING]]);
      expect(turnText(answer!).trim(), format).toBe(PLAIN_ANSWER);
      expect(answer?.status).toBe('done');
    }
  });

  it('unclosed think: all of it is reasoning, the answer is blank, and the turn ends (deepseek and none)', async () => {
    for (const format of ['deepseek', 'none'] as const) {
      const a = await app((await pool.get(SCRIPTS.unclosedThink, { reasoningFormat: format, ctx: TOOL_CTX })).url);
      const answer = (await ask(a, 'Weather?')).turns.at(-1);
      expect(answer?.status, format).toBe('done');
      expect(reasoningOf(answer).map((r) => r.text.trim()).join(''), format).toBe('The user asks about the weather and I keep wondering');
      expect(turnText(answer!).trim(), format).toBe('');
    }
  });
});

describe("the app's tools, called by a real llama-server", () => {
  it('current_datetime runs without approval and its result goes back to the model', async () => {
    const a = await app((await pool.get(SCRIPTS.callDatetime, { ctx: TOOL_CTX })).url, { maxSteps: 2 });
    const { turns } = await ask(a, 'What time is it in Paris?');
    const [first] = assistants(turns);
    expect(calls(first)).toMatchObject([{ name: 'current_datetime', state: 'complete', arguments: { timezone: 'Europe/Paris' } }]);
    const tool = turns.find((t) => t.role === 'tool');
    expect(results(tool)[0]).toMatchObject({ name: 'current_datetime', isError: false });
    expect(results(tool)[0]?.content).toMatch(/^UTC: \d{4}-/);
    // The script calls again after every result: the step limit ends the loop, and says so.
    expect(turns.at(-1)).toMatchObject({ role: 'system', source: 'error', meta: { reason: 'step-limit' } });
  });

  it('read_document reads lines of the attached file', async () => {
    const a = await app((await pool.get(SCRIPTS.callReadDocument, { ctx: TOOL_CTX })).url, { maxSteps: 2 });
    const doc = await a.services.handlers['attachments:add']({ name: CALL_READ_DOCUMENT.arguments.name, mime: 'text/plain', dataBase64: Buffer.from('alpha line\nbeta line\ngamma line\n').toString('base64') });
    const sent = send(a, 'Read my notes', null, { attachments: [doc] });
    const turns = await settle(a, sent.conversationId);
    expect(results(turns.find((t) => t.role === 'tool'))[0]).toMatchObject({ isError: false, content: '[notes.txt: lines 1-2 of 4]\nalpha line\nbeta line' });
  });

  it('fetch_url waits for approval on a card, then fetches the page once allowed', async () => {
    const page = await pageServer('Hello from the fetched page.');
    try {
      const a = await app((await pool.get(callFetchUrl(page.url), { ctx: TOOL_CTX })).url, { maxSteps: 2 });
      const sent = send(a, 'Read that page');
      const card = await savedTurn(a, (t) => t.source === 'tool-approval' && t.meta.state === 'pending');
      expect(card.meta).toMatchObject({ tool: 'fetch_url', call: page.url });
      expect(page.hits()).toBe(0);
      expect(a.services.chat.approveTool({ conversationId: sent.conversationId, turnId: String(card.meta.turnId), toolCallId: String(card.meta.toolCallId), decision: 'allow-once' })).toBe(true);
      const turns = await settle(a, sent.conversationId);
      expect(turns.find((t) => t.id === card.id)?.meta).toMatchObject({ state: 'allowed' });
      expect(results(turns.find((t) => t.role === 'tool'))[0]?.content).toContain('Hello from the fetched page.');
      expect(page.hits()).toBe(1);
    } finally {
      await page.close();
    }
  });

  it('two calls in one answer: both run, results in order', async () => {
    const a = await app((await pool.get(SCRIPTS.twoCalls, { ctx: TOOL_CTX })).url, { maxSteps: 2 });
    const { turns } = await ask(a, 'Time in Paris and Tokyo?');
    expect(calls(assistants(turns)[0]).map((c) => c.arguments)).toEqual([{ timezone: 'Europe/Paris' }, { timezone: 'Asia/Tokyo' }]);
    const out = results(turns.find((t) => t.role === 'tool'));
    expect(out).toHaveLength(2);
    expect(out.every((r) => !r.isError)).toBe(true);
  });

  it('reasoning then a call, and text then a call, keep their order in the turn', async () => {
    const r = await app((await pool.get(SCRIPTS.reasoningThenCall, { ctx: TOOL_CTX })).url, { maxSteps: 2 });
    const first = assistants((await ask(r, 'Time?')).turns)[0];
    expect(first?.blocks.map((b) => b.type)).toEqual(['reasoning', 'tool_call']);
    const t = await app((await pool.get(SCRIPTS.textThenCall, { ctx: TOOL_CTX })).url, { maxSteps: 2 });
    const said = assistants((await ask(t, 'Time?')).turns)[0];
    expect(said?.blocks.map((b) => b.type)).toEqual(['text', 'tool_call']);
    expect(turnText(said!).trim()).toBe('Let me look at the clock.');
  });

  it('malformed arguments: the call never closes, the turn ends at the context limit, and nothing runs', async () => {
    const a = await app((await pool.get(SCRIPTS.malformedCall, { ctx: 2304 })).url, { maxSteps: 2 });
    const { turns } = await ask(a, 'Time?');
    const answer = assistants(turns)[0];
    expect(answer).toMatchObject({ status: 'done', stop: 'max_tokens', wireReason: 'length' });
    expect(calls(answer).map((c) => c.state)).toEqual(['truncated']);
    expect(turns.some((t) => t.role === 'tool')).toBe(false);
  });
});

describe('an answer that does not finish', () => {
  it('Stop mid-answer: the turn ends as stopped with what arrived, and the server answers the next message', async () => {
    const server = await pool.get(SCRIPTS.long, { ctx: 16_384 });
    const a = await app(server.url);
    const sent = send(a, 'Count for me');
    await streamingText(a, sent.assistantTurn.id);
    expect(a.services.chat.stop(sent.assistantTurn.id)).toBe(true);
    const turns = await settle(a, sent.conversationId);
    const answer = turns.at(-1);
    expect(answer).toMatchObject({ status: 'aborted', stop: 'aborted' });
    expect(turnText(answer!)).toMatch(/^Counting/);
    // llama-server noticed the closed request and freed its slot: another answer starts and streams.
    const again = send(a, 'Again', sent.conversationId);
    await streamingText(a, again.assistantTurn.id);
    a.services.chat.stop(again.assistantTurn.id);
    expect((await settle(a, sent.conversationId)).at(-1)?.status).toBe('aborted');
  });

  it('the server killed mid-answer: the turn ends as cut off, with the text that arrived and why', async () => {
    const server = await pool.own(SCRIPTS.long, { ctx: 16_384 });
    const a = await app(server.url);
    const sent = send(a, 'Count for me');
    await streamingText(a, sent.assistantTurn.id);
    await server.stop('SIGKILL');
    const answer = (await settle(a, sent.conversationId)).at(-1);
    expect(answer?.status).toBe('cut');
    expect(turnText(answer!)).toMatch(/^Counting/);
    expect(answer?.error).toMatch(/closed before the answer was finished|broke/);
  });
});
