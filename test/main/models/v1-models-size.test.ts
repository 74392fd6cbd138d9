/**
 * A llama-server model's row on the Models screen showed a lone "—": `/v1/models` was read for its ids only, though
 * llama-server writes each model's file size and parameter count under `meta` (the real capture below). They are
 * read now, written as Ollama's are; a server that writes no `meta` (LM Studio, vLLM) leaves them unknown.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listV1Models, parameterCount } from '../../../src/main/models/model-list';
import { startReplayServer, type ReplayServer } from '../../replay-server/replay-server';

// Real llama-server captures, shared by the project (see its README.md); read in place, never copied.
const CONFORMANCE = resolve(import.meta.dirname, '../../../../shared/conformance/llama-server');

let replay: ReplayServer;
beforeAll(async () => {
  replay = await startReplayServer();
});
afterAll(async () => {
  await replay.close();
});

describe('the size and parameters of a model /v1/models lists', () => {
  it.skipIf(!existsSync(CONFORMANCE))("reads llama-server's meta.size and meta.n_params (a real capture)", async () => {
    replay.setRoutes([{ path: '/v1/models', body: readFileSync(resolve(CONFORMANCE, 'v1-models-deepseek.json'), 'utf8') }]);
    expect(await listV1Models({ kind: 'llama-server', label: 'llama-server', baseUrl: replay.url }, {})).toEqual([
      { name: 'scripted-a-plain.gguf', sizeBytes: 2_696_960, family: null, parameterSize: '674K', quantization: null },
    ]);
  });

  it('leaves them unknown where the server writes no meta, or writes it oddly', async () => {
    replay.setRoutes([{ path: '/v1/models', body: JSON.stringify({ object: 'list', data: [{ id: 'a' }, { id: 'b', meta: { size: '12', n_params: -1 } }, { id: 'c', meta: null }] }) }]);
    expect((await listV1Models({ kind: 'openai-compatible', label: 'LM Studio', baseUrl: replay.url }, {})).map((m) => [m.name, m.sizeBytes, m.parameterSize])).toEqual([
      ['a', null, null],
      ['b', null, null],
      ['c', null, null],
    ]);
  });

  it('writes a parameter count as Ollama writes parameter_size', () => {
    expect([8_030_261_248, 494_032_768, 674_240, 70_553_706_496, 999_950, 99_960_000_000, 1_500_000_000_000, 512, null].map(parameterCount)).toEqual([
      '8.0B', '494M', '674K', '70.6B', '1.0M', '100B', '1.5T', '512', null,
    ]);
  });
});
