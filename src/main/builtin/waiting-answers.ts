/**
 * The answers waiting on the built-in engine before their first token, each with its own state (tabs #4). Before,
 * the page knew only which model files were loading: two answers on one model (two tabs, or a regenerate) shared
 * one "Loading model" line, which went from both when the first one's load ended, while the second still waited.
 * The engine runs one answer at a time: once the model is loaded for one answer, the others on it wait for that
 * answer to end, which is not loading, and they say so.
 */
import type { WaitingAnswer } from '../../shared/library';

export class WaitingAnswers {
  private readonly byTurn = new Map<string, WaitingAnswer & { contextSize: number }>();

  /** `announce`: every page is told the whole list after each change (a page that missed one reads `list`). */
  constructor(private readonly announce: (waiting: WaitingAnswer[]) => void) {}

  /** The answer `turnId` waits for the engine to load `file` with this window. */
  loading(turnId: string, file: string, contextSize: number): void {
    this.byTurn.set(turnId, { turnId, file, state: 'loading', contextSize });
    this.announce(this.list());
  }

  /**
   * The engine started `turnId`'s answer: its model is loaded. The others loading the same file with the same
   * window now wait for this answer to end instead (another window makes a new context: still a load).
   */
  started(turnId: string): void {
    const own = this.byTurn.get(turnId);
    if (!own) return;
    this.byTurn.delete(turnId);
    for (const [id, w] of this.byTurn) {
      if (w.file === own.file && w.contextSize === own.contextSize && w.state === 'loading') this.byTurn.set(id, { ...w, state: 'queued' });
    }
    this.announce(this.list());
  }

  /** `turnId`'s answer ended (stopped, failed, or done) before or after it started. */
  ended(turnId: string): void {
    if (this.byTurn.delete(turnId)) this.announce(this.list());
  }

  list(): WaitingAnswer[] {
    return [...this.byTurn.values()].map(({ turnId, file, state }) => ({ turnId, file, state }));
  }
}
