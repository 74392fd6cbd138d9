/**
 * A built-in model's Details with the memory unknown (no GPU found, the engine not started yet) said it twice, neither
 * time plainly: "Memory: unknown — No GPU answered (nvidia-smi, rocm-smi, sysfs): GPU memory is unknown." and, in
 * red, "How much memory is free is unknown: set the GPU memory in Settings to get a recommendation." The Models
 * screen's GPU line, which says it once for Ollama's models, is not shown for the built-in engine: the Details say it
 * once, with where to set it, as that line does.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { LibraryMemory } from '../../src/renderer/components/library/LibraryContext';
import { GPU_UNKNOWN_REASON, type ContextAdvice } from '../../src/shared/models';

const unknown: ContextAdvice = {
  model: 'plain.gguf',
  gpu: { source: 'unknown', devices: [], usableBytes: null, notes: ['No GPU answered (nvidia-smi, rocm-smi, sysfs): GPU memory is unknown.'] },
  weightsBytes: 1_000_000,
  recommendation: null,
  reason: GPU_UNKNOWN_REASON,
  stored: null,
};

/** The words a user reads, without the markup. */
const words = (advice: ContextAdvice) => renderToStaticMarkup(<LibraryMemory advice={advice} />).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();

describe('a built-in model’s Details with the memory unknown', () => {
  it('say it once, with where to set it and what was asked, and no memory line', () => {
    const said = words(unknown);
    expect(said).toBe(
      'How much memory this model may use is unknown, so it gets the default window: set the GPU memory in Settings → GPU memory to get the largest window that fits. No GPU answered (nvidia-smi, rocm-smi, sysfs).',
    );
    expect(said.split('unknown').length - 1).toBe(1);
  });

  it('show the memory and the reason as before where the memory is known', () => {
    const known: ContextAdvice = { ...unknown, gpu: { source: 'system', devices: [], usableBytes: 8 * 1024 ** 3, notes: ['The engine runs on the CPU: the model and its cache live in system memory.'] }, reason: 'The file does not describe its architecture (layers, heads), so the cache size cannot be worked out.' };
    expect(words(known)).toBe(
      'Memory: system — The engine runs on the CPU: the model and its cache live in system memory. The file does not describe its architecture (layers, heads), so the cache size cannot be worked out.',
    );
  });
});
