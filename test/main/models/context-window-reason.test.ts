/**
 * The reason under the message box when no window could be recommended is one plain sentence. Before: "No
 * recommendation: Details of llama3.2:3b: not found on Ollama." (two colons, an inner error pasted in), and with
 * Ollama down it repeated the red banner's "Cannot reach Ollama at … Is it running? …" word for word.
 */
import { describe, expect, it } from 'vitest';
import { ContextWindowResolver } from '../../../src/main/models/context-window';
import { showModel } from '../../../src/main/models/ollama-admin';
import type { ContextAdvice } from '../../../src/shared/models';
import { startReplayServer } from '../../replay-server/replay-server';

/** Nothing listens on the discard port: every request is refused at once. */
const DOWN = 'http://127.0.0.1:9';

/** A resolver whose recommendation asks the server for the model's details, as ModelService.recommend does. */
function resolver(name?: string): ContextWindowResolver {
  return new ContextWindowResolver({
    stored: () => null,
    recommend: async (baseUrl, model) => {
      await showModel(baseUrl, model, name ?? 'Ollama');
      throw new Error('unreachable in these tests');
    },
    ...(name ? { nameOf: () => name } : {}),
  });
}

describe('the reason no window was recommended', () => {
  it('says the server has no details of a model it does not know, in one sentence', async () => {
    const replay = await startReplayServer([{ method: 'POST', path: '/api/show', status: 404, body: '' }]);
    try {
      const choice = await resolver().resolve(replay.url, 'llama3.2:3b', { wait: true });
      expect(choice).toMatchObject({ contextWindow: 4096, source: 'fallback' });
      expect(choice.reason).toBe('No recommendation: Ollama has no details of llama3.2:3b.');
    } finally {
      await replay.close();
    }
  });

  it("says so without the server's own error pasted in", async () => {
    const replay = await startReplayServer([{ method: 'POST', path: '/api/show', status: 404, body: '{"error":"model \'llama3.2:3b\' not found"}' }]);
    try {
      expect((await resolver().resolve(replay.url, 'llama3.2:3b', { wait: true })).reason).toBe('No recommendation: Ollama has no details of llama3.2:3b.');
    } finally {
      await replay.close();
    }
  });

  it("does not repeat the banner's sentence when the server does not answer", async () => {
    const choice = await resolver().resolve(DOWN, 'llama3.2:3b', { wait: true });
    expect(choice).toMatchObject({ contextWindow: 4096, source: 'fallback' });
    expect(choice.reason).toBe('No recommendation while Ollama does not answer.');
  });

  it('names a saved connection as the rest of the app does', async () => {
    expect((await resolver('Desk GPU').resolve(DOWN, 'qwen3:8b', { wait: true })).reason).toBe('No recommendation while Desk GPU does not answer.');
  });

  it('keeps any other failure as one sentence after its own', async () => {
    const failing = new ContextWindowResolver({ stored: () => null, recommend: (): Promise<ContextAdvice> => Promise.reject(new Error('the GPU probe crashed')) });
    expect((await failing.resolve(DOWN, 'm', { wait: true })).reason).toBe('No recommendation could be made. The GPU probe crashed.');
  });
});
