/**
 * Notices, without a reload, when the server in use comes back, goes away, or gains or loses models (issue 17:
 * start Ollama after the app and nothing ever changed; a deleted model stayed in the picker). It looks at the
 * active connection's model list (one cheap GET) every few seconds while the server answers, and after a
 * failure tries again sooner and then less often (1, 2, 4, 5 s...), so a server that comes back is seen within
 * a few seconds without hammering one that is away. A change is told to the renderers as `models:changed`;
 * they read the list again through the usual channel.
 */
import type { ModelsChanged } from '../../shared/models';

export interface ServerLook {
  connectionId: string;
  /** What the server lists, in a form where any change (a model added, removed or replaced) changes it. */
  signature: string;
  /**
   * The list as a page is handed it (`listedSignature` of its names), where that says less than `signature` (Ollama's
   * digests, llama-server's n_ctx are not in the list): what `heard` lists are compared with. Absent: `signature`.
   */
  listed?: string;
}

export interface ServerWatchDeps {
  /** Looks at the active connection (server-look.ts); null when none is active; throws when unreachable. */
  look: () => Promise<ServerLook | null>;
  emit: (change: ModelsChanged) => void;
  /** Said once, the first time a look or an emit throws (the watch goes on). */
  log?: (message: string) => void;
  /** Between looks while the server answers (default 5 s). */
  upIntervalMs?: number;
  /** Between looks after failures, in turn; the last one repeats (default 1, 2, 4, 5 s). */
  backoffMs?: readonly number[];
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

type State = { kind: 'unknown' } | { kind: 'up'; look: ServerLook | null } | { kind: 'down'; connectionId: string | null; error: string; failures: number };

export class ServerWatch {
  private state: State = { kind: 'unknown' };
  private timer: unknown = null;
  private stopped = false;
  private running = false;
  /** Lists handed out since the last look, as `heard` was told them. */
  private told: ServerLook[] = [];
  /** A throw was logged already: a broken emit would otherwise log every 5 s. */
  private complained = false;

  constructor(private readonly deps: ServerWatchDeps) {}

  /**
   * A page was handed the list as `look` says it stood (the built-in engine's models folder, read for the picker or
   * the Models screen; a server's `models:list`, by its names: `ServerLook.listed`). A list read after this watch's
   * last look can hold a file that came and went between two looks: both looks then agree, nothing was said, and the
   * page kept the deleted file (a GGUF copied in, shown, picked and removed within the 5 s between looks stayed in
   * the picker for good). The next look says a change when it differs from any list handed out since the last one.
   */
  heard(look: ServerLook): void {
    if (this.told.some((t) => t.connectionId === look.connectionId && t.signature === look.signature)) return;
    this.told.push(look);
  }

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) (this.deps.clearTimer ?? clearTimeout)(this.timer as NodeJS.Timeout);
    this.timer = null;
  }

  /** Look now (the user pressed Retry, or changed the connection): the next backoff step is not waited for. */
  nudge(): void {
    if (!this.stopped && !this.running) this.schedule(0);
  }

  /**
   * Someone else found the server away (the renderer's own model list failed): from now on it is down, so the
   * look that finds it back says so, and the next look comes soon.
   */
  sawFailure(connectionId: string, error: string): void {
    if (this.state.kind === 'down') return;
    this.state = { kind: 'down', connectionId, error, failures: 1 };
    if (!this.stopped && !this.running) this.schedule(this.nextDelay());
  }

  /** One look; exposed for tests. */
  async tick(): Promise<void> {
    this.running = true;
    try {
      let look: ServerLook | null;
      try {
        look = await this.deps.look();
      } catch (err) {
        const error = err instanceof Error ? err.message : String(err);
        const failures = this.state.kind === 'down' ? this.state.failures + 1 : 1;
        const connectionId = this.state.kind === 'up' ? (this.state.look?.connectionId ?? null) : this.state.kind === 'down' ? this.state.connectionId : null;
        // Not told: the state stays up, so the next look that fails says it again.
        if (this.state.kind === 'up' && connectionId !== null && !this.say({ connectionId, reachable: false, error })) return;
        this.state = { kind: 'down', connectionId, error, failures };
        // The look that finds it back says so whatever the pages were handed meanwhile.
        this.told = [];
        return;
      }
      const before = this.state;
      const told = this.told;
      this.told = [];
      if (!look) {
        this.state = { kind: 'up', look };
        return;
      }
      const listed = look.listed ?? look.signature;
      const toldOther = told.some((t) => t.connectionId === look.connectionId && t.signature !== listed);
      const changed = before.kind === 'down' || toldOther || (before.kind === 'up' && (before.look?.signature !== look.signature || before.look.connectionId !== look.connectionId));
      // Not told: the state and the lists handed out stay as they were, so the next look says the change again.
      if (changed && !this.say({ connectionId: look.connectionId, reachable: true, error: null })) {
        this.told = [...told, ...this.told];
        return;
      }
      this.state = { kind: 'up', look };
    } finally {
      this.running = false;
    }
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer !== null) (this.deps.clearTimer ?? clearTimeout)(this.timer as NodeJS.Timeout);
    this.timer = (this.deps.setTimer ?? setTimeout)(() => {
      this.timer = null;
      // Whatever a look throws, the next one is scheduled: a throw here once stopped the watch for good.
      void this.tick()
        .catch((err: unknown) => this.complain('A look at the server failed', err))
        .then(() => this.schedule(this.nextDelay()));
    }, ms);
    (this.timer as { unref?: () => void } | null)?.unref?.();
  }

  /** Tells the pages; false when that threw (logged once), so the caller keeps what it would have said. */
  private say(change: ModelsChanged): boolean {
    try {
      this.deps.emit(change);
      return true;
    } catch (err) {
      this.complain('Telling the pages the model list changed failed', err);
      return false;
    }
  }

  private complain(what: string, err: unknown): void {
    if (this.complained) return;
    this.complained = true;
    this.deps.log?.(`${what} (the watch goes on; said once): ${err instanceof Error ? err.message : String(err)}`);
  }

  private nextDelay(): number {
    if (this.state.kind !== 'down') return this.deps.upIntervalMs ?? 5_000;
    const steps = this.deps.backoffMs ?? [1_000, 2_000, 4_000, 5_000];
    return steps[Math.min(this.state.failures - 1, steps.length - 1)] ?? 5_000;
  }
}
