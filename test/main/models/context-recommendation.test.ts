import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { kvBytesPerToken, recommendContext } from '../../../src/main/models/context-recommendation';
import { parseShow } from '../../../src/main/models/ollama-show';
import type { ModelArchitecture } from '../../../src/shared/models';

const GIB = 1024 ** 3;
const arch = (name: string): ModelArchitecture => {
  const a = parseShow(name, JSON.parse(readFileSync(new URL(`../../fixtures/ollama-models/${name}.json`, import.meta.url), 'utf8'))).architecture;
  if (!a) throw new Error('no architecture');
  return a;
};

describe('the context recommendation', () => {
  it('worked example: llama3.1:8b Q4_K_M on a 12 GB card, flash attention, f16 → about 43,000 tokens', () => {
    const r = recommendContext({ arch: arch('show-llama3.1-8b'), weightsBytes: 4.9e9, usableVramBytes: 12 * GIB, flashAttention: true, kvCacheType: 'f16' });
    expect(r.kvBytesPerToken).toBe(2 * 32 * 8 * 128 * 2);
    expect(r.fits).toBe(true);
    expect(r.contextTokens).toBeGreaterThanOrEqual(42_000);
    expect(r.contextTokens).toBeLessThanOrEqual(44_000);
    expect(r.contextTokens % 1024).toBe(0);
    expect(r.contextTokens).toBe(43_008);
    // Same with the exact size Ollama lists for llama3.1:8b.
    expect(recommendContext({ arch: arch('show-llama3.1-8b'), weightsBytes: 4_920_753_328, usableVramBytes: 12 * GIB, flashAttention: true, kvCacheType: 'f16' }).contextTokens).toBe(43_008);
    expect(r.lines.map((l) => l.label)).toContain('= left for the context');
    expect(r.lines.at(-1)).toEqual({ label: 'recommended (rounded down to 1024)', value: 43_008, unit: 'tokens' });
  });

  it('subtracts what other loaded models hold on the GPU, and says so in the arithmetic (issue 17)', () => {
    const base = { arch: arch('show-llama3.1-8b'), weightsBytes: 4.9e9, flashAttention: true, kvCacheType: 'f16' as const };
    const alone = recommendContext({ ...base, usableVramBytes: 24 * GIB });
    const shared = recommendContext({ ...base, usableVramBytes: 24 * GIB, othersBytes: 12 * GIB, othersLabel: 'llama3.1:70b' });
    expect(shared.contextTokens).toBeLessThan(alone.contextTokens);
    // 12 GiB taken by another model leaves what a 12 GiB card alone would (the headroom stays 10% of the card).
    expect(shared.lines).toContainEqual({ label: '− other loaded models', value: 12 * GIB, unit: 'bytes', note: 'llama3.1:70b' });
    expect(alone.lines.map((l) => l.label)).not.toContain('− other loaded models');
  });

  it('worked example: qwen3:14b Q4_K_M (9.3 GB) does not fit on 8 GB', () => {
    const r = recommendContext({ arch: arch('show-qwen3-14b'), weightsBytes: 9.3e9, usableVramBytes: 8 * GIB, flashAttention: true, kvCacheType: 'f16' });
    expect(r.kvBytesPerToken).toBe(2 * 40 * 8 * 128 * 2);
    expect(r).toMatchObject({ fits: false, contextTokens: 0 });
    expect(r.message).toContain('Does not fit on the GPU');
  });

  it('a quantized cache fits more; without flash attention it counts as f16 and the scores cost context', () => {
    const a = arch('show-llama3.1-8b');
    const base = { arch: a, weightsBytes: 4.9e9, usableVramBytes: 12 * GIB };
    const q8 = recommendContext({ ...base, flashAttention: true, kvCacheType: 'q8_0' });
    const q4 = recommendContext({ ...base, flashAttention: true, kvCacheType: 'q4_0' });
    expect(q8.kvBytesPerToken).toBe(2 * 32 * 8 * 128 * 1.0625);
    expect(q4.kvBytesPerToken).toBe(2 * 32 * 8 * 128 * 0.5625);
    expect(q8.contextTokens).toBeGreaterThan(80_000);
    expect(q4.contextTokens).toBe(131_072); // clamped to the trained context
    const noFa = recommendContext({ ...base, flashAttention: false, kvCacheType: 'q8_0' });
    expect(noFa.message).toContain('needs flash attention');
    expect(noFa.contextTokens).toBeLessThan(43_008);
  });

  it('sliding-window layers cost only the window', () => {
    const a = arch('show-gemma3-12b');
    const kv = kvBytesPerToken(a, 'f16');
    expect(kv.global).toBe(8 * 8 * 512 * 2);
    expect(kv.sliding).toBe(40 * 8 * 512 * 2);
    const r = recommendContext({ arch: a, weightsBytes: 8.1e9, usableVramBytes: 16 * GIB, flashAttention: true, kvCacheType: 'f16' });
    const everyLayer = recommendContext({ arch: { ...a, slidingWindow: null }, weightsBytes: 8.1e9, usableVramBytes: 16 * GIB, flashAttention: true, kvCacheType: 'f16' });
    expect(r.contextTokens).toBeGreaterThan(everyLayer.contextTokens * 3);
    expect(r.contextTokens % 1024).toBe(0);
  });

  it('sums per-layer KV heads (hybrid models) and says when a tiny GPU leaves under 2048 tokens', () => {
    const a = arch('show-granite4-tiny-h');
    expect(kvBytesPerToken(a, 'f16').global).toBe(16 * 256 * 2);
    const tight = recommendContext({ arch: arch('show-llama3.1-8b'), weightsBytes: 4.9e9, usableVramBytes: 6.3 * GIB, flashAttention: true, kvCacheType: 'f16' });
    expect(tight.fits).toBe(false);
  });
});
