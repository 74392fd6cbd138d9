/**
 * Paces a long extraction by what runs beside it (bench/extraction: token-to-screen p99 at 1,000 tokens/s with a
 * 300-page PDF read at the same time).
 *
 * While an answer streams, the reader works in slices and pauses after each for three times as long as it took (a
 * quarter of a core at most). When the reader was a worker thread of main at the lowest OS priority, its garbage
 * collection ran on main's shared V8 helper threads at normal priority, and on a busy 2-core machine the two
 * together still took the cores from main and the renderer: p99 2.0-2.7x the same stream without the file. In a
 * process and session of its own at nice 19 (./extract-process.ts), still 1.27-1.8x without pauses against
 * 0.95-1.15x with pauses as long as each slice (3 interleaved pairs), and 1.07/1.09/0.88x with pauses three times
 * as long against 0.65/1.12/1.12x (3 interleaved pairs, each of 5 rounds): within the noise. A quarter of a core
 * was kept: a local model generating on the same cores competes with the reader too (not measured here).
 *
 * While nothing streams the reader does not pause: it is behind everything else on the machine already (nice
 * 19), and the file is ready sooner: a 300-page PDF in 1.8-2.4 s instead of 4.1-5.0 s with pauses as long as each
 * slice (3 interleaved runs of 3). In bench/extraction, pausing only while the answer streams read
 * 0.90/1.22/1.10/1.09x against 1.19/0.92/1.08/1.31x (4 interleaved pairs), the file read in 3.5-5.0 s against
 * 4.4-6.5 s.
 *
 * The pauses stop once they add up to `budgetMs`, so a file that needs most of the runner's time budget to read
 * is not stopped because of them.
 */
export const PAUSE_PER_WORK = 3;

export interface PaceOptions {
  /** An answer is streaming as the reading starts. */
  answering?: boolean;
  /** Work between two looks at the clock that never pauses (a few short pieces of one slice). */
  sliceMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export class ReadingPace {
  private answering: boolean;
  private since: number;
  private paused = 0;
  private readonly sliceMs: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(
    private readonly budgetMs: number,
    options: PaceOptions = {},
  ) {
    this.answering = options.answering ?? false;
    this.sliceMs = options.sliceMs ?? 16;
    this.now = options.now ?? (() => performance.now());
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.since = this.now();
  }

  /** An answer started (true) or stopped (false) streaming beside the reader. */
  setAnswering(answering: boolean): void {
    if (answering === this.answering) return;
    this.answering = answering;
    // A slice is counted from the change: the work done before an answer started owes it no pause.
    this.since = this.now();
  }

  /** Called between units of work (a PDF's pages): pauses once a slice of work has passed while an answer streams. */
  async between(): Promise<void> {
    if (!this.answering) return;
    const worked = this.now() - this.since;
    if (worked < this.sliceMs || this.paused >= this.budgetMs) return;
    const pause = Math.min(worked * PAUSE_PER_WORK, this.budgetMs - this.paused);
    this.paused += pause;
    await this.sleep(pause);
    this.since = this.now();
  }
}
