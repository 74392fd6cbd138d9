/**
 * What the chat service (./chat-service.ts) is given: the store, the engine's collaborators and the hooks the
 * rest of main hangs on an answer (aliases, a conversation's own settings, auto-compact, the disk's state).
 */
import type { ThinkMode } from '../../shared/connections';
import type { IdentityLayer } from '../../shared/identity-layer';
import type { SendRequest } from '../../shared/ipc';
import type { AttachmentBlock, Turn } from '../../shared/turn';
import type { AliasLayer } from '../aliases/alias-route';
import type { ConversationStore } from '../db/conversation-store';
import type { EngineDeps } from '../engine/step-loop';
import type { EngineConnection } from '../engine/types';
import type { EmitEvent } from '../events';

export interface ChatServiceDeps {
  store: ConversationStore;
  emit: EmitEvent;
  newId: () => string;
  now: () => number;
  log: (message: string) => void;
  /** The engine's collaborators (step store, tools, approvals, capabilities, calibration, blob reader...). */
  engine: Omit<EngineDeps, 'store' | 'emit' | 'newId' | 'now' | 'log'>;
  /** The connection a request goes to: the one named, else the default. */
  connection: (connectionId?: string) => EngineConnection;
  /** The alias layer for a model name, where the model is an alias (src/main/aliases); it may name the model and
   * connection the request really goes to. */
  alias?: (model: string) => AliasLayer | undefined;
  /**
   * The alias a model reference (`alias:<id>`) names: its answers are labelled with its name and keep its id in
   * `meta.aliasId`, so a chat reopened after a rename follows it (models audit #6).
   */
  aliasNamed?: (model: string) => { id: string; name: string } | undefined;
  /** The conversation's own layer (system prompt, think mode, params). */
  conversationLayer?: (conversationId: string) => IdentityLayer | undefined;
  /** Keeps the settings a new conversation was started with (the composer's popover before the first send). */
  saveConversationSettings?: (conversationId: string, settings: NonNullable<SendRequest['conversationSettings']>) => void;
  /** Whether the conversation offers tools (its settings); absent: always. */
  conversationTools?: (conversationId: string) => boolean;
  /** Name new conversations with the model after their first answer (default on). */
  titles?: boolean;
  /** An attachment block as main measures it from the stored bytes (kind, media type, size); throws when gone. */
  attachment?: (claim: AttachmentBlock) => AttachmentBlock;
  /**
   * Runs before an answer's first request (issue 21's auto-compact): may put a card between the answer and the
   * turn it answers, and returns the answer as moved.
   */
  beforeAnswer?: (first: Turn, options: AnswerOptions, signal: AbortSignal) => Promise<Turn>;
  /** Why nothing may be sent in a conversation now (a summary being written for it), if so. */
  busyReason?: (conversationId: string) => string | undefined;
  /** Told when the first answer starts streaming (true) and when the last one ends (false): background work yields to answers. */
  answering?: (answering: boolean) => void;
  /** An answer (its steps and its title) ended on `connection`: Ollama's Running panel is read again, where it is Ollama's. */
  answerEnded?: (connection: EngineConnection) => void;
  /** Runs before each answer the user starts: what a full disk kept from being saved at start is tried again (db/left-open.ts). */
  beforeWrite?: () => void;
}

/** Options of one answer, as the chat channels carry them. */
export interface AnswerOptions {
  model: string;
  think?: boolean | ThinkMode | undefined;
  connectionId?: string | undefined;
}
