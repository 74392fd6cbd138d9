/**
 * Events bound for one serve-mode socket, sent once the current turn of the event loop is done (setImmediate),
 * with consecutive `chat:turn-parts` of one turn folded into one event. Nothing waits for a timer: events that
 * arrive alone leave alone, microseconds later. On a busy machine the engine reads several network chunks in
 * one turn; each became its own frame (a write to the socket) and its own task in the page (a parse and a
 * wake-up), which is what the page had least time for (bench/latency).
 */
import type { EventChannel, EventContract } from '../../shared/ipc';

type TurnParts = EventContract['chat:turn-parts'];

interface Pending {
  channel: EventChannel;
  payload: unknown;
  /** A `chat:turn-parts` payload this batch owns (the emitted one goes to every socket and is never changed). */
  parts?: TurnParts;
}

export type Schedule = (flush: () => void) => void;

export interface EventBatch {
  /** The sink to connect to the event hub. */
  event(channel: EventChannel, payload: unknown): void;
  /** Sends what is pending now: before an invoke's result, so events emitted before it still arrive first. */
  flush(): void;
}

/** `send` writes one event to the socket. */
export function batchEvents(send: (channel: EventChannel, payload: unknown) => void, schedule: Schedule = (f) => void setImmediate(f)): EventBatch {
  let pending: Pending[] = [];
  let scheduled = false;
  const flush = () => {
    const list = pending;
    pending = [];
    for (const e of list) send(e.channel, e.parts ?? e.payload);
  };
  const event = (channel: EventChannel, payload: unknown) => {
    const last = pending[pending.length - 1];
    if (channel === 'chat:turn-parts' && last?.channel === 'chat:turn-parts') {
      const next = payload as TurnParts;
      const prev = last.parts ?? (last.payload as TurnParts);
      if (prev.turnId === next.turnId && prev.conversationId === next.conversationId) {
        last.parts ??= { ...prev, parts: [...prev.parts] };
        for (const part of next.parts) last.parts.parts.push(part);
        return;
      }
    }
    pending.push({ channel, payload });
    if (!scheduled) {
      scheduled = true;
      schedule(() => {
        scheduled = false;
        flush();
      });
    }
  };
  return { event, flush };
}
