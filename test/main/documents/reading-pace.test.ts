import { describe, expect, it } from 'vitest';
import { PAUSE_PER_WORK, ReadingPace } from '../../../src/main/documents/reading-pace';

// A long document is read in slices with pauses between them while an answer streams, so the answer keeps the
// CPU; with nothing streaming it is read at full speed. The pauses never eat the reader's time budget.
describe('ReadingPace', () => {
  function paced(budgetMs: number, answering: boolean) {
    let now = 0;
    const pauses: number[] = [];
    const pace = new ReadingPace(budgetMs, {
      answering,
      sliceMs: 16,
      now: () => now,
      sleep: async (ms) => {
        pauses.push(ms);
        now += ms;
      },
    });
    return { pace, pauses, work: (ms: number) => (now += ms) };
  }

  it('never pauses while no answer streams', async () => {
    const { pace, pauses, work } = paced(10_000, false);
    for (let i = 0; i < 10; i++) {
      work(40);
      await pace.between();
    }
    expect(pauses).toEqual([]);
  });

  it('while an answer streams, pauses three times as long as each slice took, and not between short pieces of one slice', async () => {
    expect(PAUSE_PER_WORK).toBe(3);
    const { pace, pauses, work } = paced(10_000, true);
    work(5);
    await pace.between();
    work(5);
    await pace.between();
    expect(pauses).toEqual([]);
    work(10);
    await pace.between();
    expect(pauses).toEqual([60]);
    work(30);
    await pace.between();
    expect(pauses).toEqual([60, 90]);
  });

  it('counts a slice from when an answer starts, and stops pausing when it ends', async () => {
    const { pace, pauses, work } = paced(10_000, false);
    work(100);
    pace.setAnswering(true);
    work(20);
    await pace.between();
    // The 100 ms read before the answer started owe it nothing.
    expect(pauses).toEqual([60]);
    work(20);
    pace.setAnswering(false);
    work(20);
    await pace.between();
    expect(pauses).toEqual([60]);
    // Told again that nothing changed: the slice is not restarted.
    pace.setAnswering(true);
    work(10);
    pace.setAnswering(true);
    work(10);
    await pace.between();
    expect(pauses).toEqual([60, 60]);
  });

  it('stops pausing once the pauses reach their budget', async () => {
    const { pace, pauses, work } = paced(150, true);
    for (let i = 0; i < 5; i++) {
      work(20);
      await pace.between();
    }
    expect(pauses).toEqual([60, 60, 30]);
  });
});
