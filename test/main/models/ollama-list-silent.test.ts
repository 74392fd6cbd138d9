/**
 * The model list of an Ollama the user named "Desk GPU" that never answers in time: every other failure of the list
 * names the connection ("Cannot reach Desk GPU at …"), but a timeout said "The server at http://… did not answer in
 * time.", and one that sent its headers and then nothing more said undici's "Body Timeout Error". It names the
 * connection now, as llama-server's list does: "Desk GPU at http://… did not answer within 10 s."
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startReplayServer, type ReplayServer } from '../../replay-server/replay-server';
import { tempServices } from '../integration/helpers';

let replay: ReplayServer;
let cleanup: (() => void) | undefined;
beforeAll(async () => {
  replay = await startReplayServer();
});
afterAll(() => replay.close());
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

/** The composer's model list of "Desk GPU", an Ollama at the replay server, in use (the one in Settings is down). */
async function listDeskGpu(): Promise<unknown> {
  const t = tempServices(replay, { ollamaUrl: 'http://127.0.0.1:9' });
  cleanup = t.cleanup;
  const h = t.services.handlers;
  const { id } = await h['connections:save']({ kind: 'ollama', label: 'Desk GPU', baseUrl: replay.url });
  await h['settings:update']({ activeConnectionId: id });
  return h['models:list']({});
}

// The list's own limit is 10 s: these tests wait for it.
describe("an Ollama whose model list never comes names the connection", () => {
  it('of a server that takes the request and never answers', { timeout: 60_000 }, async () => {
    replay.setRoutes([{ path: '/api/tags', body: '', silent: true }]);
    await expect(listDeskGpu()).rejects.toHaveProperty('message', `Desk GPU at ${replay.url} did not answer within 10 s.`);
  });

  it('of a server that answers 200 and then stalls', { timeout: 60_000 }, async () => {
    replay.setRoutes([{ path: '/api/tags', body: '{"models":[', hang: true }]);
    await expect(listDeskGpu()).rejects.toHaveProperty('message', `Desk GPU at ${replay.url} did not answer within 10 s.`);
  });
});
