import { describe, expect, it } from 'vitest';
import { anchorStep, STILL_FRAMES, type Anchor, type AnchorSample, type AnchorStep, type AnchorWatch } from '../../src/renderer/components/turn/prepend-anchor';

const anchor: Anchor = { turnId: 't20', offset: 0 };

/** Feeds frames to a fresh watcher and returns each frame's step. */
function run(frames: AnchorSample[]): AnchorStep[] {
  const watch: AnchorWatch = { last: '', stableFrames: 0 };
  return frames.map((f) => anchorStep(watch, anchor, f));
}
const still = (sample: AnchorSample, n: number) => Array.from({ length: n }, () => sample);

describe('anchorStep (older turns paged in above keep the reader\'s row in place)', () => {
  it('scrolls the row back by what the list left over, once the list has kept still', () => {
    // The list shifted by a guess and the rows came out 264 px shorter: the row sits 264 px above where it was.
    const steps = run(still({ offset: -264, scrollTop: 3200 }, STILL_FRAMES + 1));
    expect(steps.slice(0, STILL_FRAMES).every((s) => s.kind === 'wait')).toBe(true);
    expect(steps.at(-1)).toEqual({ kind: 'scroll', by: -264 });
  });

  it('never scrolls while the list is still moving (its own correction may be under way)', () => {
    const moving = Array.from({ length: 20 }, (_, i) => ({ offset: -264 + i * 10, scrollTop: 3200 - i * 10 }));
    expect(run(moving).every((s) => s.kind === 'wait')).toBe(true);
  });

  it('stops without a scroll when the row is back where the reader saw it (the list corrected itself)', () => {
    const steps = run([{ offset: -192, scrollTop: 3200 }, ...still({ offset: 0.6, scrollTop: 3008 }, STILL_FRAMES + 1)]);
    expect(steps.some((s) => s.kind === 'scroll')).toBe(false);
    expect(steps.at(-1)).toEqual({ kind: 'done' });
  });

  it('after its own scroll, waits for stillness again before judging, and stops once in place', () => {
    const watch: AnchorWatch = { last: '', stableFrames: 0 };
    const steps = [...still({ offset: -264, scrollTop: 3200 }, STILL_FRAMES + 1), ...still({ offset: 0, scrollTop: 2936 }, STILL_FRAMES + 1)].map((f) => anchorStep(watch, anchor, f));
    expect(steps.filter((s) => s.kind === 'scroll')).toEqual([{ kind: 'scroll', by: -264 }]);
    expect(steps.at(-2)).toEqual({ kind: 'wait' });
    expect(steps.at(-1)).toEqual({ kind: 'done' });
  });

  it('waits while the row is not mounted, and counts stillness afresh once it is', () => {
    const steps = run([...still({ offset: -264, scrollTop: 3200 }, STILL_FRAMES), { offset: null, scrollTop: 3200 }, ...still({ offset: -264, scrollTop: 3200 }, STILL_FRAMES)]);
    expect(steps.every((s) => s.kind === 'wait')).toBe(true);
  });
});
