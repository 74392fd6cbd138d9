/**
 * Context audit #1: with a second Ollama connection in use, a window kept in Models (Details → Keep this window) was
 * saved under the address of the Ollama in Settings. The panel said "Kept 3,072 tokens", but the model's row, the
 * composer's meter and the request (`num_ctx`) still had the default, and "Kept for this model" and the
 * trained-context check read the other server. Both servers are stand-ins; the one in Settings says llama3.1:8b was
 * trained for 128K, the GPU box's build for 32K.
 */
import { describe, expect, it } from 'vitest';
import { startReplayServer, type ReplayServer } from '../../replay-server/replay-server';
import type { Services } from '../../../src/main/services';
import { chatBodies, fixture, ollama, settle, tagsWithLlama31 } from '../integration/helpers';
import { useSecondOllama } from './second-ollama';

const MODEL = 'llama3.1:8b';

/** The llama3.1:8b `/api/show` with the trained context this server's build says. */
function showTrainedFor(tokens: number): string {
  const show = JSON.parse(fixture('ollama-models/show-llama3.1-8b.json')) as { model_info: Record<string, unknown> };
  show.model_info['llama.context_length'] = tokens;
  return JSON.stringify(show);
}
const server = (trained: number) => startReplayServer(ollama([{ method: 'POST', path: '/api/show', body: showTrainedFor(trained) }], tagsWithLlama31()));

const two = useSecondOllama(() => server(131_072), () => server(32_768));
const withGpuBoxActive = () => two.withGpuBoxActive();

/** Sends on a connection (absent: the Ollama in Settings) and returns the `num_ctx` that server was sent. */
async function numCtxSent(services: Services, on: ReplayServer, connectionId?: string): Promise<unknown> {
  const sent = await services.handlers['chat:send']({ conversationId: null, text: 'hello window', model: MODEL, ...(connectionId ? { connectionId } : {}) });
  await settle(services, sent.conversationId);
  return chatBodies(on).at(-1)?.options?.['num_ctx'];
}

describe('a window kept in Models with a second Ollama in use', () => {
  it('is the window that Ollama gets, and the one its row and meter show', async () => {
    const { h, services, id } = await withGpuBoxActive();
    expect(await h['models:set-context']({ model: MODEL, contextWindow: 3072, source: 'user' })).toEqual({ contextWindow: 3072, reloads: true });
    // The model's row and the composer's meter (both name the active connection).
    expect(await h['models:context-window']({ model: MODEL, connectionId: id, wait: true })).toEqual({ contextWindow: 3072, source: 'user', reason: null });
    // Details' "Kept for this model" line.
    expect((await h['models:recommend-context']({ model: MODEL })).stored).toEqual({ contextWindow: 3072, source: 'user' });
    expect(await numCtxSent(services, two.gpuBox, id)).toBe(3072);
    expect(chatBodies(two.local)).toEqual([]);
  });

  it('leaves the windows of the Ollama in Settings as they were, and is left alone by them', async () => {
    const { h, services, id } = await withGpuBoxActive();
    await h['models:set-context']({ model: MODEL, contextWindow: 3072, source: 'user' });
    // The Ollama in Settings still works its window out from the GPU (no one kept one for it).
    const builtIn = await h['models:context-window']({ model: MODEL, wait: true });
    expect(builtIn.source).toBe('recommended');
    expect(await numCtxSent(services, two.local)).toBe(builtIn.contextWindow);
    // Back on the Ollama in Settings, a window kept there is its own; the GPU box keeps 3072.
    await h['settings:update']({ activeConnectionId: 'ollama' });
    await h['models:set-context']({ model: MODEL, contextWindow: 8192, source: 'user' });
    expect(await h['models:context-window']({ model: MODEL, wait: true })).toMatchObject({ contextWindow: 8192, source: 'user' });
    expect(await h['models:context-window']({ model: MODEL, connectionId: id, wait: true })).toMatchObject({ contextWindow: 3072, source: 'user' });
    expect(await numCtxSent(services, two.local)).toBe(8192);
    expect(await numCtxSent(services, two.gpuBox, id)).toBe(3072);
  });

  it('is forgotten on that Ollama by Forget, and measured against that Ollama’s trained context', async () => {
    const { h, id } = await withGpuBoxActive();
    // 64K is within what the Ollama in Settings says (128K) but beyond the GPU box's build (32K).
    await expect(h['models:set-context']({ model: MODEL, contextWindow: 65_536, source: 'user' })).rejects.toThrow(/trained for a context of 32,768 tokens/);
    await h['models:set-context']({ model: MODEL, contextWindow: 16_384, source: 'user' });
    expect(await h['models:set-context']({ model: MODEL, contextWindow: null })).toEqual({ contextWindow: null, reloads: true });
    expect((await h['models:context-window']({ model: MODEL, connectionId: id, wait: true })).source).not.toBe('user');
  });
});
