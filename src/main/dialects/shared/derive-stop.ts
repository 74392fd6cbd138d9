import type { DerivedStop } from '../../../shared/turn';

/**
 * A block as the dialect saw it when the stream ended. `open` means the wire never closed it (no later tool
 * index, no `content_block_stop`, ...); tool calls that did close carry their verdict.
 */
export interface ObservedBlock {
  kind: 'text' | 'reasoning' | 'tool_call';
  state: 'open' | 'closed' | 'complete' | 'invalid' | 'truncated';
}

export interface DeriveStopInput {
  /** The last finish reason the wire stated, raw (`stop`, `tool_calls`, `end_turn`, `length`...); null if none. */
  wireReason: string | null;
  /** A terminal frame arrived (`done:true`, a `finish_reason`, `message_stop`). */
  sawTerminal: boolean;
  /** An error frame arrived. */
  errored: boolean;
  blocks: readonly ObservedBlock[];
}

/**
 * Wire reasons that say "the model finished what it was writing". The vendors' tool-call words (OpenAI
 * `tool_calls` and the older `function_call`, Anthropic `tool_use`) belong here too: they report that the output
 * ended in calls, which the observed blocks already tell. Passing them through would give the same evidence a
 * different stop per vendor (Ollama never says it at all) and hand the UI a raw vendor word (issue 16).
 */
const CLEAN_END = new Set(['stop', 'end_turn', 'stop_sequence', 'tool_calls', 'function_call', 'tool_use']);
const LENGTH = new Set(['length', 'max_tokens']);

/**
 * The stop derived from the wire reason and the observed blocks together, in the order of DESIGN.md §3, in
 * Firebrand's own vocabulary. Shared by all dialects so that the same evidence always yields the same stop; the
 * raw wire reason is kept beside it by the caller.
 */
export function deriveStop({ wireReason, sawTerminal, errored, blocks }: DeriveStopInput): DerivedStop {
  if (errored) return 'error';
  if (!sawTerminal) return 'cut';
  if (blocks.some((b) => b.kind === 'tool_call' && b.state === 'complete')) return 'tool_use';
  // A terminal frame that states no reason (Ollama `done:true` without `done_reason`) counts as `stop`.
  const reason = wireReason ?? 'stop';
  if (CLEAN_END.has(reason)) {
    // A block the wire never closed (or that failed as truncated) means the clean-looking end is not clean.
    // `stop_sequence` is treated like `stop`/`end_turn` here: an open block is never a clean end.
    const open = blocks.some((b) => b.state === 'open' || b.state === 'truncated');
    return open ? 'truncated' : 'end_turn';
  }
  if (LENGTH.has(reason)) return 'max_tokens';
  return reason;
}
