/**
 * The Models screen's numbers say their unit (models eyes pass): a model's Details said "trained context 40,960" and
 * "sliding window 1024", and Running said "context 8,192", leaving the user to guess tokens or bytes beside the GiB
 * figures on the same line.
 */
import { describe, expect, it } from 'vitest';
import { architectureLine } from '../../src/renderer/components/models/ModelList';
import { builtinFacts, ollamaFacts } from '../../src/renderer/components/models/RunningModels';
import type { ModelArchitecture } from '../../src/shared/models';

const gemma: ModelArchitecture = {
  arch: 'gemma3',
  blockCount: 48,
  kvHeadsPerLayer: [],
  headCount: 16,
  keyLength: 256,
  valueLength: 256,
  headDimDerived: false,
  embeddingLength: 3840,
  contextLength: 131072,
  vocabSize: null,
  slidingWindow: 1024,
  slidingLayers: [],
};

describe('the numbers on the Models screen', () => {
  it("say a model's trained context and sliding window in tokens", () => {
    expect(architectureLine(gemma)).toBe('gemma3: 48 layers, trained context 131,072 tokens, sliding window 1,024 tokens');
  });

  it('say that a trained context is not known, not "—"', () => {
    expect(architectureLine({ ...gemma, contextLength: null, slidingWindow: null })).toBe('gemma3: 48 layers, trained context not said');
  });

  it("say a running model's context in tokens, Ollama's and the built-in engine's", () => {
    expect(ollamaFacts({ name: 'qwen3:8b', sizeBytes: 6 * 1024 ** 3, sizeVramBytes: 6 * 1024 ** 3, contextLength: 8192, expiresAt: null, spilledToCpu: false })).toBe(
      '6.0 GiB of 6.0 GiB on the GPU · context 8,192 tokens',
    );
    expect(builtinFacts({ file: 'plain.gguf', contextSize: 4096, requestedSize: 4096, memoryBytes: 3 * 1024 ** 2, unloadsAt: null, answering: false })).toBe(
      'built-in · 3.0 MiB held · context 4,096 tokens',
    );
  });
});
