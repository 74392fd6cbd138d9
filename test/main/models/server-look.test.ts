/**
 * What the server watch compares between looks. llama-server restarted with another -c lists the same model, and
 * the Models screen's row kept the old window (models audit #3): its n_ctx is part of the look.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionInfo } from '../../../src/shared/connections';
import { lookAtServer } from '../../../src/main/models/server-look';
import { startReplayServer, type ReplayServer } from '../../replay-server/replay-server';

let replay: ReplayServer;
beforeAll(async () => {
  replay = await startReplayServer();
});
afterAll(async () => {
  await replay.close();
});

const started = (nCtx: number) => [
  { path: '/v1/models', body: '{"object":"list","data":[{"id":"other.gguf","object":"model"}]}' },
  { path: '/props', body: JSON.stringify({ default_generation_settings: { n_ctx: nCtx } }) },
];

describe('a look at llama-server', () => {
  it('changes when the server comes back with another n_ctx, and not otherwise', async () => {
    const active: ConnectionInfo = { id: 'lan', kind: 'llama-server', label: 'Local llama', baseUrl: replay.url, hasApiKey: false };
    const deps = { modelsDir: () => '/nowhere', headersFor: () => ({}) };
    replay.setRoutes(started(4096));
    const first = await lookAtServer(active, deps);
    expect((await lookAtServer(active, deps)).signature).toBe(first.signature);
    replay.setRoutes(started(2048));
    expect((await lookAtServer(active, deps)).signature).not.toBe(first.signature);
    // A server whose /props does not answer is looked at by its models alone.
    replay.setRoutes(started(2048).slice(0, 1));
    expect((await lookAtServer(active, deps)).signature).toBe('other.gguf');
  });
});
