/**
 * Library eyes: a refused action is said beside the control that failed (its row, the download box), and the folder
 * read again after any change (another tab's, a download's) leaves that reason in place. The re-read cleared it as
 * soon as it came: a refused rename flashed and went, and the Rename button seemed to do nothing.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { deleteModelFile, fileErrorAt, loadLibrary, startDownload, useLibraryStore } from '../../src/renderer/store/library-slice';
import { useStore } from '../../src/renderer/store/index';
import { FirebrandError, type Settings } from '../../src/shared/ipc';
import { fakeApi } from './helpers/fake-api';

const ENTRY = { file: 'tiny-chat.gguf', path: '/m/tiny-chat.gguf', state: 'usable' };
const STATUS = { backend: null, running: false, loaded: [], loading: [], waiting: [], modelsDir: '/m', unavailable: null };
let listFails = false;

beforeEach(() => {
  listFails = false;
  (globalThis as { window?: unknown }).window = {
    firebrand: fakeApi({
      library: {
        list: () => (listFails ? Promise.reject(new FirebrandError({ code: 'internal', message: 'The models folder could not be read.' })) : Promise.resolve([ENTRY])),
        delete: () => Promise.reject(new FirebrandError({ code: 'internal', message: 'tiny-chat.gguf could not be deleted: it is in use.' })),
        download: () => Promise.reject(new FirebrandError({ code: 'invalid-payload', message: 'A download address starts with http:// or https:// (or hf:).' })),
      },
      builtin: { status: () => Promise.resolve(STATUS) },
    }),
  };
  useStore.setState({ settings: { activeConnectionId: 'ollama' } as Settings });
  useLibraryStore.setState({ error: null, errorAt: 'section', note: null });
});

describe('where the library says why an action failed', () => {
  it('puts a refused Delete on its row and a refused address in the download box, and keeps them through a re-read', async () => {
    expect(await deleteModelFile('tiny-chat.gguf')).toBe(false);
    expect(useLibraryStore.getState()).toMatchObject({ error: 'tiny-chat.gguf could not be deleted: it is in use.', errorAt: fileErrorAt('tiny-chat.gguf') });
    expect(await loadLibrary()).toBe(true);
    expect(useLibraryStore.getState().error).toBe('tiny-chat.gguf could not be deleted: it is in use.');

    expect(await startDownload('ftp://x/y.gguf')).toBe(false);
    expect(useLibraryStore.getState()).toMatchObject({ error: 'A download address starts with http:// or https:// (or hf:).', errorAt: 'download' });
  });

  it('clears a failure to read the folder once it reads', async () => {
    listFails = true;
    expect(await loadLibrary()).toBe(false);
    expect(useLibraryStore.getState()).toMatchObject({ error: 'The models folder could not be read.', errorAt: 'list' });
    listFails = false;
    expect(await loadLibrary()).toBe(true);
    expect(useLibraryStore.getState().error).toBeNull();
  });
});
