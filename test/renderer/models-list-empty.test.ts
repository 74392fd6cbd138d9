/**
 * First-run hunt: Ollama running with nothing pulled. The banner says "The server has no models yet" and offers
 * "Open Models"; the Models screen then showed its "Models" heading over nothing at all. It now says there are none
 * yet and how to pull a first one, once the list is read: not while it is being read, nor where it could not be.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { noModelsNote } from '../../src/renderer/components/models/ModelList';
import { loadModelsScreen, useModelsStore } from '../../src/renderer/store/models-slice';
import { FirebrandError } from '../../src/shared/ipc';
import { fakeApi } from './helpers/fake-api';

let list: () => Promise<unknown[]> = () => Promise.resolve([]);

beforeEach(() => {
  list = () => Promise.resolve([]);
  (globalThis as { window?: unknown }).window = {
    firebrand: fakeApi({
      models: { list: () => list(), running: () => Promise.resolve([]) },
      aliases: { list: () => Promise.resolve([]) },
    }),
  };
  useModelsStore.setState({ models: [], modelsRead: false, error: null });
});

const shown = (ollama: boolean) => noModelsNote(useModelsStore.getState(), ollama);

describe('the Models screen of a server with no models', () => {
  it('says an Ollama has none yet and how to pull a first one', async () => {
    expect(await loadModelsScreen(true)).toBe(true);
    expect(shown(true)).toBe(
      'This Ollama has no models yet. Pull one above by its name in the Ollama library (ollama.com/library), such as llama3.2:1b (1.3 GB); it is then in the composer’s model list.',
    );
    expect(shown(false)).toBe('This server lists no models. Start it with a model, or check its address in Settings → Connections.');
  });

  it('says nothing of an empty list while it is read, nor where it could not be read (the error says why)', async () => {
    let answer: (models: unknown[]) => void = () => undefined;
    list = () => new Promise((r) => (answer = r));
    const reading = loadModelsScreen(true);
    expect(shown(true)).toBe(null);
    answer([]);
    await reading;
    expect(shown(true)).not.toBe(null);
    list = () => Promise.reject(new FirebrandError({ code: 'server-unreachable', message: 'Cannot reach Ollama at http://127.0.0.1:9.' }));
    expect(await loadModelsScreen(true)).toBe(false);
    expect(shown(true)).toBe(null);
  });

  it('says nothing of the sort where there are models', async () => {
    list = () => Promise.resolve([{ name: 'llama3.2:1b', sizeBytes: 1, family: null, parameterSize: null, quantization: null }]);
    expect(await loadModelsScreen(true)).toBe(true);
    expect(shown(true)).toBe(null);
  });
});
