/**
 * First-run pass: Ollama running with nothing pulled. The banner said "The server has no models yet. Pull one
 * (ollama pull llama3.2) and refresh": there is no Refresh (the banner offers Open Models and Retry), pulling in the
 * app went unsaid, and a llama-server or OpenAI-compatible server with an empty list was told to run `ollama pull`.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { AppState } from '../../src/renderer/store/app-state';
import { useStore } from '../../src/renderer/store/index';
import { showModels } from '../../src/renderer/store/model-choice';
import { fakeApi } from './helpers/fake-api';

const listedEmpty = async (activeConnectionId: string | undefined) => {
  useStore.setState({ settings: (activeConnectionId === undefined ? null : { activeConnectionId }) as AppState['settings'] });
  await showModels(Promise.resolve([[], []]));
  return useStore.getState().modelsError;
};

beforeEach(() => {
  (globalThis as { window?: unknown }).window = {
    firebrand: fakeApi({ models: { contextWindow: () => Promise.reject(new Error('not asked here')) } }),
  };
  useStore.setState({ notice: null, models: [], aliases: [], selectedModel: null, settings: null, modelsError: null, modelsConnection: undefined });
});

describe('the banner of a connection with no models', () => {
  it('tells a first run on Ollama to pull one in Models, or in a terminal and then press Retry (the button it has)', async () => {
    for (const id of [undefined, 'ollama']) {
      const said = await listedEmpty(id);
      expect(said).toBe('Ollama has no models yet. Pull one in Models, or run ollama pull llama3.2:1b in a terminal and press Retry.');
      expect(said).not.toMatch(/refresh/i);
    }
  });

  it('does not tell another server to run ollama pull', async () => {
    const said = await listedEmpty('c-openai');
    expect(said).toBe('This server lists no models. Start it with a model, then press Retry.');
  });

  it('still points the built-in engine at Models and its folder', async () => {
    expect(await listedEmpty('builtin')).toBe('No GGUF models yet: add or download one in Models (or put a .gguf file in the models folder).');
  });
});
