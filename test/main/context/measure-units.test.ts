/**
 * Real-engines audit D4: the out-of-room card put a part estimated from its characters ("about 18,295 tokens")
 * under a total the server counted (15,946 tokens needed): a part larger than the whole.
 */
import { describe, expect, it } from 'vitest';
import { inCountedUnits } from '../../../src/main/context/measure';

describe('the largest parts of a counted request', () => {
  it('are given in the units of the count, so none is larger than the whole and their sum is at most it', () => {
    const parts = [
      { label: 'assistant message 2', tokens: 18_295 },
      { label: 'user message 1', tokens: 1_200 },
    ];
    // Estimated 20,000 in all; the server counted 15,946.
    const shown = inCountedUnits(parts, 20_000, 15_946);
    expect(shown.map((p) => p.tokens)).toEqual([14_587, 957]);
    expect(shown.every((p) => p.tokens <= 15_946)).toBe(true);
    expect(shown[0]).toMatchObject({ label: 'assistant message 2' });
    // A count the estimate under-ran scales up the same way.
    expect(inCountedUnits([{ tokens: 6_000 }, { tokens: 1_000 }], 10_000, 12_000).map((p) => p.tokens)).toEqual([7_200, 1_200]);
  });

  it('are left as estimated where there is nothing to scale by', () => {
    const parts = [{ tokens: 10 }];
    expect(inCountedUnits(parts, 0, 100)).toEqual(parts);
    expect(inCountedUnits(parts, 100, 0)).toEqual(parts);
  });
});
