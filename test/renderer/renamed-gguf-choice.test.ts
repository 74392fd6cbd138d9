/**
 * Builtin audit #3: renaming the chosen GGUF in Models took it for a file that went away ("… is no longer in the models
 * folder") and chose the first file listed, there one whose load had just failed. The choice follows the rename.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { ModelSummary } from '../../src/shared/ipc';
import { followRenamedFile, refreshModels, useStore } from '../../src/renderer/store/index';
import { fakeApi } from './helpers/fake-api';

const list = (...names: string[]) => names.map((name) => ({ name })) as ModelSummary[];
const builtinSettings = { activeConnectionId: 'builtin' } as NonNullable<ReturnType<typeof useStore.getState>['settings']>;
let listed: ModelSummary[];

beforeEach(() => {
  (globalThis as { window?: unknown }).window = {
    firebrand: fakeApi({
      models: { list: () => Promise.resolve(listed), contextWindow: () => Promise.resolve({ contextWindow: 4096, source: 'fallback', reason: null }) },
      aliases: { list: () => Promise.resolve([]) },
    }),
  };
  useStore.setState({ models: list('badtensor.gguf', 'thinker.gguf'), aliases: [], modelsError: null, modelsConnection: 'builtin', selectedModel: 'thinker.gguf', settings: builtinSettings, notice: null });
});

describe('the chosen GGUF renamed in Models', () => {
  it('stays chosen under its new name, with no "no longer in the models folder"', async () => {
    followRenamedFile('thinker.gguf', 'thinker-v2.gguf');
    expect(useStore.getState().selectedModel).toBe('thinker-v2.gguf');
    listed = list('badtensor.gguf', 'thinker-v2.gguf');
    await refreshModels();
    expect(useStore.getState().selectedModel).toBe('thinker-v2.gguf');
    expect(useStore.getState().notice).toBeNull();
  });

  it('is followed when the list comes before the event, and a list older than the rename does not undo it', async () => {
    listed = list('badtensor.gguf', 'plain-renamed.gguf');
    useStore.setState({ selectedModel: 'plain.gguf', models: list('badtensor.gguf', 'plain.gguf') });
    followRenamedFile('plain.gguf', 'plain-renamed.gguf');
    // A list asked before the rename, answered after it: it still names the old file.
    listed = list('badtensor.gguf', 'plain.gguf');
    await refreshModels();
    expect(useStore.getState().selectedModel).toBe('plain-renamed.gguf');
    expect(useStore.getState().notice).toBeNull();
    listed = list('badtensor.gguf', 'plain-renamed.gguf');
    await refreshModels();
    expect(useStore.getState().selectedModel).toBe('plain-renamed.gguf');
  });

  it('another file renamed leaves the choice alone; a file deleted is still said to be gone', async () => {
    followRenamedFile('badtensor.gguf', 'broken.gguf');
    expect(useStore.getState().selectedModel).toBe('thinker.gguf');
    listed = list('broken.gguf');
    await refreshModels();
    expect(useStore.getState().notice?.message).toBe('thinker.gguf is no longer in the models folder; broken.gguf is chosen now.');
  });
});

describe('a GGUF whose load failed (builtin audit #8)', () => {
  it('is not chosen on its own when the chosen file goes, and stays chosen when the user picked it', async () => {
    useStore.setState({ selectedModel: 'gone.gguf', models: list('badtensor.gguf', 'gone.gguf', 'plain.gguf') });
    listed = [{ name: 'badtensor.gguf', loadError: "missing tensor 'token_embd.weight'" }, { name: 'plain.gguf' }] as ModelSummary[];
    await refreshModels();
    expect(useStore.getState().selectedModel).toBe('plain.gguf');
    expect(useStore.getState().notice?.message).toBe('gone.gguf is no longer in the models folder; plain.gguf is chosen now.');
    useStore.setState({ selectedModel: 'badtensor.gguf' });
    await refreshModels();
    expect(useStore.getState().selectedModel).toBe('badtensor.gguf');
  });
});
