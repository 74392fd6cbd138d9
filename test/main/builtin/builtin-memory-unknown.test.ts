/**
 * A built-in model's window with the memory unknown (no GPU found, the engine not started yet) fell back with a reason
 * of its own, "How much memory is free is unknown: set the GPU memory in Settings to get a recommendation.": the
 * message box says main's GPU_UNKNOWN_REASON in three words with "Set it", and the Details in one sentence; it is that
 * reason now, as for an Ollama model.
 */
import { describe, expect, it } from 'vitest';
import { builtinAdvice } from '../../../src/main/builtin/builtin-memory';
import { GPU_UNKNOWN_REASON } from '../../../src/shared/models';

describe('a built-in model with the memory unknown', () => {
  it('has no recommendation, for the reason an Ollama model has', async () => {
    const advice = await builtinAdvice({
      file: 'plain.gguf', weightsBytes: 1_000_000, arch: null, backend: null, override: null, heldByOthers: 0, heldBySelf: 0, stored: null,
      probe: () => Promise.resolve({ source: 'unknown', devices: [], usableBytes: null, notes: ['No GPU answered (nvidia-smi, rocm-smi, sysfs): GPU memory is unknown.'] }),
    });
    expect(advice.recommendation).toBeNull();
    expect(advice.reason).toBe(GPU_UNKNOWN_REASON);
  });
});
