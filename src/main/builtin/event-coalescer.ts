import type { EngineEvent } from './protocol';

/**
 * The engine process's outgoing stream events, text coalesced in time. One message per token cost every process
 * on the way, on the two cores the generation itself needs: the engine's JavaScript thread a pipe write each
 * (about 50 µs on the busy 2-core machine, --cpu-prof), a thread that also starts every next decode; main a pipe
 * read, its per-batch pipeline and a socket write to the renderer (about 0.1 ms each); the renderer a message.
 * Measured in serve mode (bench/builtin's 2,510-token answer), main + a renderer-like client spent about 370 µs
 * CPU per token with one message per token, about 90 with 10 ms batches, about 60 with 16 ms.
 *
 * A throttle with a leading edge: a piece of text goes out at once when nothing was sent for `intervalMs` (the
 * first token, a slow model: no added delay); otherwise it waits, joined with the pieces that follow, until
 * `intervalMs` after the last message. The default is one display frame: the renderer shows at most one update
 * per frame anyway. Any other event sends the held text first, so the order never changes and `done` / `error`
 * never overtake text. Joined text events read the same as the pieces: the `builtin` dialect concatenates text.
 */
export class EventCoalescer {
  private held = '';
  private timer: NodeJS.Timeout | null = null;
  private sentAt = -Infinity;

  constructor(
    private readonly send: (event: EngineEvent) => void,
    private readonly intervalMs = 16,
    private readonly now: () => number = () => performance.now(),
  ) {}

  push(event: EngineEvent): void {
    if (event.type !== 'text') {
      this.flush();
      this.send(event);
      return;
    }
    this.held += event.text;
    if (this.timer) return;
    const wait = this.sentAt + this.intervalMs - this.now();
    if (wait <= 0) this.flush();
    else this.timer = setTimeout(() => this.flush(), wait);
  }

  /** Sends the held text now (the generation ended, or its interval passed). */
  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.held === '') return;
    const text = this.held;
    this.held = '';
    this.sentAt = this.now();
    this.send({ type: 'text', text });
  }
}
