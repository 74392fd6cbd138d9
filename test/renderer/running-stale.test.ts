/**
 * Models → Running, as another tab's change reaches it while the screen's own lists are still being read: the
 * running list read with them (answered before the change) came after the change's event, on the back of the slow
 * model list, and put the old list back, so the panel said "No model is loaded" with a model loaded (found with
 * round 8's cross-tab e2e tests, engine #2 and #3, which failed now and then on it).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { RunningModel } from '../../src/shared/models';
import type { ModelSummary } from '../../src/shared/ipc';
import { connectModelsStore, loadModelsScreen, loadRunning, useModelsStore } from '../../src/renderer/store/models-slice';
import { deferred, fakeApi } from './helpers/fake-api';

const LOADED: RunningModel[] = [{ name: 'llama3.2:3b', model: 'llama3.2:3b', sizeBytes: 1, vramBytes: 1, contextLength: 4096, expiresAt: null } as unknown as RunningModel];
let tell: (e: { running: RunningModel[] }) => void;
let list: ReturnType<typeof deferred<ModelSummary[]>>;
let running: ReturnType<typeof deferred<RunningModel[]>>;

beforeEach(() => {
  list = deferred();
  running = deferred();
  (globalThis as { window?: unknown }).window = {
    firebrand: fakeApi({
      models: {
        list: () => list.promise,
        running: () => running.promise,
        onRunningChanged: (cb: typeof tell) => {
          tell = cb;
          return () => undefined;
        },
      },
      aliases: { list: () => Promise.resolve([]) },
    }),
  };
  connectModelsStore();
  useModelsStore.setState({ running: [] });
});

describe('the Running panel', () => {
  it('keeps a list another tab’s change brought over one the screen read before it', async () => {
    const loading = loadModelsScreen(true);
    running.resolve([]);
    await Promise.resolve();
    tell({ running: LOADED });
    expect(useModelsStore.getState().running).toEqual(LOADED);
    list.resolve([]);
    await loading;
    expect(useModelsStore.getState().running).toEqual(LOADED);
  });

  // The first-run hunt: with Ollama down the screen said "Cannot reach Ollama" and, under Running, "No model is
  // loaded", which it could not know.
  it('does not say no model is loaded where Ollama could not be asked, and says so once it answers', async () => {
    useModelsStore.setState({ runningRead: true });
    const down = () => Promise.reject(new Error('Cannot reach Ollama at http://127.0.0.1:11434.'));
    running = { promise: down(), resolve: () => undefined };
    list = { promise: down(), resolve: () => undefined };
    await loadModelsScreen(true);
    // RunningModels says "What Ollama has loaded is not known" for this, and "No model is loaded." only once read.
    expect(useModelsStore.getState()).toMatchObject({ running: [], runningRead: false });

    running = deferred();
    const refreshing = loadRunning();
    running.resolve([]);
    await refreshing;
    expect(useModelsStore.getState()).toMatchObject({ running: [], runningRead: true });
  });

  it('takes what its own Refresh read where no change came meanwhile', async () => {
    const refreshing = loadRunning();
    running.resolve(LOADED);
    await refreshing;
    expect(useModelsStore.getState().running).toEqual(LOADED);
  });
});
