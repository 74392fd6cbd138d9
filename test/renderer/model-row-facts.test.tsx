/**
 * A llama-server model's row on the Models screen showed a lone "—": its size was unknown and formatBytes(null)'s
 * dash got through the filter meant for what the server left out. A fact not known is left out now (and the row
 * writes no facts at all where none is known); one known (llama-server's meta.size and n_params) is shown as
 * Ollama's are.
 */
import { describe, expect, it } from 'vitest';
import { facts } from '../../src/renderer/components/models/ModelList';
import type { ModelSummary } from '../../src/shared/ipc';

const bare: ModelSummary = { name: 'other.gguf', sizeBytes: null, family: null, parameterSize: null, quantization: null };

describe("a model row's size, family, parameters and quantization", () => {
  it('are nothing, not a lone "—", where the server said none of them', () => {
    expect(facts(bare)).toBe('');
    expect(facts({ ...bare, family: 'llama' })).toBe('llama');
  });

  it("are the size and parameters llama-server's /v1/models gives", () => {
    expect(facts({ ...bare, sizeBytes: 2_696_960, parameterSize: '674K' })).toBe('2.6 MiB · 674K');
  });

  it("are an Ollama model's four, as before", () => {
    expect(facts({ name: 'qwen3:8b', sizeBytes: 5.2 * 1024 ** 3, family: 'qwen3', parameterSize: '8.2B', quantization: 'Q4_K_M' })).toBe('5.2 GiB · qwen3 · 8.2B · Q4_K_M');
  });
});
