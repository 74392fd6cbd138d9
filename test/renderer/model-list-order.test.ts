/**
 * The page asks main for the model list often (focus, `models:changed`, a download's end). A slow answer that came
 * after a newer one overwrote it: a model deleted meanwhile, gone from the newer answer, came back into the picker.
 * An answer older than the newest shown is now dropped.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { ModelSummary } from '../../src/shared/ipc';
import { useStore } from '../../src/renderer/store/index';
import { refreshModels } from '../../src/renderer/store/model-choice';
import { fakeApi } from './helpers/fake-api';

function model(name: string): ModelSummary {
  return { name, sizeBytes: null, family: null, parameterSize: null, quantization: null };
}

/** Each `models:list` asked, answered when the test says. */
let asked: ((models: ModelSummary[] | Error) => void)[];

beforeEach(() => {
  asked = [];
  (globalThis as { window?: unknown }).window = {
    firebrand: fakeApi({
      models: {
        list: () =>
          new Promise<ModelSummary[]>((resolve, reject) => {
            asked.push((m) => (m instanceof Error ? reject(m) : resolve(m)));
          }),
        contextWindow: () => Promise.reject(new Error('not asked here')),
      },
      aliases: { list: () => Promise.resolve([]) },
    }),
  };
  useStore.setState({ notice: null, models: [], aliases: [], selectedModel: null, settings: null, modelsConnection: undefined, modelsError: null });
});

const shown = () => useStore.getState().models.map((m) => m.name);

describe('model lists answered out of order', () => {
  it('keeps the newer list when an older one comes after it', async () => {
    // Asked before qwen3 was deleted on the server (slow to answer), then again after `models:changed`.
    const older = refreshModels();
    const newer = refreshModels();
    asked[1]!([model('llama3.2')]);
    await newer;
    expect(shown()).toEqual(['llama3.2']);
    asked[0]!([model('llama3.2'), model('qwen3:0.6b')]);
    await older;
    expect(shown()).toEqual(['llama3.2']);
    // A list asked after those is shown as usual.
    const later = refreshModels();
    asked[2]!([model('llama3.2'), model('gemma3:1b')]);
    await later;
    expect(shown()).toEqual(['llama3.2', 'gemma3:1b']);
  });

  it('does not put an older failure over a newer list', async () => {
    const older = refreshModels();
    const newer = refreshModels();
    asked[1]!([model('llama3.2')]);
    await newer;
    asked[0]!(new Error('Cannot reach Ollama'));
    await older;
    expect(shown()).toEqual(['llama3.2']);
    expect(useStore.getState().modelsError).toBeNull();
  });
});
