/**
 * Round 9 left: "Helper is no longer an alias (it was deleted); plain.gguf is chosen now." (a chosen alias deleted in
 * another tab) came with a Retry button, which only read the lists again: nothing had failed, and nothing changed.
 * The notice now offers "Choose a model" (it opens the picker) and no Retry; a notice of a failed action keeps Retry.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeEach, describe, expect, it } from 'vitest';
import { NoticeBanner } from '../../src/renderer/components/frame/NoticeBanner';
import { adoptAliases, fail, useStore } from '../../src/renderer/store/index';
import { showModels } from '../../src/renderer/store/model-choice';
import type { ModelSummary } from '../../src/shared/ipc';
import type { Alias } from '../../src/shared/models';
import { fakeApi } from './helpers/fake-api';

const HELPER = { id: 'a1', name: 'Helper', connectionId: 'builtin', model: 'plain.gguf', systemPrompt: '', parameters: {}, thinkMode: 'off', contextWindow: null, materializedDigest: null, status: 'not-materialized', updatedAt: 1 } as Alias;
const MODELS = [{ name: 'first.gguf' }, { name: 'plain.gguf' }] as ModelSummary[];

/** The notice banner as the page shows it from the store (a server render reads no store, so it is given it). */
function shownNotice(): string {
  const { notice } = useStore.getState();
  return notice === null ? '' : renderToStaticMarkup(<NoticeBanner notice={notice} />);
}

beforeEach(() => {
  (globalThis as { window?: unknown }).window = {
    firebrand: fakeApi({ models: { contextWindow: () => Promise.resolve({ contextWindow: 4096, source: 'fallback', reason: null }) } }),
  };
  useStore.setState({
    models: MODELS, aliases: [HELPER], modelsError: null, modelsConnection: 'builtin', selectedModel: 'alias:a1',
    settings: { activeConnectionId: 'builtin' } as NonNullable<ReturnType<typeof useStore.getState>['settings']>,
    notice: null,
  });
});

describe('the notice that a chosen alias was deleted in another tab', () => {
  it('offers "Choose a model", not a Retry that does nothing', async () => {
    adoptAliases([]);
    await expect.poll(() => useStore.getState().notice?.message).toBe('Helper is no longer an alias (it was deleted); plain.gguf is chosen now.');
    const html = shownNotice();
    expect(html).toContain('data-testid="notice-choose-model"');
    expect(html).toContain('>Choose a model</button>');
    expect(html).not.toContain('banner-retry');
    // A step to take, not a failure: a warning said politely (it was an alert in the error's red).
    expect(html).toMatch(/^<div class="banner banner-warning" role="status" data-testid="notice" data-tone="warning">/);
    expect(html).not.toContain('role="alert"');
  });

  it('a later notice of a failed action keeps its Retry', async () => {
    adoptAliases([]);
    await expect.poll(() => useStore.getState().notice).not.toBeNull();
    fail(new Error('Could not reach Ollama at http://127.0.0.1:11434.'), () => undefined);
    const html = shownNotice();
    expect(html).toContain('banner-retry');
    expect(html).not.toContain('notice-choose-model');
  });
});

// Context audit #10: making another connection active said "llama3.2:3b is no longer on the server; … is chosen now".
describe('the model list of another connection', () => {
  const settingsOf = (activeConnectionId: string) => ({ activeConnectionId }) as NonNullable<ReturnType<typeof useStore.getState>['settings']>;

  it('chooses among its models without saying the one left behind is gone', async () => {
    useStore.setState({ models: [{ name: 'llama3.2:3b' }] as ModelSummary[], aliases: [], modelsConnection: 'ollama', selectedModel: 'llama3.2:3b', settings: settingsOf('box') });
    await showModels(Promise.resolve([[{ name: 'scripted-plain' }] as ModelSummary[], []]));
    expect(useStore.getState().selectedModel).toBe('scripted-plain');
    expect(useStore.getState().notice).toBeNull();
  });

  it('still says so when the same connection no longer lists the chosen model', async () => {
    useStore.setState({ models: [{ name: 'llama3.2:3b' }, { name: 'qwen3:8b' }] as ModelSummary[], aliases: [], modelsConnection: 'ollama', selectedModel: 'llama3.2:3b', settings: settingsOf('ollama') });
    await showModels(Promise.resolve([[{ name: 'qwen3:8b' }] as ModelSummary[], []]));
    expect(useStore.getState().notice?.message).toBe('llama3.2:3b is no longer on the server; qwen3:8b is chosen now.');
  });
});
