import type { PageRange } from './attachment-text';
import type { JsonObject, JsonValue } from './json';

/** The canonical record of one message in a conversation: in memory, in SQLite and across IPC (DESIGN.md §5). */
export interface Turn {
  id: string;
  conversationId: string;
  /** Conversations are trees: edit-and-resend and regenerate make siblings under the same parent. */
  parentId: string | null;
  role: Role;
  blocks: Block[];
  /** For system turns: the kind of card (`context-refused`, `error`, ...). Absent on rows from before kinds existed. */
  source?: string;
  /** Structured data for `source`; both the model-facing text and the UI card derive from it. Never sent to the wire. */
  meta: JsonObject;
  status: TurnStatus;
  /** The derived stop (DESIGN.md §3); absent while streaming. */
  stop?: DerivedStop;
  /** The last finish reason the wire stated, raw; kept beside the derived stop. */
  wireReason?: string | null;
  usage?: Usage;
  model?: string;
  /** A message written for the user when the turn failed (server error, cut, missing model...). */
  error?: string;
  createdAt: number;
}

export type Role = 'user' | 'assistant' | 'system' | 'tool';

export const TURN_STATUSES = ['streaming', 'done', 'error', 'aborted', 'cut', 'interrupted'] as const;
export type TurnStatus = (typeof TURN_STATUSES)[number];

/**
 * The stop derived from wire reason and observed blocks together. Known values are listed; anything else the
 * wire says (`refusal`, `pause_turn`, ...) passes through as a plain string.
 */
export type DerivedStop =
  | 'end_turn'
  | 'tool_use'
  | 'max_tokens'
  /** The built-in engine's window filled (it knows this from a token limit; llama-server's wire says `length` for both). */
  | 'context_full'
  | 'truncated'
  | 'cut'
  | 'error'
  | 'aborted'
  | (string & {});

export type Block = TextBlock | ReasoningBlock | ToolCallBlock | ToolResultBlock | AttachmentBlock;

/** One run of answer text. */
export interface TextBlock {
  type: 'text';
  text: string;
}

/** One run of reasoning: parsed by the server (`native`) or extracted from think tags in content (`inline`). */
export interface ReasoningBlock {
  type: 'reasoning';
  text: string;
  origin: ReasoningOrigin;
  /**
   * Anthropic's signature of this thinking, or the encrypted data of a redacted_thinking block (its `text` is
   * empty). With thinking on, a tool-use step's next request must send them back unchanged, or it is refused.
   */
  signature?: string;
  redacted?: string;
}
export type ReasoningOrigin = 'native' | 'inline';

/** A tool call is a small state machine: streaming -> complete | invalid | truncated. */
export type ToolCallState = 'streaming' | 'complete' | 'invalid' | 'truncated';

export interface ToolCallBlock {
  type: 'tool_call';
  /** The id the wire gave (or one we made when the wire gave none, as Ollama does). */
  id: string;
  name: string;
  state: ToolCallState;
  /** The arguments exactly as received (fragments concatenated). */
  argumentsRaw: string;
  /** The parsed, schema-valid arguments; set only when `state` is `complete`. */
  arguments?: JsonValue;
  /** Why the call is invalid or truncated, written so the model can act on it. */
  error?: string;
}

export interface ToolResultBlock {
  type: 'tool_result';
  toolCallId: string;
  name: string;
  content: string;
  isError: boolean;
  /** The tool never ran (denied, stopped, the step limit, Firebrand closed): `content` says why. */
  notRun?: boolean;
  /** The user stopped the answer while the tool ran, or Firebrand closed meanwhile: no result came, and `content` says so. */
  stopped?: boolean;
  /** Shown on the call's card, never sent to the model: how the result was got or fitted (a redirect, a cut). */
  note?: string;
}

/** Attachments ride by reference: the bytes live once in the blob store under their sha256. */
export interface AttachmentBlock {
  type: 'attachment';
  id: string;
  kind: 'image' | 'document' | 'text';
  name: string;
  mime: string;
  size: number;
  /** The pages of a PDF the user chose to send when the whole did not fit; absent: all of it. */
  pages?: PageRange;
  /** In a tool turn: the call whose result returned this image (an MCP tool's image, issue 19). */
  toolCallId?: string;
}

/** Token counts and timings, normalized across dialects. */
export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
  /**
   * Prompt tokens the server took from its cache (an earlier request began the same way) instead of reading them
   * again: the built-in engine and llama-server say so. Absent where none were, or the server does not say.
   */
  cachedTokens?: number;
  /** Milliseconds spent reading the prompt. */
  promptMs?: number;
  /** Milliseconds spent generating. */
  generationMs?: number;
  /**
   * The tokens generated within `generationMs`, where that is not all of `outputTokens`: llama-server's clock starts
   * after the first token, which came with the prompt's reading, and its own speed is `predicted_n - 1` over
   * `predicted_ms` (test/fixtures/openai/llama-server-speed.md). Absent where the time covers every output token.
   */
  generatedTokens?: number;
  /** Wall time of the whole request as the server measured it. */
  totalMs?: number;
}

/** Why a call the stream never finished writing was not run; sent back to the model as its error result. */
export function cutOffCallError(name: string): string {
  return `The call to ${name || 'a tool'} was cut off before its arguments were complete; nothing was run.`;
}

/** The plain text of a turn's answer runs (no reasoning), joined in order. */
export function turnText(turn: Pick<Turn, 'blocks'>): string {
  let out = '';
  for (const block of turn.blocks) if (block.type === 'text') out += block.text;
  return out;
}

/** What an answer's Continue sends: the model goes on from the text it already wrote, which is in the history. */
export const CONTINUE_TEXT = 'Continue exactly where your last answer stopped, without repeating what you already wrote.';

/** A user turn that only asks the model to go on (Continue), not a message of the user's own. */
export function isContinueRequest(turn: Pick<Turn, 'role' | 'blocks'>): boolean {
  return turn.role === 'user' && turn.blocks.length === 1 && turnText(turn) === CONTINUE_TEXT;
}

/** Blank means "no answer": think-only or whitespace-only output (DESIGN.md §4). */
export function isBlank(text: string): boolean {
  return text.trim().length === 0;
}
