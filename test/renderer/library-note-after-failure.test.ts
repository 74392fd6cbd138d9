/**
 * First-run hunt: Models → Add said "Added tiny-chat.gguf." and, below the next try's failure ("There is no file at
 * …"), still said it, in green, as if that try had added a file too. A failure now takes the last confirmation away.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { addModelFile, deleteModelFile, useLibraryStore } from '../../src/renderer/store/library-slice';
import { useStore } from '../../src/renderer/store/index';
import { FirebrandError, type Settings } from '../../src/shared/ipc';
import { fakeApi } from './helpers/fake-api';

const ENTRY = { file: 'tiny-chat.gguf', path: '/m/tiny-chat.gguf', state: 'usable' };
const STATUS = { backend: null, running: false, loaded: [], loading: [], waiting: [], modelsDir: '/m', unavailable: null };

beforeEach(() => {
  (globalThis as { window?: unknown }).window = {
    firebrand: fakeApi({
      library: {
        addFile: ({ path }: { path: string }) =>
          path.endsWith('tiny-chat.gguf') ? Promise.resolve(ENTRY) : Promise.reject(new FirebrandError({ code: 'not-found', message: `There is no file at ${path}.` })),
        list: () => Promise.resolve([ENTRY]),
        delete: () => Promise.reject(new FirebrandError({ code: 'internal', message: 'tiny-chat.gguf could not be deleted: it is in use.' })),
      },
      builtin: { status: () => Promise.resolve(STATUS) },
    }),
  };
  useStore.setState({ settings: { activeConnectionId: 'ollama' } as Settings });
  useLibraryStore.setState({ error: null, note: null });
});

describe('Models → Add, one file added and the next refused', () => {
  it('says only why the second was refused, not also "Added" of the first', async () => {
    expect(await addModelFile('/d/tiny-chat.gguf', 'copy')).toBe(true);
    expect(useLibraryStore.getState()).toMatchObject({ note: 'Added tiny-chat.gguf.', error: null });
    expect(await addModelFile('/d/nope.gguf', 'copy')).toBe(false);
    expect(useLibraryStore.getState()).toMatchObject({ note: null, error: 'There is no file at /d/nope.gguf.' });
  });

  it('says only why a Delete failed, not also "Added" of the file before', async () => {
    expect(await addModelFile('/d/tiny-chat.gguf', 'copy')).toBe(true);
    expect(await deleteModelFile('tiny-chat.gguf')).toBe(false);
    expect(useLibraryStore.getState()).toMatchObject({ note: null, error: 'tiny-chat.gguf could not be deleted: it is in use.' });
  });
});
