/**
 * Round 9, engine #3: the look at Ollama's /api/ps that tells every page's Running panel what an answer loaded (at its
 * first token, and when it ends) was made for every answer, on whatever server it ran: an answer on llama-server (or
 * the built-in engine, or a second Ollama) asked the Ollama in Settings for its running models and found nothing
 * new there. It is made only for an answer on that Ollama now. Both servers are stand-ins that count requests.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startReplayServer, type ReplayServer } from '../../replay-server/replay-server';
import { conformance, openaiText } from '../engine/helpers';
import { ollama, settle, tempServices } from '../integration/helpers';

let ollamaServer: ReplayServer;
let llamaServer: ReplayServer;
let secondOllama: ReplayServer;
let cleanup: (() => void) | undefined;
beforeAll(async () => {
  ollamaServer = await startReplayServer(ollama());
  secondOllama = await startReplayServer(ollama());
  llamaServer = await startReplayServer([
    { path: '/props', body: conformance('props-deepseek.json') },
    { method: 'POST', path: '/apply-template', body: conformance('apply-template-deepseek.json') },
    { method: 'POST', path: '/v1/chat/completions', body: openaiText(['Fine', '.']), chunk: 'lines', headers: { 'content-type': 'text/event-stream' } },
  ]);
});
afterAll(async () => {
  await ollamaServer.close();
  await secondOllama.close();
  await llamaServer.close();
});
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
  for (const s of [ollamaServer, secondOllama, llamaServer]) s.requests.length = 0;
});

const psAsked = (s: ReplayServer) => s.requests.filter((r) => r.path === '/api/ps').length;

describe('the Running panel’s look after an answer', () => {
  it('is not made for an answer on llama-server: no /api/ps request reaches Ollama or llama-server', async () => {
    const t = tempServices(ollamaServer);
    cleanup = t.cleanup;
    const h = t.services.handlers;
    const { id } = await h['connections:save']({ kind: 'llama-server', label: 'llama', baseUrl: llamaServer.url });
    const sent = await h['chat:send']({ conversationId: null, text: 'Hi', model: 'm', connectionId: id });
    const turns = await settle(t.services, sent.conversationId);
    expect(turns.at(-1)).toMatchObject({ status: 'done', blocks: [{ type: 'text', text: 'Fine.' }] });
    expect(llamaServer.requests.some((r) => r.path === '/v1/chat/completions')).toBe(true);
    expect(psAsked(ollamaServer)).toBe(0);
    expect(psAsked(llamaServer)).toBe(0);
  });

  it('is not made on the Ollama in Settings for an answer on a second Ollama connection', async () => {
    const t = tempServices(ollamaServer);
    cleanup = t.cleanup;
    const h = t.services.handlers;
    const { id } = await h['connections:save']({ kind: 'ollama', label: 'GPU box', baseUrl: secondOllama.url });
    const sent = await h['chat:send']({ conversationId: null, text: 'Hi', model: 'qwen3:8b', connectionId: id });
    await settle(t.services, sent.conversationId);
    expect(secondOllama.requests.some((r) => r.path === '/api/chat')).toBe(true);
    expect(psAsked(ollamaServer)).toBe(0);
  });

  it('is made for an answer on the Ollama in Settings, on that Ollama', async () => {
    const t = tempServices(ollamaServer);
    cleanup = t.cleanup;
    const sent = await t.services.handlers['chat:send']({ conversationId: null, text: 'Hi', model: 'qwen3:8b' });
    await settle(t.services, sent.conversationId);
    await expect.poll(() => psAsked(ollamaServer)).toBeGreaterThan(0);
    expect(psAsked(secondOllama)).toBe(0);
  });
});
