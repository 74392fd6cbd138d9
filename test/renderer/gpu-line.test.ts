/**
 * A model's Details with no GPU found said "GPU memory is unknown" twice, in a grey line (the probe's note) and a red
 * one (why no window is worked out), and each model's row said it again: it is said once, on the screen's GPU line.
 */
import { describe, expect, it } from 'vitest';
import { gpuLines, reasonOrPointer, unknownGpuLine } from '../../src/renderer/components/models/gpu-line';
import type { ContextAdvice } from '../../src/shared/models';

const REASON = 'GPU memory is unknown: set it in Settings → GPU memory to get a recommendation.';
const advice = (gpu: ContextAdvice['gpu'], reason: string | null = REASON): ContextAdvice => ({ model: 'qwen3:8b', gpu, weightsBytes: 5e9, recommendation: null, reason, stored: null });

describe("the GPU in a model's Details", () => {
  // Each model's row and its Details said it in full ("GPU memory is unknown: set it in Settings → GPU memory to get
  // a recommendation."), three times for three models: the screen's GPU line says it once, and they point there.
  it('says once, on the screen, that the GPU memory is unknown, with where to set it and what was asked; Details point there', () => {
    const gpu = { source: 'unknown', devices: [], usableBytes: null, notes: ['No GPU answered (nvidia-smi, rocm-smi, sysfs): GPU memory is unknown.'] } as const;
    expect(unknownGpuLine({ ...gpu, devices: [], notes: [...gpu.notes] })).toBe(
      'GPU memory is unknown, so each model gets the default window: set the memory in Settings → GPU memory to get the largest window that fits. No GPU answered (nvidia-smi, rocm-smi, sysfs).',
    );
    const { facts, problem } = gpuLines(advice({ ...gpu, devices: [], notes: [...gpu.notes] }));
    expect(facts).toBeNull();
    expect(problem).toBe('No window is worked out without the GPU memory: see GPU memory above.');
    expect(reasonOrPointer(REASON)).toBe('see GPU memory above');
    expect(reasonOrPointer('More than the 8,192 tokens that fit your GPU.')).toBe('More than the 8,192 tokens that fit your GPU.');
  });

  it('says nothing on the screen where the GPU memory is known', () => {
    expect(unknownGpuLine({ source: 'override', devices: [], usableBytes: 12 * 1024 ** 3, notes: [] })).toBeNull();
  });

  it('still says the memory, where it was read and the cards where a GPU was found', () => {
    const { facts } = gpuLines(advice({ source: 'nvidia-smi', devices: [{ index: 0, name: 'RTX 4090', vendor: 'nvidia', totalBytes: 24 * 1024 ** 3, usedBytes: null, freeBytes: null, usableBytes: 23 * 1024 ** 3, integrated: false }], usableBytes: 23 * 1024 ** 3, notes: [] }, 'x'));
    expect(facts).toBe('GPU memory: 23.0 GiB (nvidia-smi) · RTX 4090 24.0 GiB');
  });
});
