import type { EngineEvent } from './protocol';

/** Text not made yet: the tokens generated since the last take, turned into text when it goes out (./token-text.ts). */
export interface PendingText {
  take(): string;
}

/** Where a generation's events go (EngineRuntime.generate). */
export interface EngineOutput {
  push(event: EngineEvent): void;
  /** `source` holds new text (a token was generated): it is taken when the text goes out. */
  pending(source: PendingText): void;
}

/**
 * How often at most the engine process sends a generation's text: two display frames, 30 messages a second.
 * Every message wakes main (a pipe read, its per-batch pipeline, a socket or window write) and the page (a parse,
 * a render), and on a machine with few cores those wake-ups take CPU from the generation's own threads.
 * bench/builtin (a 2,510-token answer, the engine on one thread of the 2-core machine), 3 full runs of each,
 * interleaved: one frame (16 ms) read 0.93/0.95/0.97x the tokens/s of node-llama-cpp alone, two frames
 * 1.02/1.13/0.96x; main's CPU per token 100-116 µs against 56-92, the engine's (against the library's, paired)
 * 1.01-1.07x against 0.92-1.05x. With both in one run (9 rounds, each side paired within its round), two frames
 * read 1.14x one frame. A model slower than 30 tokens a second still has every token sent as it comes; a faster
 * one is shown in steps of two frames (at 100 tokens/s, three or four tokens a step).
 */
export const TEXT_INTERVAL_MS = 33;

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
 * `intervalMs` after the last message (TEXT_INTERVAL_MS says why two frames). Any other event sends the held text
 * first, so the order never changes and `done` / `error` never overtake text. Joined text events read the same as
 * the pieces: the `builtin` dialect concatenates text. Text from a `PendingText` source is made only when it goes
 * out, once per message instead of once per token.
 */
export class EventCoalescer implements EngineOutput {
  private held = '';
  private source: PendingText | null = null;
  private timer: NodeJS.Timeout | null = null;
  private sentAt = -Infinity;

  constructor(
    private readonly send: (event: EngineEvent) => void,
    private readonly intervalMs = TEXT_INTERVAL_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  push(event: EngineEvent): void {
    if (event.type !== 'text') {
      this.flush();
      this.send(event);
      return;
    }
    this.takeSource();
    this.held += event.text;
    this.schedule();
  }

  pending(source: PendingText): void {
    // Text of another source comes after this one's.
    if (this.source !== source) this.takeSource();
    this.source = source;
    this.schedule();
  }

  /** Sends the held text now (the generation ended, or its interval passed). */
  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.takeSource();
    if (this.held === '') return;
    const text = this.held;
    this.held = '';
    this.sentAt = this.now();
    this.send({ type: 'text', text });
  }

  private takeSource(): void {
    if (!this.source) return;
    this.held += this.source.take();
    this.source = null;
  }

  private schedule(): void {
    if (this.timer) return;
    const wait = this.sentAt + this.intervalMs - this.now();
    if (wait <= 0) this.flush();
    else this.timer = setTimeout(() => this.flush(), wait);
  }
}
