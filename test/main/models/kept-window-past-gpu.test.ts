/**
 * Settings fix 1: a window the user kept past what fits the GPU was sent with no word (reason null), the meter and the
 * Models row said only "kept by you"; it now says the model runs partly on the CPU. A send never waits for it.
 */
import { describe, expect, it } from 'vitest';
import { ContextWindowResolver } from '../../../src/main/models/context-window';
import type { ContextAdvice } from '../../../src/shared/models';

const advice = (tokens: number) => ({ recommendation: { fits: true, contextTokens: tokens, kvBytesPerToken: 1, lines: [], message: `${tokens} tokens fit on the GPU.` }, reason: null }) as unknown as ContextAdvice;

describe('a kept window past the GPU', () => {
  it('is sent as kept, and said to run partly on the CPU', async () => {
    const r = new ContextWindowResolver({ stored: () => ({ contextWindow: 40_960, source: 'user' }), recommend: () => Promise.resolve(advice(9_216)) });
    expect(await r.resolve('http://o', 'qwen3:8b', { wait: true })).toEqual({
      contextWindow: 40_960,
      source: 'user',
      reason: 'More than the 9,216 tokens that fit your GPU: the model runs partly on the CPU, slower.',
    });
    // A send, once the recommendation is known, says the same.
    expect((await r.resolve('http://o', 'qwen3:8b')).reason).toContain('runs partly on the CPU');
  });

  it('says nothing for a kept window that fits, and a send does not wait for the recommendation', async () => {
    const fits = new ContextWindowResolver({ stored: () => ({ contextWindow: 8_192, source: 'user' }), recommend: () => Promise.resolve(advice(9_216)) });
    expect((await fits.resolve('http://o', 'm', { wait: true })).reason).toBeNull();
    const never = new ContextWindowResolver({ stored: () => ({ contextWindow: 40_960, source: 'user' }), recommend: () => new Promise<ContextAdvice>(() => undefined) });
    expect(await never.resolve('http://o', 'm')).toEqual({ contextWindow: 40_960, source: 'user', reason: null });
  });
});
