/**
 * The defects a real llama-server showed (issue 13), each as the user met it, through the engine in this
 * process. Named after the bug; each failed before its fix.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { ToolCallBlock, ToolResultBlock, Turn } from '../../src/shared/turn';
import { callFetchUrl, SCRIPTS } from '../support/scripted-gguf/scripts';
import { ask, pageServer, savedTurn, send, settle, startApp, type RealApp } from './support/app';
import { generateScriptedModel } from '../support/scripted-gguf/generate';
import { freePort, startLlamaServer } from './support/llama-server';
import { ServerPool } from './support/pool';

const pool = new ServerPool();
const apps: RealApp[] = [];
afterAll(async () => {
  for (const app of apps) app.close();
  await pool.stopAll();
});

async function app(url: string, opts: { maxSteps?: number } = {}): Promise<RealApp> {
  const a = await startApp(url, opts);
  apps.push(a);
  return a;
}

const windowOf = async (a: RealApp) => a.services.handlers['models:context-window']({ model: a.model, connectionId: a.connectionId });
const resultsIn = (turns: Turn[]) => turns.flatMap((t) => t.blocks.filter((b): b is ToolResultBlock => b.type === 'tool_result'));
const stepsOf = (a: RealApp, conversationId: string) => (a.services.db.prepare('SELECT COUNT(*) AS n FROM steps WHERE conversation_id = ?').get(conversationId) as { n: number }).n;

/**
 * About 4,500 tokens with these byte-fallback tokenizers (4 byte tokens a word, 3 for each space) but only ~800 by
 * the character estimate: with the app's tools (~1,900 tokens) it fits an 8192 window and not a 4096 one.
 */
const WIDE_MESSAGE = 'abcd '.repeat(650);

describe('issue 13.1: the context window goes stale', () => {
  it('follows llama-server restarted with a smaller -c: a page reload shows it, and a send meets it', async () => {
    const first = await pool.own(SCRIPTS.plain, { ctx: 8192 });
    const a = await app(first.url);
    expect(await windowOf(a)).toMatchObject({ contextWindow: 8192, source: 'server' });

    const smaller = pool.adopt(await first.restart({ ctx: 4096 }));
    // No reload yet: a message that fitted before is not sent blind; the user gets the refusal with the new window.
    const sent = send(a, WIDE_MESSAGE);
    const turns = await settle(a, sent.conversationId);
    expect(turns.at(-1)).toMatchObject({ role: 'system', source: 'context-refused', meta: { window: 4096 } });
    expect(await windowOf(a)).toMatchObject({ contextWindow: 4096 });

    // Larger again: the message that fits is sent, not refused against the old window.
    pool.adopt(await smaller.restart({ ctx: 8192 }));
    await a.services.handlers['models:list']({});
    expect(await windowOf(a)).toMatchObject({ contextWindow: 8192 });
    const again = await ask(a, WIDE_MESSAGE);
    expect(again.turns.at(-1)).toMatchObject({ role: 'assistant', status: 'done', stop: 'end_turn' });
  });
});

describe('issue 13.2: llama-server models show their capabilities', () => {
  it('the model list carries tools and thinking from /props, and the window the server runs', async () => {
    const a = await app((await pool.get(SCRIPTS.plain, { ctx: 8192 })).url);
    const [model] = await a.services.handlers['models:list']({});
    expect(model?.name).toBe('scripted-plain');
    expect(model?.capabilities).toEqual(expect.arrayContaining(['tools', 'thinking']));
    expect(model?.capabilities).not.toContain('vision');
    expect(model?.contextLength).toBe(8192);
  });
});

describe('issue 13.3: sending while a tool approval waits', () => {
  it('is refused with the reason while the approval waits; Stop ends the waiting run and the call is not run', async () => {
    const page = await pageServer('A page.');
    try {
      const a = await app((await pool.get(callFetchUrl(page.url), { ctx: 8192 })).url, { maxSteps: 2 });
      const sent = send(a, 'Read that page');
      const card = await savedTurn(a, (t) => t.source === 'tool-approval' && t.meta.state === 'pending');
      expect(() => send(a, 'Hello?', sent.conversationId)).toThrow(/waiting for your answer/i);
      expect(a.services.chat.stop(sent.assistantTurn.id)).toBe(true);
      const turns = await settle(a, sent.conversationId);
      expect(turns.find((t) => t.id === card.id)?.meta).toMatchObject({ state: 'stopped' });
      expect(resultsIn(turns)).toMatchObject([{ name: 'fetch_url', isError: true, notRun: true }]);
      expect(page.hits()).toBe(0);
      // Nothing waits any more: the conversation takes a message again (whose answer asks again; stop that too).
      const next = send(a, 'Hello?', sent.conversationId);
      await savedTurn(a, (t) => t.source === 'tool-approval' && t.meta.state === 'pending' && t.parentId === next.assistantTurn.id);
      a.services.chat.stop(next.assistantTurn.id);
      await settle(a, sent.conversationId);
    } finally {
      await page.close();
    }
  });

  it('never moves the active leaf into a branch the user did not choose', async () => {
    const page = await pageServer('A page.');
    try {
      const a = await app((await pool.get(callFetchUrl(page.url), { ctx: 8192 })).url, { maxSteps: 2 });
      const h = a.services.handlers;
      const sent = send(a, 'Read that page');
      await savedTurn(a, (t) => t.source === 'tool-approval' && t.meta.state === 'pending' && t.conversationId === sent.conversationId);
      a.services.chat.stop(sent.assistantTurn.id);
      await settle(a, sent.conversationId);
      // The user edits the message (a new branch), which asks for approval again, then goes back to the old branch.
      const edited = a.services.chat.editAndResend({ turnId: sent.userTurn.id, text: 'Read it now', model: a.model, connectionId: a.connectionId });
      const second = await savedTurn(a, (t) => t.source === 'tool-approval' && t.meta.state === 'pending' && t.id !== undefined && t.parentId === edited.assistantTurn.id);
      const oldView = await h['conversations:switch-branch']({ turnId: sent.userTurn.id });
      const oldLeaf = oldView.turns.at(-1)?.id;
      a.services.chat.approveTool({ conversationId: sent.conversationId, turnId: String(second.meta.turnId), toolCallId: String(second.meta.toolCallId), decision: 'allow-once' });
      await settle(a, sent.conversationId);
      const view = await h['conversations:open']({ conversationId: sent.conversationId });
      expect(view.turns.at(-1)?.id).toBe(oldLeaf);
      expect(view.turns.some((t) => t.id === edited.userTurn.id)).toBe(false);
      // The other branch is one switch away, with its answer complete.
      const otherView = await h['conversations:switch-branch']({ turnId: edited.userTurn.id });
      expect(otherView.siblings[edited.userTurn.id]?.ids).toHaveLength(2);
      expect(resultsIn(otherView.turns).some((r) => r.name === 'fetch_url' && !r.isError)).toBe(true);
    } finally {
      await page.close();
    }
  });
});

describe('issue 13.5: smaller things', () => {
  it('after the step limit, the call that never ran is answered as not run', async () => {
    const a = await app((await pool.get(SCRIPTS.callDatetime, { ctx: 8192 })).url, { maxSteps: 2 });
    const { turns } = await ask(a, 'What time is it?');
    const lastCall = turns.filter((t) => t.role === 'assistant').at(-1)?.blocks.find((b): b is ToolCallBlock => b.type === 'tool_call');
    const answered = resultsIn(turns).find((r) => r.toolCallId === lastCall?.id);
    expect(answered).toMatchObject({ isError: true, notRun: true });
    expect(answered?.content).toMatch(/not run/i);
    expect(turns.at(-1)).toMatchObject({ role: 'system', meta: { reason: 'step-limit' } });
  });

  it('an unreachable llama-server is named once, without a repeated "server"', async () => {
    const port = await freePort();
    const a = await startApp(`http://127.0.0.1:${port}`).catch((err: unknown) => err);
    expect(a).toBeInstanceOf(Error);
    const message = (a as Error).message;
    expect(message).toContain(`http://127.0.0.1:${port}`);
    expect(message).not.toMatch(/server server/);
    expect(message.match(/Cannot reach/g)).toHaveLength(1);
  });
});

describe('issue 13.6: the token estimate can be far off', () => {
  it('the preflight counts with the server (/apply-template + /tokenize) and refuses what does not fit, sending nothing', async () => {
    const a = await app((await pool.get(SCRIPTS.plain, { ctx: 4096 })).url);
    const sent = send(a, WIDE_MESSAGE);
    const turns = await settle(a, sent.conversationId);
    const card = turns.at(-1);
    expect(card).toMatchObject({ role: 'system', source: 'context-refused', meta: { window: 4096, counted: 'server' } });
    expect(Number(card?.meta.estimate)).toBeGreaterThan(4096);
    expect(stepsOf(a, sent.conversationId)).toBe(0);
    // The estimate learned from that count: the meter's next estimate for this model is scaled to match.
    expect((await windowOf(a)).estimateRatio).toBeGreaterThan(3);
  });
});

/** Gemma 2's chat template in its essentials: it raises unless the roles alternate, beginning with the user. */
const ALTERNATING_TEMPLATE =
  "{{ bos_token }}{% for message in messages %}{% if (message['role'] == 'user') != (loop.index0 % 2 == 0) %}" +
  "{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}{% endif %}" +
  "{% if message['role'] == 'assistant' %}{% set role = 'model' %}{% else %}{% set role = message['role'] %}{% endif %}" +
  "{{ '<start_of_turn>' + role + '\\n' + message['content'] | trim + '<end_of_turn>\\n' }}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<start_of_turn>model\\n' }}{% endif %}";

describe('turns audit #5: a chat template that insists on alternating roles', () => {
  it('answers the message after one that got no answer, and the next one too', async () => {
    const model = generateScriptedModel(SCRIPTS.plain, { chatTemplate: ALTERNATING_TEMPLATE });
    const server = await startLlamaServer({ model, ctx: 4096, alias: 'scripted-alternating' });
    const a = await app(server.url);
    await a.services.handlers['models:list']({});
    // The server is down for the first message: it stays in the chat with an answer that holds nothing.
    await server.stop();
    const failed = await ask(a, 'Hello?');
    expect(failed.turns.at(-1)).toMatchObject({ role: 'assistant', status: 'error' });
    pool.adopt(await server.restart({}));
    const next = await ask(a, 'Are you back?', failed.conversationId);
    expect(next.turns.at(-1)).toMatchObject({ role: 'assistant', status: 'done', stop: 'end_turn' });
    const after = await ask(a, 'And again?', failed.conversationId);
    expect(after.turns.at(-1)).toMatchObject({ role: 'assistant', status: 'done', stop: 'end_turn' });
  });
});
