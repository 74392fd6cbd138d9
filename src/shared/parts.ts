import type { DerivedStop, ReasoningOrigin, Usage } from './turn';
import type { JsonValue } from './json';
import type { TurnTimingMeta } from './turn-timing';

/**
 * The canonical stream: whatever a server sends, a dialect turns it into these parts (DESIGN.md §3).
 * Runs come as start/delta/end triplets keyed by `id` (unique within one response), in stream order.
 */
export type StreamPart =
  | { type: 'text-start'; id: string }
  | { type: 'text-delta'; id: string; delta: string }
  | { type: 'text-end'; id: string }
  | { type: 'reasoning-start'; id: string; origin: ReasoningOrigin }
  | { type: 'reasoning-delta'; id: string; delta: string }
  /** `signature` / `redacted`: what the provider wants back with this reasoning in a later request (Anthropic). */
  | { type: 'reasoning-end'; id: string; signature?: string; redacted?: string }
  | { type: 'tool-call-start'; id: string; toolCallId: string; name: string }
  | { type: 'tool-call-delta'; id: string; delta: string }
  | ToolCallEndPart
  | { type: 'usage'; usage: Usage }
  | { type: 'error'; message: string; code?: string }
  | FinishPart
  | TimingPart;

export type ToolCallEndPart =
  | { type: 'tool-call-end'; id: string; state: 'complete'; arguments: JsonValue }
  | { type: 'tool-call-end'; id: string; state: 'invalid' | 'truncated'; error: string };

/** The last part of every response: the wire's reason (raw) and the stop derived from it and the blocks seen. */
export interface FinishPart {
  type: 'finish';
  wireReason: string | null;
  stop: DerivedStop;
  usage?: Usage;
}

/**
 * Main's own, never a dialect's: the answer's timing as main measured it so far (the first token's time once it
 * came, each reasoning run's duration once it ended), sent with the parts that made a figure known. The reducer keeps
 * it in `turn.meta.timing`, where main saves the same figures, so "Thought for N s" and "first token" show as soon as
 * they are known, and the same number after the answer ends and after a reload.
 */
export interface TimingPart {
  type: 'timing';
  timing: TurnTimingMeta;
}

export type StreamPartType = StreamPart['type'];
