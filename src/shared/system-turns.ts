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
  /** What takes the room, part by part (context audit #1); absent on cards written before it was recorded. */
  parts?: RefusalParts;
  /** The ways of making room that apply to this refusal, in the order they are offered (context audit #4). */
  ways?: RoomWay[];
}

/**
 * The request's size by what the user can act on, each calibrated as the estimate is: the tool definitions (when
 * the chat offers tools), the system prompt (an earlier summary included), the message being sent, its files, and
 * the earlier turns. Absent parts are not in the request.
 */
export type RefusalParts = {
  tools?: number;
  system?: number;
  message?: number;
  files?: number;
  earlier?: number;
};

/** A way of making room: tools off for this chat, the message's files removed, older turns cut, a larger window. */
export type RoomWay = 'tools-off' | 'remove-files' | 'later-point' | 'larger-window';
const ROOM_WAYS: readonly RoomWay[] = ['tools-off', 'remove-files', 'later-point', 'larger-window'];
const PART_KEYS = ['tools', 'system', 'message', 'files', 'earlier'] as const;

/** The tools' definitions are "a large part" when they take a quarter of the request, or leaving them out makes it fit. */
export function toolsTakeMuch(parts: RefusalParts, estimate: number, window: number): boolean {
  const tools = parts.tools ?? 0;
  return tools > 0 && (tools * 4 >= estimate || estimate - tools < window);
}

/**
 * Which ways of making room apply to a refusal (recorded with it): tools off where their definitions take much of
 * the request, the files removed where the message has some, a later starting point where earlier turns exist, a
 * larger window where one can be had (Firebrand chooses it, or llama-server's -c).
 */
export function roomWays(parts: RefusalParts, estimate: number, window: number, largerWindow: boolean): RoomWay[] {
  const ways: RoomWay[] = [];
  if (toolsTakeMuch(parts, estimate, window)) ways.push('tools-off');
  if ((parts.files ?? 0) > 0) ways.push('remove-files');
  if ((parts.earlier ?? 0) > 0) ways.push('later-point');
  if (largerWindow) ways.push('larger-window');
  return ways;
}

/** "the tool definitions 2100, the system prompt 40, your message 12 and its files 3000": what takes the room. */
export function refusalPartsText(parts: RefusalParts): string {
  const words: string[] = [];
  if (parts.tools !== undefined) words.push(`the tool definitions ${parts.tools}`);
  if (parts.system !== undefined) words.push(`the system prompt ${parts.system}`);
  if (parts.message !== undefined) words.push(`your message ${parts.message}${parts.files ? ` and its files ${parts.files}` : ''}`);
  else if (parts.files) words.push(`the files ${parts.files}`);
  if (parts.earlier) words.push(`the earlier turns ${parts.earlier}`);
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)!}`;
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
  const shares = refusalParts(meta['parts']);
  const ways = Array.isArray(meta['ways']) ? meta['ways'].filter((w): w is RoomWay => typeof w === 'string' && (ROOM_WAYS as readonly string[]).includes(w)) : undefined;
  return {
    estimate,
    window,
    model,
    largest: parts,
    ...(counted === 'server' || counted === 'tokenizer' ? { counted } : {}),
    ...(serverRefused === true ? { serverRefused } : {}),
    ...(shares ? { parts: shares } : {}),
    ...(ways ? { ways } : {}),
  };
}

function refusalParts(value: JsonValue | undefined): RefusalParts | undefined {
  if (!isObject(value)) return undefined;
  const out: RefusalParts = {};
  for (const key of PART_KEYS) {
    const n = value[key];
    if (typeof n === 'number' && Number.isFinite(n) && n >= 0) out[key] = n;
  }
  return out;
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
  // What takes the room, so the user knows what to act on (context audit #1): tools, system prompt, message, files.
  const parts = m.parts ? refusalPartsText(m.parts) : '';
  return `Nothing was sent: this conversation needs ${size}, and ${m.model} has a context window of ${m.window}.${parts ? ` Of the ${m.estimate}: ${parts}.` : ''} ${CONTEXT_ADVICE}`;
}

export function stepLimitText(m: StepLimitMeta): string {
  return `Stopped after ${m.steps} steps: the model kept calling tools. Ask again, or narrow the question.`;
}

/** The approval card's line in its current state: it follows the decision, so it never goes stale. */
export function toolApprovalText(m: ToolApprovalMeta): string {
  return `${toolApprovalLead(m)}: ${m.call}`;
}

/** The card's line up to the call it names (the card shows the call's arguments under it, one per row). */
export function toolApprovalLead(m: ToolApprovalMeta): string {
  // An MCP tool names its server: the user sees which program will act (issue 19).
  const tool = m.server !== undefined ? `${m.tool} (from the tool server ${m.server})` : m.tool;
  switch (m.state) {
    case 'pending':
      return `${tool} wants to run`;
    case 'allowed':
      return `${tool} was allowed to run${m.decision === 'allow-conversation' ? ' (for this chat)' : m.decision === 'allow-always' ? ' (always)' : ''}`;
    case 'denied':
      return `${tool} was not allowed to run`;
    case 'stopped':
      return `Stopped before ${tool} ran`;
    case 'interrupted':
      // Not the pending wording: the card kept "wants to run" after a restart, with no buttons (tools audit #3).
      return `${tool} did not run: Firebrand closed while it waited for your approval`;
    case 'withdrawn':
      return `${tool} did not run: ${withdrawnWhy(m.withdrawn)} in Settings → Tools while it waited for your approval`;
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

/**
 * The answer a preflight refusal on the window ended (context audit #4): nothing was sent, so it is no failed answer
 * (no row, no Retry, no "answer failed" in an export); its `context-refused` card below says why and what to do.
 */
export function isRefusedAnswer(turn: { role: string; status: string; meta: JsonObject }): boolean {
  return turn.role === 'assistant' && turn.status === 'error' && turn.meta['refused'] === true;
}

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
