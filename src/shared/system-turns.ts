import {
  compactionMeta,
  compactionText,
  continuedMeta,
  continuedText,
  droppedMeta,
  droppedText,
  summaryFailedMeta,
  summaryFailedText,
} from './context-edits';
import type { JsonObject, JsonValue } from './json';

/**
 * System turns carry structure (DESIGN.md §5, seed 002): a `source` kind and a `meta` dict. The plain text of a
 * system turn (what export and search read) and its card in the UI are both derived from that one meta, here, so
 * they cannot drift: a producer writes `systemTurnText(source, meta)` as the turn's text, and the card reads the
 * same typed meta. Meta is read back from SQLite, so every reader checks its shape; a row whose meta does not fit
 * (written before a kind existed, or by an older build) has none and shows its stored text.
 */

/** Nothing was sent: the preflight estimate reached the window. */
export interface ContextRefusedMeta {
  estimate: number;
  window: number;
  model: string;
  /** The biggest parts of the request, so the user knows what to remove. */
  largest: LargestPart[];
  /**
   * Not an estimate: `server` is the server's own count (llama-server /tokenize, or its 400), `tokenizer` the
   * built-in engine's count with the model's own tokenizer and template.
   */
  counted?: 'server' | 'tokenizer';
  /** The server refused a request already sent: its window changed since Firebrand read it (issue 13). */
  serverRefused?: boolean;
}

/**
 * One of the request's largest parts. `turnId` and `drop` say which turn it is in and, for an attachment or a tool
 * result, how to leave it out of what is sent (issue 21); a message's own text cannot be left out alone.
 */
export type LargestPart = {
  label: string;
  tokens: number;
  turnId?: string;
  drop?: { kind: 'attachment'; id: string; name: string } | { kind: 'tool_result'; toolCallId: string; name: string };
};

/** The loop stopped on its own: the model kept calling tools. */
export interface StepLimitMeta {
  reason: 'step-limit';
  steps: number;
}

/**
 * `interrupted`: Firebrand closed while the card waited; the call did not run (written at the next start).
 * `withdrawn`: its tool server was removed or switched off (or the tool was) while the card waited; the call did not
 * run, and the card offers no Allow that could no longer do what it says.
 */
export type ApprovalState = 'pending' | 'allowed' | 'denied' | 'stopped' | 'interrupted' | 'withdrawn';

/** Why a waiting card was withdrawn (Settings → Tools). */
export type WithdrawnReason = 'server-removed' | 'server-off' | 'tool-off';

/** A tool call waiting for (or past) the user's decision. */
export interface ToolApprovalMeta {
  toolCallId: string;
  /** The assistant turn whose call waits: approvals are keyed by conversation, turn and call (issue 15). */
  turnId?: string;
  tool: string;
  /** The MCP server the tool belongs to (issue 19); absent for built-in tools. */
  server?: string;
  /** What the call will do, as the tool describes it (untrusted: model output). */
  call: string;
  state: ApprovalState;
  decision?: string;
  /** With `withdrawn`: what the user changed. */
  withdrawn?: WithdrawnReason;
}

const CONTEXT_ADVICE = 'Make room: a larger context window, a summary of the older turns, the oldest turns left out, a large item left out, or a new chat that starts from a summary.';

export function contextRefusedMeta(meta: JsonObject): ContextRefusedMeta | undefined {
  const { estimate, window, model, largest, counted, serverRefused } = meta;
  if (typeof estimate !== 'number' || typeof window !== 'number' || typeof model !== 'string' || !Array.isArray(largest)) return undefined;
  const parts = largest.flatMap((item: JsonValue): LargestPart[] => {
    if (!isObject(item) || typeof item['label'] !== 'string' || typeof item['tokens'] !== 'number') return [];
    const part: LargestPart = { label: item['label'], tokens: item['tokens'] };
    if (typeof item['turnId'] === 'string') part.turnId = item['turnId'];
    const drop = item['drop'];
    if (isObject(drop) && typeof drop['name'] === 'string') {
      if (drop['kind'] === 'attachment' && typeof drop['id'] === 'string') part.drop = { kind: 'attachment', id: drop['id'], name: drop['name'] };
      if (drop['kind'] === 'tool_result' && typeof drop['toolCallId'] === 'string') part.drop = { kind: 'tool_result', toolCallId: drop['toolCallId'], name: drop['name'] };
    }
    return [part];
  });
  return { estimate, window, model, largest: parts, ...(counted === 'server' || counted === 'tokenizer' ? { counted } : {}), ...(serverRefused === true ? { serverRefused } : {}) };
}

export function stepLimitMeta(meta: JsonObject): StepLimitMeta | undefined {
  return meta['reason'] === 'step-limit' && typeof meta['steps'] === 'number' ? { reason: 'step-limit', steps: meta['steps'] } : undefined;
}

export function toolApprovalMeta(meta: JsonObject): ToolApprovalMeta | undefined {
  const { toolCallId, turnId, tool, server, call, state, decision, withdrawn } = meta;
  if (typeof toolCallId !== 'string' || typeof tool !== 'string' || typeof state !== 'string' || !isApprovalState(state)) return undefined;
  return {
    toolCallId,
    ...(typeof turnId === 'string' ? { turnId } : {}),
    tool,
    ...(typeof server === 'string' ? { server } : {}),
    call: typeof call === 'string' ? call : '',
    state,
    ...(typeof decision === 'string' ? { decision } : {}),
    ...(withdrawn === 'server-removed' || withdrawn === 'server-off' || withdrawn === 'tool-off' ? { withdrawn } : {}),
  };
}

/** The sentence a context-refused turn says (also the answer's error): numbers first, then what to do. */
export function contextRefusedText(m: ContextRefusedMeta): string {
  const size = m.counted === 'server' ? `${m.estimate} tokens (counted by the server)` : m.counted === 'tokenizer' ? `${m.estimate} tokens (counted with the model's own tokenizer)` : `about ${m.estimate} tokens`;
  if (m.serverRefused) {
    return `Nothing was answered: this conversation needs ${size}, and ${m.model} now has a context window of ${m.window}. Make room (a summary of the older turns, the oldest turns left out, a new chat), or restart the server with a larger -c.`;
  }
  return `Nothing was sent: this conversation needs ${size}, and ${m.model} has a context window of ${m.window}. ${CONTEXT_ADVICE}`;
}

export function stepLimitText(m: StepLimitMeta): string {
  return `Stopped after ${m.steps} steps: the model kept calling tools. Ask again, or narrow the question.`;
}

/** The approval card's line in its current state: it follows the decision, so it never goes stale. */
export function toolApprovalText(m: ToolApprovalMeta): string {
  // An MCP tool names its server: the user sees which program will act (issue 19).
  const tool = m.server !== undefined ? `${m.tool} (from the tool server ${m.server})` : m.tool;
  switch (m.state) {
    case 'pending':
      return `${tool} wants to run: ${m.call}`;
    case 'allowed':
      return `${tool} was allowed to run${m.decision === 'allow-conversation' ? ' (for this chat)' : m.decision === 'allow-always' ? ' (always)' : ''}: ${m.call}`;
    case 'denied':
      return `${tool} was not allowed to run: ${m.call}`;
    case 'stopped':
      return `Stopped before ${tool} ran: ${m.call}`;
    case 'interrupted':
      // Not the pending wording: the card kept "wants to run" after a restart, with no buttons (tools audit #3).
      return `${tool} did not run: Firebrand closed while it waited for your approval: ${m.call}`;
    case 'withdrawn':
      return `${tool} did not run: ${withdrawnWhy(m.withdrawn)} in Settings → Tools while it waited for your approval: ${m.call}`;
  }
}

function withdrawnWhy(why: WithdrawnReason | undefined): string {
  switch (why) {
    case 'server-off':
      return 'its tool server was switched off';
    case 'tool-off':
      return 'it was switched off';
    default:
      return 'its tool server was removed';
  }
}

/** What the model reads for a call whose card was withdrawn: it did not run, and why, so it does not ask again. */
export function withdrawnResultText(tool: string, server: string | undefined, why: WithdrawnReason): string {
  const from = server !== undefined ? `the tool server ${server}` : 'its tool server';
  const what = why === 'tool-off' ? `the user switched ${tool} off` : why === 'server-off' ? `the user switched ${from} off` : `the user removed ${from}`;
  return `Not run: ${what} before deciding on this call. Do not retry it; answer without it.`;
}

/** A system turn's text, derived from its meta; undefined for a kind without a card or a meta that does not fit. */
export function systemTurnText(source: string, meta: JsonObject): string | undefined {
  switch (source) {
    case 'context-refused': {
      const m = contextRefusedMeta(meta);
      return m && contextRefusedText(m);
    }
    case 'error': {
      const m = stepLimitMeta(meta);
      if (m) return stepLimitText(m);
      const failed = summaryFailedMeta(meta);
      return failed && summaryFailedText(failed);
    }
    case 'compaction': {
      const m = compactionMeta(meta);
      return m && compactionText(m);
    }
    case 'context-dropped': {
      const m = droppedMeta(meta);
      return m && droppedText(m);
    }
    case 'continued': {
      const m = continuedMeta(meta);
      return m && continuedText(m);
    }
    case 'tool-approval': {
      const m = toolApprovalMeta(meta);
      return m && toolApprovalText(m);
    }
    default:
      return undefined;
  }
}

export const CONTEXT_REFUSED_ADVICE = CONTEXT_ADVICE;

function isApprovalState(s: string): s is ApprovalState {
  return s === 'pending' || s === 'allowed' || s === 'denied' || s === 'stopped' || s === 'interrupted' || s === 'withdrawn';
}

function isObject(v: JsonValue | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * What each kind of system card is called, where one name fits every card of the kind: the chat's cards and the
 * Markdown export's headings say the same (keyboard audit #6: the export's heading was the internal source,
 * "System: tool-approval").
 */
export const SYSTEM_CARD_TITLES = {
  'context-refused': 'Not sent: the conversation is longer than the context window',
  error: 'Error',
  compaction: 'Summary',
  'context-dropped': 'Left out of what is sent',
  continued: 'Continued in a new chat',
  'tool-approval': 'Tool approval',
  'model-does-not-fit': 'Not loaded: the model does not fit in memory',
} as const;

/** The name of a system card of this source; undefined for a kind with no card of its own. */
export function systemCardTitle(source: string | undefined): string | undefined {
  return source !== undefined && Object.hasOwn(SYSTEM_CARD_TITLES, source) ? SYSTEM_CARD_TITLES[source as keyof typeof SYSTEM_CARD_TITLES] : undefined;
}
