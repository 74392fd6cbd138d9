/**
 * A window past what fits the GPU is said to run partly on the CPU where it is chosen (settings fix 1): before,
 * 32,768 kept for llama3.1:8b on an 8 GiB card was taken silently and Ollama ran it half on the CPU.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { memoryForWindow, recommendContext } from '../../src/main/models/context-recommendation';
import { parseShow } from '../../src/main/models/ollama-show';
import { windowFitNote } from '../../src/renderer/components/models/window-fit';
import { windowMemoryBytes } from '../../src/shared/window-memory';

const GIB = 1024 ** 3;
const show = (name: string) => {
  const a = parseShow(name, JSON.parse(readFileSync(new URL(`../fixtures/ollama-models/${name}.json`, import.meta.url), 'utf8'))).architecture;
  if (!a) throw new Error('no architecture');
  return a;
};
const base = { arch: show('show-llama3.1-8b'), weightsBytes: 4.9e9, flashAttention: true, kvCacheType: 'f16' as const };

describe('a window chosen past what fits the GPU', () => {
  it('says what fits, what the window needs and that it will run partly on the CPU', () => {
    const rec = recommendContext({ ...base, usableVramBytes: 8 * GIB });
    expect(rec.contextTokens).toBeGreaterThan(2048);
    const note = windowFitNote(rec, 32_768);
    expect(note).toMatch(/^[\d,]+ tokens fit your GPU; 32,768 needs ~\d+\.\d GiB, more than the 8\.0 GiB free — it will run partly on the CPU, slower\.$/);
    expect(note).toContain(`${rec.contextTokens.toLocaleString('en-US')} tokens fit your GPU`);
  });

  it('says nothing for the recommended window or a smaller one, nor when the GPU memory is unknown', () => {
    const rec = recommendContext({ ...base, usableVramBytes: 12 * GIB });
    expect(windowFitNote(rec, rec.contextTokens)).toBeNull();
    expect(windowFitNote(rec, 4096)).toBeNull();
    expect(windowFitNote(null, 1_000_000)).toBeNull();
  });

  it('a window over the recommendation but inside the memory is said to leave no headroom', () => {
    const rec = recommendContext({ ...base, usableVramBytes: 12 * GIB });
    expect(windowFitNote(rec, rec.contextTokens + 2048)).toMatch(/of the 12\.0 GiB free, leaving less than the 10% headroom/);
  });

  it('counts what other loaded models hold as not free', () => {
    const rec = recommendContext({ ...base, usableVramBytes: 24 * GIB, othersBytes: 12 * GIB });
    expect(windowFitNote(rec, 131_072)).toContain('more than the 12.0 GiB free');
  });

  it('the memory it names is the larger-window offer’s arithmetic', () => {
    const rec = recommendContext({ ...base, usableVramBytes: 8 * GIB });
    if (!rec.memory) throw new Error('no memory shape');
    expect(windowMemoryBytes(rec.memory, 32_768)).toBe(memoryForWindow(base, 32_768));
  });
});
