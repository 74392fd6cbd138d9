import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { llamaServerInfo, parseHealth, parseProps, parseSlots, parseV1Models } from '../../../src/main/models/llama-server-info';
import { startReplayServer, type ReplayServer } from '../../replay-server/replay-server';

// Real llama-server captures, shared by the project (see its README.md); read in place, never copied.
const CONFORMANCE = resolve(import.meta.dirname, '../../../../shared/conformance/llama-server');
const capture = (name: string) => readFileSync(resolve(CONFORMANCE, name), 'utf8');
const LOADING = '{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}';

let replay: ReplayServer;
beforeAll(async () => {
  replay = await startReplayServer();
});
afterAll(async () => {
  await replay.close();
});

describe.skipIf(!existsSync(CONFORMANCE))('llama-server info from real captures', () => {
  it('reads n_ctx, the chat template and modalities from /props', () => {
    const props = parseProps(JSON.parse(capture('props-deepseek.json')));
    expect(props).toMatchObject({ nCtx: 4096, model: 'scripted-a-plain.gguf', modalities: { vision: false, audio: false } });
    expect(props.chatTemplate).toContain('<|im_start|>');
    expect(parseProps(JSON.parse(capture('context-overflow-props-deepseek.json'))).nCtx).toBe(256);
  });

  it('reads the model and trained context from /v1/models and the slots from /slots', () => {
    expect(parseV1Models(JSON.parse(capture('v1-models-deepseek.json')))).toEqual({ model: 'scripted-a-plain.gguf', nCtxTrain: 4096 });
    expect(parseSlots(JSON.parse(capture('slots-deepseek.json')))).toEqual([{ id: 0, nCtx: 4096, processing: false }]);
  });

  it('/health: ok, and 503 "Loading model" while the model loads', () => {
    expect(parseHealth(200, JSON.parse(capture('health-deepseek.json')))).toEqual({ health: 'ok', healthMessage: null });
    expect(parseHealth(503, JSON.parse(LOADING))).toEqual({ health: 'loading', healthMessage: 'Loading model' });
  });

  it('asks the four endpoints of a running server', async () => {
    replay.setRoutes([
      { path: '/health', body: capture('health-deepseek.json') },
      { path: '/props', body: capture('props-deepseek.json') },
      { path: '/v1/models', body: capture('v1-models-deepseek.json') },
      { path: '/slots', body: capture('slots-deepseek.json') },
    ]);
    const info = await llamaServerInfo(replay.url);
    expect(info).toMatchObject({ health: 'ok', model: 'scripted-a-plain.gguf', nCtx: 4096, nCtxTrain: 4096, slots: [{ id: 0, nCtx: 4096, processing: false }] });
  });

  it('says the model is loading, and asks nothing else, while /health answers 503', async () => {
    replay.setRoutes([{ path: '/health', status: 503, body: LOADING }]);
    replay.requests.length = 0;
    const info = await llamaServerInfo(replay.url);
    expect(info).toMatchObject({ health: 'loading', healthMessage: 'Loading model', nCtx: null });
    expect(replay.requests.map((r) => r.path)).toEqual(['/health']);
  });
});
