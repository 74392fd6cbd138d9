/**
 * An alias changed in another tab (`aliases:changed`) while this page's model list is on its way: the list's aliases
 * answer comes at once and its models after a server round trip, so the older aliases answer, shown with the models,
 * put back what the event had just replaced (a deleted alias offered again, a renamed one under its old name).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { ModelSummary } from '../../src/shared/ipc';
import type { Alias } from '../../src/shared/models';
import { adoptAliases, refreshModels, useStore } from '../../src/renderer/store/index';
import { deferred, fakeApi } from './helpers/fake-api';

const alias = (id: string, name: string): Alias =>
  ({ id, name, connectionId: 'ollama', model: 'llama3.2:3b', systemPrompt: '', parameters: {}, thinkMode: 'off', contextWindow: null, materializedDigest: null, status: 'not-materialized', updatedAt: 1 }) as Alias;
const MODELS = [{ name: 'llama3.2:3b' }] as ModelSummary[];

let models: ReturnType<typeof deferred<ModelSummary[]>>;
beforeEach(() => {
  models = deferred<ModelSummary[]>();
  (globalThis as { window?: unknown }).window = {
    firebrand: fakeApi({
      models: { list: () => models.promise, contextWindow: () => Promise.resolve({ contextWindow: 4096, source: 'fallback', reason: null }) },
      aliases: { list: () => Promise.resolve([alias('a1', 'small')]) },
    }),
  };
  useStore.setState({ models: MODELS, aliases: [alias('a1', 'small')], modelsError: null, modelsConnection: 'ollama', selectedModel: 'llama3.2:3b', settings: null });
});

describe('aliases changed in another tab while the model list is read', () => {
  it('keeps the aliases the event said, not the older answer that comes with the models', async () => {
    const refreshing = refreshModels();
    await Promise.resolve();
    adoptAliases([alias('a1', 'tiny')]);
    models.resolve(MODELS);
    await refreshing;
    expect(useStore.getState().aliases.map((a) => a.name)).toEqual(['tiny']);
  });

  it('takes the aliases at once where no model list has come yet; the first list then does not undo them', async () => {
    useStore.setState({ modelsConnection: undefined, models: [] });
    const refreshing = refreshModels();
    adoptAliases([]);
    expect(useStore.getState().aliases).toEqual([]);
    models.resolve(MODELS);
    await refreshing;
    expect(useStore.getState().aliases).toEqual([]);
  });
});

// Round 9, engine #4: with an alias chosen, its deletion in another tab chose the first model listed, and the next
// message went to a model the chat had never used (two tabs on the built-in engine: the endless one).
describe('the chosen alias deleted in another tab', () => {
  const TWO = [{ name: 'first.gguf' }, { name: 'plain.gguf' }] as ModelSummary[];
  const onPlain = { ...alias('a1', 'Helper'), connectionId: 'builtin', model: 'plain.gguf' } as Alias;
  const builtinSettings = { activeConnectionId: 'builtin' } as NonNullable<ReturnType<typeof useStore.getState>['settings']>;

  it('chooses the model the alias named, and says so', async () => {
    useStore.setState({ models: TWO, aliases: [onPlain], modelsConnection: 'builtin', selectedModel: 'alias:a1', settings: builtinSettings, notice: null });
    adoptAliases([]);
    await expect.poll(() => useStore.getState().selectedModel).toBe('plain.gguf');
    expect(useStore.getState().notice?.message).toBe('Helper is no longer an alias (it was deleted); plain.gguf is chosen now.');
  });

  it('does not choose a model of that name on another connection than the alias’s', async () => {
    useStore.setState({ models: TWO, aliases: [{ ...onPlain, connectionId: 'ollama' }], modelsConnection: 'builtin', selectedModel: 'alias:a1', settings: builtinSettings, notice: null });
    adoptAliases([]);
    await expect.poll(() => useStore.getState().notice?.message).toBe('Helper is no longer an alias (it was deleted); first.gguf is chosen now.');
    expect(useStore.getState().selectedModel).toBe('first.gguf');
  });
});
