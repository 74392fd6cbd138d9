import type { Turn } from '../../shared/turn';

/**
 * Batches a streaming turn's writes: at most one UPDATE per interval, never one per token, so a crash loses
 * at most the last interval of streamed text. `finish` writes the final state at once.
 */
export class TurnWriter {
  private pending: Turn | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly write: (turn: Turn) => void,
    private readonly intervalMs = 500,
  ) {}

  update(turn: Turn): void {
    this.pending = turn;
    this.timer ??= setTimeout(() => this.flush(), this.intervalMs);
  }

  finish(turn: Turn): void {
    this.pending = turn;
    this.flush();
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending) this.write(this.pending);
    this.pending = undefined;
  }
}
