/**
 * Paces a long extraction so that an answer streaming beside it stays smooth (bench/extraction: token-to-screen
 * p99 at 1,000 tokens/s with a 300-page PDF read at the same time). When the reader was a worker thread of main
 * at the lowest OS priority, its garbage collection ran on main's shared V8 helper threads at normal priority,
 * and on a busy 2-core machine the two together still took the cores from main and the renderer: p99 2.0-2.7x
 * the same stream without the file. Reading in slices with a pause as long
 * as each slice (half the CPU at most) gave 0.7-1.35x in three full runs of the same bench (noisy: the machine
 * was shared); the file takes up to twice as long.
 *
 * Still needed with the reader in a process and session of its own at nice 19 (./extract-process.ts): without the
 * pauses the same bench read 1.27-1.8x against 0.95-1.15x with them (3 interleaved pairs), though the file is read
 * in 2.1-3.4 s instead of 3.5-4.5 s.
 *
 * The pauses stop once they add up to `budgetMs`, so a file that needs most of the runner's time budget to read
 * is not stopped because of them.
 */
export class ReadingPace {
  private since = performance.now();
  private paused = 0;

  constructor(
    private readonly budgetMs: number,
    private readonly sliceMs = 16,
    private readonly now: () => number = () => performance.now(),
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {
    this.since = this.now();
  }

  /** Called between units of work (a PDF's pages): pauses once a slice of work has passed. */
  async between(): Promise<void> {
    const worked = this.now() - this.since;
    if (worked < this.sliceMs || this.paused >= this.budgetMs) return;
    const pause = Math.min(worked, this.budgetMs - this.paused);
    this.paused += pause;
    await this.sleep(pause);
    this.since = this.now();
  }
}
