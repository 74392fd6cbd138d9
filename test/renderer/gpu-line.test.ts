/**
 * A model's Details with no GPU found said "GPU memory is unknown" twice, in a grey line (the probe's note) and a red
 * one (why no window is worked out): it is said once.
 */
import { describe, expect, it } from 'vitest';
import { gpuLines } from '../../src/renderer/components/models/gpu-line';
import type { ContextAdvice } from '../../src/shared/models';

const REASON = 'GPU memory is unknown: set it in Settings → GPU memory to get a recommendation.';
const advice = (gpu: ContextAdvice['gpu'], reason: string | null = REASON): ContextAdvice => ({ model: 'qwen3:8b', gpu, weightsBytes: 5e9, recommendation: null, reason, stored: null });

describe("the GPU in a model's Details", () => {
  it('says once that no GPU was found, with where to set its memory and what was asked', () => {
    const { facts, problem } = gpuLines(advice({ source: 'unknown', devices: [], usableBytes: null, notes: ['No GPU answered (nvidia-smi, rocm-smi, sysfs): GPU memory is unknown.'] }));
    const said = [facts, problem].filter(Boolean).join('\n');
    expect(said.match(/GPU memory is unknown/g)).toHaveLength(1);
    expect(problem).toBe('GPU memory is unknown: set it in Settings → GPU memory to get a recommendation. No GPU answered (nvidia-smi, rocm-smi, sysfs).');
    expect(facts).toBeNull();
  });

  it('still says the memory, where it was read and the cards where a GPU was found', () => {
    const { facts } = gpuLines(advice({ source: 'nvidia-smi', devices: [{ index: 0, name: 'RTX 4090', vendor: 'nvidia', totalBytes: 24 * 1024 ** 3, usedBytes: null, freeBytes: null, usableBytes: 23 * 1024 ** 3, integrated: false }], usableBytes: 23 * 1024 ** 3, notes: [] }, 'x'));
    expect(facts).toBe('GPU memory: 23.0 GiB (nvidia-smi) · RTX 4090 24.0 GiB');
  });
});
