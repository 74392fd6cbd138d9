/**
 * Ollama's running models (`/api/ps`) as every page's Running panel shows them (round 7, engine #2). Before, a
 * model loaded (an answer) or unloaded (Unload) from one tab showed in another tab's Running panel only after its
 * Refresh. Main now asks Ollama once after each such thing, from whichever tab, and tells every page when the
 * list changed (`models:running-changed`). No polling: besides those, one look is set for the earliest time Ollama
 * said a model unloads on its own (its keep_alive), so the panel follows that too.
 */
import type { RunningModel } from '../../shared/models';

export interface RunningWatchDeps {
  /** Ollama's running models now (throws where Ollama cannot be asked). */
  read: () => Promise<RunningModel[]>;
  /** Every page is told the list (only when it changed since the last told). */
  announce: (running: RunningModel[]) => void;
  now?: () => number;
}

/** An expiry further away than this is a model kept loaded for good (keep_alive -1): no look is set for it. */
const FAR_EXPIRY_MS = 24 * 60 * 60_000;
/** Ollama drops a model a little after its expiry: the look waits this much past it. */
const EXPIRY_GRACE_MS = 2_000;

export class RunningWatch {
  private told: string | null = null;
  private looking: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly deps: RunningWatchDeps) {}

  /** Asks Ollama what it holds and tells the pages if that changed. Looks asked meanwhile make one more look after. */
  look(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.looking) {
      this.again = true;
      return this.looking;
    }
    this.looking = this.lookNow().finally(() => {
      this.looking = null;
      if (this.again) {
        this.again = false;
        void this.look();
      }
    });
    return this.looking;
  }

  private async lookNow(): Promise<void> {
    let running: RunningModel[];
    try {
      running = await this.deps.read();
    } catch {
      // Ollama is not there (another connection is in use, or it is down): nothing to tell, and nothing worth a log
      // line after every answer on another server.
      return;
    }
    if (this.closed) return;
    this.saw(running);
  }

  /**
   * A list read elsewhere (a page's own Refresh, `models:running`): every page is told it where it changed since
   * the last told. Before (round 8, engine #3), only this watch's own looks told, so a change a Refresh saw reached
   * the other tabs only at the next look, and that look then took it for old news if it had been told already.
   */
  saw(running: RunningModel[]): void {
    if (this.closed) return;
    const json = JSON.stringify(running);
    if (json !== this.told) {
      this.told = json;
      this.deps.announce(running);
    }
    this.lookAtExpiry(running);
  }

  private lookAtExpiry(running: RunningModel[]): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const now = (this.deps.now ?? Date.now)();
    const next = running
      .map((m) => (m.expiresAt ? Date.parse(m.expiresAt) : NaN))
      .filter((t) => Number.isFinite(t) && t > now && t - now < FAR_EXPIRY_MS)
      .sort((a, b) => a - b)[0];
    if (next === undefined) return;
    this.timer = setTimeout(() => void this.look(), next - now + EXPIRY_GRACE_MS);
    this.timer.unref();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
