/**
 * Found in round 10's use of the Models screen on the built-in engine: after Rename of plain.gguf to renamed.gguf,
 * the alias editor's Model list still offered plain.gguf (a new alias could name a file that no longer existed);
 * only the composer's picker was read again. A file added, deleted or renamed in another tab left it as stale.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { connectLibraryStore, renameModelFile } from '../../src/renderer/store/library-slice';
import { useModelsStore } from '../../src/renderer/store/models-slice';
import { useStore } from '../../src/renderer/store/index';
import type { ModelSummary, Settings } from '../../src/shared/ipc';
import { fakeApi } from './helpers/fake-api';

const named = (...names: string[]) => names.map((name) => ({ name })) as ModelSummary[];
let listed = named('plain.gguf', 'thinker.gguf');
let changed: (e: { reason: string }) => void = () => undefined;
const STATUS = { backend: null, running: false, loaded: [], loading: [], waiting: [], modelsDir: '/m', unavailable: null };

beforeEach(() => {
  listed = named('plain.gguf', 'thinker.gguf');
  (globalThis as { window?: unknown }).window = {
    firebrand: fakeApi({
      library: {
        list: () => Promise.resolve([]),
        rename: ({ to }: { to: string }) => ((listed = named(to, 'thinker.gguf')), Promise.resolve({ file: to })),
        onChanged: (cb: typeof changed) => ((changed = cb), () => undefined),
      },
      builtin: { status: () => Promise.resolve(STATUS) },
      models: { list: () => Promise.resolve(listed), contextWindow: () => Promise.resolve({ contextWindow: 4096, source: 'fallback', reason: null }) },
      aliases: { list: () => Promise.resolve([]) },
    }),
  };
  useStore.setState({ settings: { activeConnectionId: 'builtin' } as Settings, models: named('plain.gguf', 'thinker.gguf'), modelsConnection: 'builtin', selectedModel: 'thinker.gguf' });
  useModelsStore.setState({ models: named('plain.gguf', 'thinker.gguf') });
  connectLibraryStore();
});

const editorModels = () => useModelsStore.getState().models.map((m) => m.name);

describe("the alias editor's Model list on the built-in engine", () => {
  it('offers a renamed file by its new name, not the old one', async () => {
    expect(await renameModelFile('plain.gguf', 'renamed.gguf')).toBe(true);
    await expect.poll(editorModels).toEqual(['renamed.gguf', 'thinker.gguf']);
  });

  it('follows a file renamed in another tab', async () => {
    listed = named('renamed.gguf', 'thinker.gguf');
    changed({ reason: 'renamed' });
    await expect.poll(editorModels).toEqual(['renamed.gguf', 'thinker.gguf']);
  });
});
