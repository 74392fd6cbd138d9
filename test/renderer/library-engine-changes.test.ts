/**
 * Round 7, engine #4: once the Models screen had been opened, every built-in answer that loaded its model re-read
 * the model list twice (the library's files and the picker's models, each a scan of the models folder), for a change
 * (`loading:`/`loaded:`) that is only the engine's state. Those now read the engine's status alone; a change of the
 * folder still reads the list, and the picker where the built-in engine is in use.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { connectLibraryStore, useLibraryStore } from '../../src/renderer/store/library-slice';
import { useStore } from '../../src/renderer/store/index';
import type { Settings } from '../../src/shared/ipc';
import { fakeApi } from './helpers/fake-api';

const calls: string[] = [];
let changed: (e: { reason: string }) => void = () => undefined;
const STATUS = { backend: null, running: true, loaded: [{ file: 'plain.gguf', contextSize: 4096, memoryBytes: 1, unloadsAt: null }], loading: [], waiting: [], modelsDir: '/m', unavailable: null };

beforeEach(() => {
  calls.length = 0;
  (globalThis as { window?: unknown }).window = {
    firebrand: fakeApi({
      library: {
        list: () => (calls.push('library:list'), Promise.resolve([])),
        onChanged: (cb: typeof changed) => ((changed = cb), () => undefined),
      },
      builtin: { status: () => (calls.push('builtin:status'), Promise.resolve(STATUS)) },
      models: { list: () => (calls.push('models:list'), Promise.resolve([])) },
      aliases: { list: () => Promise.resolve([]) },
    }),
  };
  useStore.setState({ settings: { activeConnectionId: 'builtin' } as Settings });
  connectLibraryStore();
});

describe('the Models screen, once opened, as built-in answers load their models', () => {
  it("reads only the engine's status for a model loading and loaded, not the folder nor the picker's list", async () => {
    changed({ reason: 'loading:plain.gguf' });
    changed({ reason: 'loaded:plain.gguf' });
    // The answer ended: the model's idle unload time moved.
    changed({ reason: 'idle:plain.gguf' });
    await expect.poll(() => calls).toEqual(['builtin:status']);
    await expect.poll(() => useLibraryStore.getState().status?.loaded.map((l) => l.file)).toEqual(['plain.gguf']);
  });

  it("reads the list and the picker's models for a change of the folder", async () => {
    changed({ reason: 'loaded:plain.gguf' });
    changed({ reason: 'added' });
    await expect.poll(() => [...calls].sort()).toEqual(['builtin:status', 'library:list', 'models:list']);
  });
});
