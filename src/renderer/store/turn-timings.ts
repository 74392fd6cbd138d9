/**
 * Wall-clock moments of answers streamed in this window: when each reasoning run started, for the live
 * "Thinking… N s" while it grows. "Thought for N s" and time to first token are main's alone (sent as main learns
 * them, saved with the answer: ThinkingBlock.tsx, answer-stats.ts), so an answer shows one figure live and after a
 * reload.
 */
import type { StreamPart } from '../../shared/parts';

export interface TurnTiming {
  /** When each reasoning run started, in stream order. */
  reasoning: { start: number }[];
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
  if (part.type === 'reasoning-start') t.reasoning.push({ start: now });
}

export function turnTiming(turnId: string): TurnTiming | undefined {
  return timings.get(turnId);
}
