import type { Turn } from '../../shared/turn';

/**
 * Batches a streaming turn's writes: at most one UPDATE per interval, never one per token, so a crash loses
 * at most the last interval of streamed text. `finish` writes the final state at once.
 *
 * A write that fails (issue 15: SQLITE_FULL when the disk fills mid-answer) must not throw out of a timer, which
 * would end the process: it is reported to `onError` once and later updates are not attempted (the stream is
 * being stopped). A final state that cannot be written is retried in the background until it lands, so the
 * answer's row stops saying "streaming" once space is freed.
 */
export class TurnWriter {
  private pending: Turn | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private failed = false;

  constructor(
    private readonly write: (turn: Turn) => void,
    private readonly intervalMs = 500,
    private readonly onError: (err: unknown) => void = () => {},
    private readonly retryMs = 2_000,
  ) {}

  update(turn: Turn): void {
    if (this.failed) return;
    this.pending = turn;
    this.timer ??= setTimeout(() => this.flush(), this.nextIntervalMs());
  }

  /** How long the last write took: a huge turn is written less often, so writing never takes most of the loop. */
  private lastWriteMs = 0;

  /** At least the interval, and at least ten times the last write (writes then take at most ~10 % of the time). */
  private nextIntervalMs(): number {
    return Math.max(this.intervalMs, Math.ceil(this.lastWriteMs * 10));
  }

  /** Writes the final state now; false when it could not be written (then see `saveEventually`). */
  finish(turn: Turn): boolean {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = undefined;
    return this.tryWrite(turn);
  }

  /**
   * Retries writing a final state in the background until it lands (space freed), backing off to a minute; then
   * runs `onSaved`.
   */
  saveEventually(turn: Turn, onSaved?: () => void): void {
    this.retry(turn, this.retryMs, onSaved);
  }

  private flush(): void {
    this.timer = undefined;
    const turn = this.pending;
    this.pending = undefined;
    if (turn && !this.failed) this.tryWrite(turn);
  }

  private tryWrite(turn: Turn): boolean {
    try {
      const started = performance.now();
      this.write(turn);
      this.lastWriteMs = performance.now() - started;
      return true;
    } catch (err) {
      if (!this.failed) {
        this.failed = true;
        this.onError(err);
      }
      return false;
    }
  }

  private retry(turn: Turn, delayMs: number, onSaved?: () => void): void {
    const timer = setTimeout(() => {
      try {
        this.write(turn);
      } catch {
        this.retry(turn, Math.min(delayMs * 2, 60_000), onSaved);
        return;
      }
      onSaved?.();
    }, delayMs);
    // A pending retry never keeps the process alive on its own.
    timer.unref?.();
  }
}

/** The user's words for a failed write to the database: what happened and that what arrived so far is kept. */
export function describeWriteFailure(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') {
    return 'Disk full: what arrived so far is kept up to the last write. Free some space, then ask again.';
  }
  const detail = typeof code === 'string' ? code : err instanceof Error ? err.message : String(err);
  return `The answer could not be saved (${detail}): what arrived so far is kept up to the last write.`;
}
