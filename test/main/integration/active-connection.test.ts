/**
 * Gap 4: the composer's model list comes from the active connection (Settings → connections): llama-server,
 * OpenAI-compatible servers and Anthropic through /v1/models, with the connection's key sent only as a header.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startReplayServer, type ReplayServer } from '../../replay-server/replay-server';
import { ollama, tempServices } from './helpers';

let ollamaReplay: ReplayServer;
let other: ReplayServer;
let cleanup: (() => void) | undefined;
beforeAll(async () => {
  ollamaReplay = await startReplayServer(ollama());
  other = await startReplayServer([{ path: '/v1/models', body: '{"object":"list","data":[{"id":"qwen2.5-coder-7b","object":"model"},{"id":"phi-4","object":"model"}]}' }]);
});
afterAll(async () => {
  await ollamaReplay.close();
  await other.close();
});
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
  other.requests.length = 0;
});

describe('the active connection', () => {
  it('lists the models of an OpenAI-compatible server once it is active, with its key as a header only', async () => {
    const t = tempServices(ollamaReplay);
    cleanup = t.cleanup;
    const h = t.services.handlers;
    expect((await h['models:list']({})).map((m) => m.name)).toEqual(['llama3.2:3b', 'qwen3:8b']);
    const saved = await h['connections:save']({ kind: 'openai-compatible', label: 'LM Studio', baseUrl: other.url, apiKey: 'sk-secret' });
    expect(saved).toMatchObject({ hasApiKey: true });
    expect(JSON.stringify(await h['connections:list']({}))).not.toContain('sk-secret');
    await h['settings:update']({ activeConnectionId: saved.id });
    expect((await h['models:list']({})).map((m) => m.name)).toEqual(['qwen2.5-coder-7b', 'phi-4']);
    expect(other.requests.at(-1)?.headers['authorization']).toBe('Bearer sk-secret');
  });

  it('says exactly why the list failed when the server refuses', async () => {
    const t = tempServices(ollamaReplay);
    cleanup = t.cleanup;
    const h = t.services.handlers;
    const saved = await h['connections:save']({ kind: 'llama-server', label: 'llama', baseUrl: `${other.url}/nowhere` });
    await h['settings:update']({ activeConnectionId: saved.id });
    await expect(h['models:list']({})).rejects.toThrow(/answered HTTP 404/);
  });
});

describe('the model list asked for as services start', () => {
  it('answers the first page with the list asked at start; later asks go to the server again', async () => {
    ollamaReplay.requests.length = 0;
    const t = tempServices(ollamaReplay, { prefetchModelList: true });
    cleanup = t.cleanup;
    const tags = () => ollamaReplay.requests.filter((r) => r.path === '/api/tags').length;
    // Asked before any page asks.
    await expect.poll(tags).toBe(1);
    const h = t.services.handlers;
    expect((await h['models:list']({})).map((m) => m.name)).toEqual(['llama3.2:3b', 'qwen3:8b']);
    expect(tags()).toBe(1);
    expect((await h['models:list']({})).map((m) => m.name)).toEqual(['llama3.2:3b', 'qwen3:8b']);
    expect(tags()).toBe(2);
  });

  it('is not handed out once the connection in use changed', async () => {
    const t = tempServices(ollamaReplay, { prefetchModelList: true });
    cleanup = t.cleanup;
    const h = t.services.handlers;
    const saved = await h['connections:save']({ kind: 'llama-server', label: 'llama', baseUrl: other.url });
    await h['settings:update']({ activeConnectionId: saved.id });
    expect((await h['models:list']({})).map((m) => m.name)).toEqual(['qwen2.5-coder-7b', 'phi-4']);
  });
});
