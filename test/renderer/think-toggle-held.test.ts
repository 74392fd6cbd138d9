/**
 * Settings fix 4: the Think toggle stayed only while the model list came; with the server down it went, the composer's
 * row jumped and the choice looked lost. It is held in place, disabled, for the model it was offered for.
 */
import { describe, expect, it } from 'vitest';
import type { ModelSummary } from '../../src/shared/ipc';
import { chosenModelThinks, thinkToggleHeld, thinkToggleOffered } from '../../src/renderer/store/model-choice';

const qwen = { name: 'qwen3:8b', sizeBytes: 1, family: null, parameterSize: '8B', quantization: null, capabilities: ['completion', 'thinking'] } as ModelSummary;
const llama = { ...qwen, name: 'llama3.2:3b', capabilities: ['completion'] } as ModelSummary;
const base = {
  models: [] as ModelSummary[],
  aliases: [],
  selectedModel: 'qwen3:8b',
  conversationSettings: { systemPrompt: null, think: null },
  modelsUnreachable: true,
  modelsConnection: 'ollama' as string | undefined,
  reachedModels: { connectionId: 'ollama' as string | undefined, models: [qwen, llama] },
};

describe('the Think toggle while the server cannot be reached', () => {
  it('is held for a thinking model the server last listed', () => {
    expect(thinkToggleOffered(base as never)).toBe(false);
    expect(thinkToggleHeld(base as never)).toBe(true);
  });

  it('is not held for a model that cannot think, another connection, a reachable server, or a chat that sets think', () => {
    expect(thinkToggleHeld({ ...base, selectedModel: 'llama3.2:3b' } as never)).toBe(false);
    expect(thinkToggleHeld({ ...base, modelsConnection: 'lm' } as never)).toBe(false);
    expect(thinkToggleHeld({ ...base, modelsUnreachable: false, models: [qwen] } as never)).toBe(false);
    expect(thinkToggleHeld({ ...base, conversationSettings: { systemPrompt: null, think: 'high' } } as never)).toBe(false);
  });
});

// The "think … (by …)" label beside the toggle, set by the chat or an alias, went with the model list while the
// toggle was held: it is held the same way.
describe('the think label set by the chat or an alias while the server cannot be reached', () => {
  const alias = { id: 'a1', name: 'deep', model: 'qwen3:8b', thinkMode: 'high' };
  it('is held for a thinking model, or an alias of one, the server last listed', () => {
    expect(chosenModelThinks(base as never)).toBe(true);
    expect(chosenModelThinks({ ...base, aliases: [alias], selectedModel: 'alias:a1' } as never)).toBe(true);
  });

  it('is not shown for a model that cannot think, nor from another connection’s list', () => {
    expect(chosenModelThinks({ ...base, selectedModel: 'llama3.2:3b' } as never)).toBe(false);
    expect(chosenModelThinks({ ...base, modelsConnection: 'lm' } as never)).toBe(false);
    expect(chosenModelThinks({ ...base, modelsUnreachable: false, models: [llama] } as never)).toBe(false);
    expect(chosenModelThinks({ ...base, modelsUnreachable: false, models: [qwen] } as never)).toBe(true);
  });
});
