/**
 * Context audit: the meter scales the draft by the ratio main learned of the model's tokens (`estimateRatio` of the
 * window choice). Main now learns it from the meter's own measure, before the first send: the page must take it
 * from there, not keep the window choice it read before the measure (×1, and "fits" for a message then refused).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { refreshMeasure, useRoom } from '../../src/renderer/store/context-room';
import { useStore } from '../../src/renderer/store/index';
import { fakeApi } from './helpers/fake-api';

let ratio: number | undefined;
beforeEach(() => {
  ratio = undefined;
  (globalThis as { window?: unknown }).window = {
    firebrand: fakeApi({
      context: {
        measure: () => {
          // Counting the request teaches main the ratio (src/main/context/room-service.ts, learnRatio).
          ratio = 5.5;
          return Promise.resolve({ tokens: 1900, counted: 'server', window: 4096, ratio });
        },
      },
      models: { contextWindow: () => Promise.resolve({ contextWindow: 4096, source: 'server', reason: null, ...(ratio !== undefined ? { estimateRatio: ratio } : {}) }) },
    }),
  };
  useRoom.setState({ measure: null });
  useStore.setState({ activeId: null, selectedModel: 'scripted', settings: null, contextChoice: { contextWindow: 4096, source: 'server', reason: null } });
});

describe('a measure that taught main the ratio', () => {
  it('puts the ratio in the window choice the meter, the chips and the reasons scale by', async () => {
    refreshMeasure('k1');
    await expect.poll(() => useStore.getState().contextChoice?.estimateRatio).toBe(5.5);
    expect(useRoom.getState().measure?.value.ratio).toBe(5.5);
  });
});
