/**
 * Events bound for one page (a serve-mode socket, or the Electron window), with consecutive `chat:turn-parts` of
 * one turn folded into one event. Every message costs the page a task of its own (a parse and a wake-up), and
 * costs the processes that carry it, on the cores the page needs to draw: at 1,000 tokens/s the page received
 * about 660 messages a second, one or two tokens each (bench/latency's stream; the network chunks main reads),
 * and 121 with this.
 *
 * - Any event but a turn's parts goes out once the current turn of the event loop is done (setImmediate), with
 *   everything held before it, in order.
 * - A turn's parts are throttled by a bucket of `burst` sends that refills one every `partsIntervalMs`: parts go
 *   out at once (next loop turn) while the bucket holds a send, so a token of a slow stream (100 tokens/s: one
 *   every 10 ms) is never held, nor is the one that follows a late one closely (a server's timer fires 5 ms late
 *   and the next token comes 5 ms after it: with one send per interval that token waited 3 ms). In 4 interleaved
 *   pairs of bench/latency the p99 at 100 tokens/s read 24.3-28.5 ms with the bucket, 25.2-35.2 ms with one send
 *   per interval (lower in all 4; 1,000 tokens/s alike). Otherwise parts wait, joined with the parts that
 *   follow, until the bucket refills. A steady fast stream gets one message per interval: the page draws at most
 *   once a frame (16.7 ms) anyway, and half a frame caps the messages at 125 a second.
 *
 * - The parts that end a turn's stream (its `finish` part) go out at the next loop turn too, with the parts held
 *   before them: the answer's last words are not held for the bucket, nor behind the saving of the turn that
 *   follows (run-step.ts lets them go before it writes). At the end of each answer at 1,000 tokens/s its last
 *   tokens were painted about a frame after the others (bench/latency, the last 5-10 of each answer).
 *
 * `flush` sends what is held now: before an invoke's result, so events emitted before it still arrive first.
 */
import type { EventChannel, EventContract } from '../../shared/ipc';

type TurnParts = EventContract['chat:turn-parts'];

interface Pending {
  channel: EventChannel;
  payload: unknown;
  /** A `chat:turn-parts` payload this batch owns (the emitted one goes to every socket and is never changed). */
  parts?: TurnParts;
}

export interface BatchClock {
  /** Runs `f` once the current turn of the event loop is done. */
  soon(f: () => void): void;
  /** Runs `f` in `ms` milliseconds; returns a cancel. */
  later(f: () => void, ms: number): () => void;
  now(): number;
}

const realClock: BatchClock = {
  soon: (f) => void setImmediate(f),
  later: (f, ms) => {
    const timer = setTimeout(f, ms);
    return () => clearTimeout(timer);
  },
  now: () => performance.now(),
};

/** Half a display frame: see the module comment. */
export const PARTS_INTERVAL_MS = 8;
/** Sends of parts the bucket holds when full: see the module comment. */
export const PARTS_BURST = 2;

export interface EventBatch {
  /** The sink to connect to the event hub. */
  event(channel: EventChannel, payload: unknown): void;
  /** Sends what is pending now. */
  flush(): void;
}

/** `send` writes one event to the page. */
export function batchEvents(
  send: (channel: EventChannel, payload: unknown) => void,
  clock: BatchClock = realClock,
  partsIntervalMs = PARTS_INTERVAL_MS,
  burst = PARTS_BURST,
): EventBatch {
  let pending: Pending[] = [];
  let soon = false;
  let cancelLater: (() => void) | null = null;
  /** Sends of parts the bucket holds, as of `creditsAt`. */
  let credits = burst;
  let creditsAt = clock.now();
  const refill = () => {
    const now = clock.now();
    credits = Math.min(burst, credits + (now - creditsAt) / partsIntervalMs);
    creditsAt = now;
  };

  const flush = () => {
    cancelLater?.();
    cancelLater = null;
    const list = pending;
    pending = [];
    for (const e of list) {
      if (e.channel === 'chat:turn-parts') {
        // A send forced early (by another event, or an invoke's result) empties the bucket but never overdraws
        // it: the next parts wait at most one interval.
        refill();
        credits = Math.max(0, credits - 1);
      }
      send(e.channel, e.parts ?? e.payload);
    }
  };
  const flushSoon = () => {
    if (soon) return;
    soon = true;
    clock.soon(() => {
      soon = false;
      flush();
    });
  };
  /** `last`: parts that end their turn's stream go out at once, as any other event (see the module comment). */
  const arm = (channel: EventChannel, last = false) => {
    if (soon) return;
    let wait = 0;
    if (channel === 'chat:turn-parts' && !last) {
      refill();
      wait = credits >= 1 ? 0 : (1 - credits) * partsIntervalMs;
    }
    if (wait <= 0) {
      cancelLater?.();
      cancelLater = null;
      flushSoon();
    } else cancelLater ??= clock.later(flush, wait);
  };
  const event = (channel: EventChannel, payload: unknown) => {
    const last = pending[pending.length - 1];
    const ends = channel === 'chat:turn-parts' && (payload as TurnParts).parts.some((p) => p.type === 'finish');
    if (channel === 'chat:turn-parts' && last?.channel === 'chat:turn-parts') {
      const next = payload as TurnParts;
      const prev = last.parts ?? (last.payload as TurnParts);
      if (prev.turnId === next.turnId && prev.conversationId === next.conversationId) {
        last.parts ??= { ...prev, parts: [...prev.parts] };
        for (const part of next.parts) last.parts.parts.push(part);
        if (ends) arm(channel, true);
        return;
      }
    }
    pending.push({ channel, payload });
    arm(channel, ends);
  };
  return { event, flush };
}
