/**
 * Wall-clock moments of answers streamed in this window: when the request left, when the first token came, and
 * when each reasoning run started and ended. They feed time-to-first-token and "Thought for N s"; the Turn
 * record has no timestamps per run, so answers loaded from disk fall back to the server's usage timings.
 */
import type { StreamPart } from '../../shared/parts';

export interface TurnTiming {
  sentAt?: number;
  firstTokenAt?: number;
  /** Start and end (undefined while running) of each reasoning run, in stream order. */
  reasoning: { start: number; end?: number }[];
}

const timings = new Map<string, TurnTiming>();

function timingOf(turnId: string): TurnTiming {
  let t = timings.get(turnId);
  if (!t) {
    t = { reasoning: [] };
    timings.set(turnId, t);
    if (timings.size > 500) timings.delete(timings.keys().next().value ?? '');
  }
  return t;
}

export function noteSent(turnId: string, at: number): void {
  const t = timingOf(turnId);
  t.sentAt ??= at;
}

export function noteTurnPart(turnId: string, part: StreamPart, now = Date.now()): void {
  const t = timingOf(turnId);
  const open = t.reasoning.at(-1);
  if (part.type === 'reasoning-start') {
    t.reasoning.push({ start: now });
  } else if (part.type === 'text-delta' || part.type === 'reasoning-delta' || part.type === 'tool-call-start') {
    t.firstTokenAt ??= now;
  }
  if (open && open.end === undefined && (part.type === 'reasoning-end' || part.type === 'text-start' || part.type === 'finish' || part.type === 'tool-call-start')) {
    open.end = now;
  }
}

export function turnTiming(turnId: string): TurnTiming | undefined {
  return timings.get(turnId);
}
