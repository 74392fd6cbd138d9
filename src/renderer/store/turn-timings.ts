/**
 * Wall-clock moments of answers streamed in this window: when each reasoning run started and ended, for the live
 * "Thinking… N s" and "Thought for N s". Time to first token is main's alone (saved with the answer, answer-stats.ts),
 * so an answer shows one figure live and after a reload.
 */
import type { StreamPart } from '../../shared/parts';

export interface TurnTiming {
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

export function noteTurnPart(turnId: string, part: StreamPart, now = Date.now()): void {
  const t = timingOf(turnId);
  const open = t.reasoning.at(-1);
  if (part.type === 'reasoning-start') {
    t.reasoning.push({ start: now });
  }
  if (open && open.end === undefined && (part.type === 'reasoning-end' || part.type === 'text-start' || part.type === 'finish' || part.type === 'tool-call-start')) {
    open.end = now;
  }
}

export function turnTiming(turnId: string): TurnTiming | undefined {
  return timings.get(turnId);
}
