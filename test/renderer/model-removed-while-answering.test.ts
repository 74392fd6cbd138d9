/**
 * The GGUF of the model answering was deleted (from disk) while it answered: the composer moved to another model
 * mid-answer ("… is no longer in the models folder; … is chosen now" under an answer still streaming from it). The
 * engine answers on from the weights in memory; the composer keeps the model until the answer ends, then says so.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ModelSummary } from '../../src/shared/ipc';
import type { Turn } from '../../src/shared/turn';
import { connectRemovedWhileAnswering, refreshModels, useStore } from '../../src/renderer/store/index';
import { fakeApi } from './helpers/fake-api';

const list = (...names: string[]) => names.map((name) => ({ name })) as ModelSummary[];
const builtinSettings = { activeConnectionId: 'builtin' } as NonNullable<ReturnType<typeof useStore.getState>['settings']>;
const answer = (status: Turn['status'], model = 'thinker.gguf') =>
  ({ id: 'a1', conversationId: 'c1', role: 'assistant', source: 'model', meta: {}, status, model, content: 'Partly', createdAt: 0 }) as unknown as Turn;
let listed: ModelSummary[];
let disconnect: () => void;

beforeEach(() => {
  (globalThis as { window?: unknown }).window = {
    firebrand: fakeApi({
      models: { list: () => Promise.resolve(listed), contextWindow: () => Promise.resolve({ contextWindow: 4096, source: 'fallback', reason: null }) },
      aliases: { list: () => Promise.resolve([]) },
    }),
  };
  useStore.setState({ models: list('plain.gguf', 'thinker.gguf'), aliases: [], modelsError: null, modelsConnection: 'builtin', selectedModel: 'thinker.gguf', settings: builtinSettings, notice: null, turns: [answer('streaming')] });
  disconnect = connectRemovedWhileAnswering();
});
afterEach(() => disconnect());

describe('the chosen GGUF removed while it answers', () => {
  it('stays chosen until the answer ends, then the next is chosen, with a note that it was removed', async () => {
    listed = list('plain.gguf');
    await refreshModels();
    // Before: plain.gguf was chosen at once, mid-answer.
    expect(useStore.getState().selectedModel).toBe('thinker.gguf');
    expect(useStore.getState().notice).toBeNull();
    expect(useStore.getState().models.map((m) => m.name)).toEqual(['plain.gguf']);
    // Another list meanwhile (the folder changed again) keeps it so.
    await refreshModels();
    expect(useStore.getState().selectedModel).toBe('thinker.gguf');
    useStore.setState({ turns: [answer('done')] });
    await expect.poll(() => useStore.getState().selectedModel).toBe('plain.gguf');
    expect(useStore.getState().notice?.message).toBe('thinker.gguf is no longer in the models folder (it was removed while it answered); plain.gguf is chosen now.');
  });

  it('is left chosen (nothing else to choose) until the answer ends, when the only model is removed', async () => {
    useStore.setState({ models: list('thinker.gguf') });
    listed = [];
    await refreshModels();
    expect(useStore.getState().selectedModel).toBe('thinker.gguf');
    useStore.setState({ turns: [answer('done')] });
    await expect.poll(() => useStore.getState().selectedModel).toBeNull();
    expect(useStore.getState().modelsError).toMatch(/^No GGUF models yet/);
  });

  it('moves at once when another model is answering', async () => {
    useStore.setState({ turns: [answer('streaming', 'plain.gguf')] });
    listed = list('plain.gguf');
    await refreshModels();
    expect(useStore.getState().selectedModel).toBe('plain.gguf');
    expect(useStore.getState().notice?.message).toBe('thinker.gguf is no longer in the models folder; plain.gguf is chosen now.');
  });
});
