/**
 * Out of room (issue 21): the ways a conversation that outgrew its window goes on, each with its cost, worked out
 * by main with the same Assemble and counter as the preflight. Kept in its own file and merged into
 * `InvokeContract` in ./ipc.ts, so the shared contract only grows by a few lines.
 */
import type { ThinkMode } from './connections';
import type { CountedBy } from './context-edits';
import type { LargestPart, RefusalParts } from './system-turns';
import type { AttachmentBlock, Turn } from './turn';

/** Which conversation, and the model and connection the next message goes to (as the composer sends it). */
export interface RoomTarget {
  /** null: a new chat (only the request's fixed part: system prompt and tools). */
  conversationId: string | null;
  model: string;
  connectionId?: string;
  /** A new chat's settings (its popover), kept for its first message: measured as that message will be sent. */
  draftSettings?: DraftSettings;
}

/** A new chat's own settings before it exists (`chat:send` `conversationSettings`). */
export interface DraftSettings {
  systemPrompt: string;
  think: ThinkMode | null;
  tools?: boolean;
}

/**
 * A sent message as the edit form holds it (chat:edit-and-resend's words): the plan measures the branch as it will be
 * after the edit (the turns before the message, then the edited one; those after it are not sent), and a choice
 * sends the edit once it has made room, its card after the edited message.
 */
export interface EditSpec {
  /** The user turn edited: the edited message becomes its sibling. */
  turnId: string;
  text: string;
  /** The places of the original's attachments that go with it; absent, all of them. */
  keepAttachments?: number[];
  /** Files added in the edit (blocks returned by `attachments:add`), after those kept. */
  attachments?: AttachmentBlock[];
}

/** The size of the next request without the draft: the meter adds the draft to it. */
export interface ContextMeasure {
  tokens: number;
  counted: CountedBy;
  /** The window the request carries; null where the server decides. */
  window: number | null;
  /**
   * What makes up `tokens`, as a refusal card says it (tool definitions, system prompt, earlier turns): the meter
   * adds the draft's message and files. Absent where the request could not be assembled.
   */
  parts?: Pick<RefusalParts, 'tools' | 'system' | 'earlier'>;
  /**
   * What the server's counts have taught of this model's tokens per character estimate (the `estimateRatio` of
   * the window choice, learned now where this measure was counted); absent while nothing is learned.
   */
  ratio?: number;
  /**
   * With `draft` asked for, where the server or the model's tokenizer counted the request: what the draft's text
   * adds to it as the message it would be sent as. A ratio learned from other text can be far from this text's
   * (CJK, code): the meter uses this count for the text it was made of.
   */
  draft?: { text: string; tokens: number };
}

/**
 * The meter's question: the next request's size, and with `draft` that text's count as the message it would be.
 * With `before` (a sent message of the chat, the one the edit form edits) the request is the chat before that
 * message, and the draft is the edited text that replaces it.
 */
export type MeasureRequest = RoomTarget & { draft?: string; before?: string };

/** A larger window, where Firebrand chooses it (Ollama `num_ctx`, the built-in engine), or why not. */
export type LargerWindow =
  | {
      kind: 'offer';
      engine: 'ollama' | 'builtin';
      window: number;
      current: number;
      /** What the model was trained for (the most it takes). */
      trained: number | null;
      /** What the model needs in memory with that window (weights, cache, runtime); null when not known. */
      memoryBytes: number | null;
      /** Memory it may use; null when not known. */
      usableBytes: number | null;
      /** `slower`: more than fits the GPU (Ollama then runs part of it on the CPU); `unknown`: memory not known. */
      fits: 'yes' | 'slower' | 'unknown';
    }
  | {
      kind: 'none';
      reason: string;
      /**
       * Where the window can be changed outside Firebrand's reach, what to do, as a clause ("change the alias's window
       * in Models"): a phone's reason under the message box says it in place of the whole `reason`.
       */
      action?: string;
    };

/** A user message older turns can be cut before (summarized or left out): everything before it. */
export interface CutPoint {
  turnId: string;
  /** The message's first words. */
  preview: string;
  /** Messages before it that would be covered. */
  count: number;
}

/** The chosen cut, with exact numbers where the engine counts. */
export interface CutPlan {
  keepFrom: string;
  /** The turns covered (summarized or left out), oldest first. */
  turnIds: string[];
  /** What they take in the request now. */
  tokens: number;
  /** The request without them. */
  after: number;
  /** The longest a summary of them may be (what the summarizer is asked for at most). */
  summaryBudget: number;
  /** Whether the request fits (`fitsWindow`, the rule Send and the preflight use) once they are left out / summarized. */
  fitsDropped: boolean;
  fitsSummarized: boolean;
  /** The cut is before the last message that can be cut before: no later point exists. */
  latest: boolean;
}

export interface RoomPlan {
  /** The model the request goes to (an alias resolved), and its connection's kind. */
  model: string;
  engine: string;
  need: number;
  counted: CountedBy;
  window: number | null;
  /** Tokens kept free for the answer: a prompt that fills the window leaves none. */
  answerRoom: number;
  over: boolean;
  /** A user message that was refused and is answered once a choice made room; null when none waits. */
  pending: string | null;
  larger: LargerWindow;
  cuts: CutPoint[];
  cut: CutPlan | null;
  /** The largest parts of the request now; those with `drop` can be left out of what is sent. */
  largest: LargestPart[];
  /** Why no cut is offered (nothing older than the message itself), when `cut` is null. */
  noCut: string | null;
  /** A new chat can start from a summary of this one: something is older than the waiting message. */
  newChat: boolean;
}

/** The summarizer: the conversation's model unless the user picks another. */
export interface SummarizerChoice {
  model: string;
  connectionId?: string;
}

export type RoomChoice =
  | { kind: 'larger-window'; window: number }
  | { kind: 'summarize'; keepFrom: string; summarizer?: SummarizerChoice }
  | { kind: 'drop-oldest'; keepFrom: string }
  | { kind: 'drop-item'; turnId: string; item: { kind: 'attachment'; id: string } | { kind: 'tool_result'; toolCallId: string } }
  | { kind: 'new-chat'; summarizer?: SummarizerChoice }
  /** Room was made another way (the chat's tools turned off): the waiting message is answered now. */
  | { kind: 'answer-waiting' };

export interface RoomApplied {
  /** The conversation the user should look at now (a new one for `new-chat`; null: still a new chat). */
  conversationId: string | null;
  /** The card the choice wrote (a summary, what was left out, an error saying why nothing was replaced). */
  card: Turn | null;
  /** The answer to the waiting message, when one was started. */
  answer: Turn | null;
  /** false: nothing changed (a summary that failed); the card says why. */
  ok: boolean;
  /** The edited message the choice sent (a choice made from the edit form), the new sibling of the one edited. */
  userTurn?: Turn;
}

/** Auto-compact: per connection or alias, summarize on its own when the request reaches this share of the window. */
export interface AutoCompactSetting {
  kind: 'connection' | 'alias';
  id: string;
  /** 0.5–0.98; absent from the list: off. */
  threshold: number;
}

export const AUTO_COMPACT_THRESHOLDS = [0.75, 0.85, 0.95] as const;

export interface ContextInvokeContract {
  /** The next request's size as the preflight counts it, without the draft (the meter adds it). */
  'context:measure': { req: MeasureRequest; res: ContextMeasure };
  /** Every way to make room, with its numbers; `keepFrom` moves the cut, `extraTokens` is the draft's size. */
  'context:plan': { req: RoomTarget & { conversationId: string | null; keepFrom?: string; extraTokens?: number; edit?: EditSpec }; res: RoomPlan };
  /**
   * Does what the user chose; a waiting message is answered after it. Only a larger window needs no chat yet. With
   * `edit`, the edited message is sent (and answered) once the choice made room; nothing is sent when it failed.
   */
  'context:apply': { req: RoomTarget & { think?: boolean; choice: RoomChoice; edit?: EditSpec }; res: RoomApplied };
  /** Stops a summary being written for the conversation. */
  'context:cancel': { req: { conversationId: string }; res: { cancelled: boolean } };
  'context:auto-compact': { req: Record<string, never>; res: AutoCompactSetting[] };
  /** threshold null: off. */
  'context:set-auto-compact': { req: { kind: 'connection' | 'alias'; id: string; threshold: number | null }; res: AutoCompactSetting[] };
}

export interface ContextEventContract {
  /** The auto-compact settings as saved, after any window or tab changed one (Models and Settings show them). */
  'context:auto-compact-changed': { settings: AutoCompactSetting[] };
}

export const CONTEXT_EVENT_CHANNELS = ['context:auto-compact-changed'] as const satisfies readonly (keyof ContextEventContract)[];

export const CONTEXT_INVOKE_CHANNELS = [
  'context:measure',
  'context:plan',
  'context:apply',
  'context:cancel',
  'context:auto-compact',
  'context:set-auto-compact',
] as const satisfies readonly (keyof ContextInvokeContract)[];
