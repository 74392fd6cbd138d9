/**
 * Main's side of the built-in engine: starts the engine process on first use, matches answers to requests,
 * streams a generation's events, and survives the process dying. A crash (native fault, out of memory, killed)
 * ends every running generation with an `error` event that says so, fails pending requests, and leaves the host
 * ready: the next request starts a fresh process.
 */
import type { EngineEvent, EngineMessage, EngineRequest, EngineResultValue } from './protocol';

/** A running engine process as the host sees it; the fork and Electron utilityProcess carriers implement it. */
export interface EngineChannel {
  readonly pid: number | undefined;
  send(message: EngineRequest): void;
  onMessage(listener: (message: EngineMessage) => void): void;
  /** Called once when the process is gone; `why` says how it ended (exit code or signal). */
  onExit(listener: (why: string) => void): void;
  kill(): void;
}

export type EngineSpawner = () => EngineChannel;

type Request = EngineRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

interface Pending {
  resolve: (value: EngineResultValue) => void;
  reject: (err: Error) => void;
  events?: (event: EngineEvent) => void;
}

export class EngineCrashError extends Error {}

export class EngineHost {
  private channel: EngineChannel | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly spawn: EngineSpawner,
    private readonly log: (message: string) => void,
    /** Told when the process ends on its own (not through `close`), e.g. to mark models unloaded. */
    private readonly onCrash: (why: string) => void = () => undefined,
  ) {}

  get pid(): number | undefined {
    return this.channel?.pid;
  }

  get running(): boolean {
    return this.channel !== null;
  }

  /** One request, one answer. */
  request<T extends EngineResultValue>(req: Request): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const id = this.nextId++;
      this.pending.set(id, { resolve: resolve as (v: EngineResultValue) => void, reject });
      this.post({ ...req, id } as EngineRequest, id);
    });
  }

  /**
   * A generation: its events in order, ending after `done` or `error`, in batches: each step of the iteration
   * takes every event that arrived since the last, so a reader that falls behind (a busy machine, a fast model)
   * catches up in one step instead of paying its per-step work once per token. Aborting `signal` asks the engine
   * to stop; the events that follow (the partial text, then `done` with reason `abort`) still arrive.
   */
  generate(req: Omit<Extract<EngineRequest, { type: 'generate' }>, 'id'>, signal: AbortSignal): AsyncIterable<EngineEvent[]> {
    let queue: EngineEvent[] = [];
    let wake: (() => void) | null = null;
    let finished = false;
    const id = this.nextId++;
    const push = (event: EngineEvent) => {
      queue.push(event);
      wake?.();
    };
    const end = () => {
      finished = true;
      wake?.();
    };
    this.pending.set(id, {
      events: push,
      resolve: end,
      reject: (err) => {
        push({ type: 'error', message: err.message });
        end();
      },
    });
    const onAbort = () => this.channel?.send({ type: 'abort', id });
    signal.addEventListener('abort', onAbort, { once: true });
    this.post({ ...req, id }, id);
    if (signal.aborted) onAbort();
    return {
      [Symbol.asyncIterator]: async function* () {
        try {
          for (;;) {
            if (queue.length > 0) {
              const batch = queue;
              queue = [];
              yield batch;
              continue;
            }
            if (finished) return;
            await new Promise<void>((r) => (wake = r));
            wake = null;
          }
        } finally {
          signal.removeEventListener('abort', onAbort);
        }
      },
    };
  }

  /** Stops the process; pending requests fail. */
  close(): void {
    this.closed = true;
    const channel = this.channel;
    this.channel = null;
    this.failAll('The built-in engine was stopped.');
    channel?.kill();
  }

  private post(message: EngineRequest, id: number): void {
    try {
      this.ensure().send(message);
    } catch (err) {
      const p = this.pending.get(id);
      this.pending.delete(id);
      p?.reject(err instanceof Error ? err : new Error(String(err)));
    }
  }

  private ensure(): EngineChannel {
    if (this.closed) throw new Error('The built-in engine was stopped.');
    if (this.channel) return this.channel;
    const channel = this.spawn();
    this.channel = channel;
    channel.onMessage((m) => this.receive(m));
    channel.onExit((why) => {
      if (this.channel !== channel) return;
      this.channel = null;
      this.log(`builtin: the engine process ended (${why})`);
      const message = `The built-in engine stopped unexpectedly (${why}), perhaps out of memory or a fault in llama.cpp. What arrived is kept; the next message starts it again.`;
      this.failAll(message);
      this.onCrash(why);
    });
    return channel;
  }

  private receive(message: EngineMessage): void {
    const p = this.pending.get(message.id);
    if (!p) return;
    if (message.type === 'stream') {
      p.events?.(message.event);
      return;
    }
    this.pending.delete(message.id);
    if (message.ok) p.resolve(message.value);
    else if (p.events) {
      p.events({ type: 'error', message: message.error });
      p.resolve({ ok: true });
    } else p.reject(new Error(message.error));
  }

  private failAll(message: string): void {
    const all = [...this.pending.values()];
    this.pending.clear();
    for (const p of all) p.reject(new EngineCrashError(message));
  }
}
