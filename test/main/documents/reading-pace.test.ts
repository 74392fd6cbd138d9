import { describe, expect, it } from 'vitest';
import { ReadingPace } from '../../../src/main/documents/reading-pace';

// A long document is read in slices with pauses between them, so an answer streaming beside it keeps the CPU;
// the pauses never eat the reader's time budget.
describe('ReadingPace', () => {
  function paced(budgetMs: number) {
    let now = 0;
    const pauses: number[] = [];
    const pace = new ReadingPace(budgetMs, 16, () => now, async (ms) => {
      pauses.push(ms);
      now += ms;
    });
    return { pace, pauses, work: (ms: number) => (now += ms) };
  }

  it('pauses as long as each slice of work took, and not between short pieces of one slice', async () => {
    const { pace, pauses, work } = paced(10_000);
    work(5);
    await pace.between();
    work(5);
    await pace.between();
    expect(pauses).toEqual([]);
    work(10);
    await pace.between();
    expect(pauses).toEqual([20]);
    work(30);
    await pace.between();
    expect(pauses).toEqual([20, 30]);
  });

  it('stops pausing once the pauses reach their budget', async () => {
    const { pace, pauses, work } = paced(50);
    for (let i = 0; i < 5; i++) {
      work(20);
      await pace.between();
    }
    expect(pauses).toEqual([20, 20, 10]);
  });
});
