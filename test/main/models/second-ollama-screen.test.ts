/**
 * Round 9: with a second Ollama connection in use (a GPU box beside the local one), the Models screen listed that
 * server's models, but its Running list, Unload, a model's details and Delete went to the Ollama in Settings: the
 * panel showed the other server's models, and Delete could remove a model of the same name from the wrong machine.
 * Both servers are stand-ins that record what they are asked.
 */
import { describe, expect, it } from 'vitest';
import { startReplayServer, type ReplayServer } from '../../replay-server/replay-server';
import { fixture, ollama } from '../integration/helpers';
import { useSecondOllama } from './second-ollama';

const LOADED = JSON.stringify({ models: [{ name: 'qwen3:8b', model: 'qwen3:8b', size: 6_000_000_000, size_vram: 6_000_000_000, context_length: 8192, expires_at: '2099-01-01T00:00:00Z', digest: 'd' }] });
const admin = (ps: string) => ollama([
  { path: '/api/ps', body: ps },
  { method: 'POST', path: '/api/show', body: fixture('ollama-models/show-qwen3-14b.json') },
  { method: 'DELETE', path: '/api/delete', body: '' },
  { method: 'POST', path: '/api/generate', body: '{"model":"qwen3:8b","done":true,"done_reason":"unload"}' },
  { method: 'POST', path: '/api/pull', body: fixture('ollama-models/pull-llama3.2-1b.ndjson'), chunk: 'lines' },
]);

const two = useSecondOllama(() => startReplayServer(admin('{"models":[]}')), () => startReplayServer(admin(LOADED)));

const asked = (s: ReplayServer) => s.requests.map((r) => `${r.method} ${r.path}`).filter((r) => !r.endsWith('/api/tags') && !r.endsWith('/api/version'));

describe('the Models screen with a second Ollama in use', () => {
  it('reads Running, unloads, shows details, deletes and pulls on that Ollama, not on the one in Settings', async () => {
    const { h } = await two.withGpuBoxActive();
    expect((await h['models:running']({})).map((m) => m.name)).toEqual(['qwen3:8b']);
    await h['models:unload']({ model: 'qwen3:8b' });
    await h['models:show']({ model: 'qwen3:8b' });
    await h['models:delete']({ model: 'qwen3:8b' });
    await h['models:pull']({ model: 'llama3.2:1b' });
    await expect.poll(() => asked(two.gpuBox)).toEqual(expect.arrayContaining(['GET /api/ps', 'POST /api/generate', 'POST /api/show', 'DELETE /api/delete', 'POST /api/pull']));
    expect(asked(two.local)).toEqual([]);
  });

  it('goes back to the Ollama in Settings once that is the one in use', async () => {
    const { h } = await two.withGpuBoxActive();
    await h['settings:update']({ activeConnectionId: 'ollama' });
    expect(await h['models:running']({})).toEqual([]);
    expect(asked(two.gpuBox)).toEqual([]);
  });
});
