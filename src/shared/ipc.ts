/**
 * The IPC contract: one table of channels shared by main, preload and renderer (GitHub Desktop style).
 * Invoke channels are request -> result; event channels go main -> renderer. Names are `domain:kebab-action`.
 * The same contract is carried by Electron IPC and, in serve mode, by a WebSocket.
 */
import type { StreamPart } from './parts';
import type { Turn } from './turn';

export interface ConversationSummary {
  id: string;
  title: string;
  updatedAt: number;
  model: string | null;
}

export interface ConversationView {
  conversation: ConversationSummary;
  /** The active branch, root first. */
  turns: Turn[];
}

export interface ModelSummary {
  name: string;
  sizeBytes: number | null;
  family: string | null;
  parameterSize: string | null;
  quantization: string | null;
}

export interface Settings {
  /** Base URL of the Ollama server, e.g. http://127.0.0.1:11434 */
  ollamaUrl: string;
  /** The model picked last; offered first next time. */
  defaultModel: string | null;
}

export interface SendResult {
  conversationId: string;
  userTurn: Turn;
  assistantTurn: Turn;
}

/** Invoke channels: request payload and result. Payloads are always objects, so each one has a schema. */
export interface InvokeContract {
  'conversations:list': { req: Record<string, never>; res: ConversationSummary[] };
  'conversations:open': { req: { conversationId: string }; res: ConversationView };
  'conversations:delete': { req: { conversationId: string }; res: { deleted: boolean } };
  'chat:send': { req: { conversationId: string | null; text: string; model: string }; res: SendResult };
  'chat:stop': { req: { turnId: string }; res: { stopped: boolean } };
  'models:list': { req: Record<string, never>; res: ModelSummary[] };
  'settings:get': { req: Record<string, never>; res: Settings };
  'settings:update': { req: Partial<Settings>; res: Settings };
}

/** Event channels: main -> renderer payloads. */
export interface EventContract {
  /** A streamed part of an assistant turn; the renderer applies it with the same reducer main persists with. */
  'chat:turn-part': { conversationId: string; turnId: string; part: StreamPart };
  /** A turn as persisted (after its stream ended, or when it was created). */
  'chat:turn-saved': { turn: Turn };
  'conversations:changed': { conversationId: string | null };
}

export type InvokeChannel = keyof InvokeContract;
export type EventChannel = keyof EventContract;
export type InvokeRequest<C extends InvokeChannel> = InvokeContract[C]['req'];
export type InvokeResponse<C extends InvokeChannel> = InvokeContract[C]['res'];

/** Runtime lists of the channels; `satisfies` keeps them in step with the types above. */
export const INVOKE_CHANNELS = [
  'conversations:list',
  'conversations:open',
  'conversations:delete',
  'chat:send',
  'chat:stop',
  'models:list',
  'settings:get',
  'settings:update',
] as const satisfies readonly InvokeChannel[];

export const EVENT_CHANNELS = [
  'chat:turn-part',
  'chat:turn-saved',
  'conversations:changed',
] as const satisfies readonly EventChannel[];

export const CHANNEL_NAME_PATTERN = /^[a-z]+:[a-z]+(?:-[a-z]+)*$/;

/** Errors a user can meet travel as data, with a message written for the user. */
export interface IpcErrorData {
  code: IpcErrorCode;
  message: string;
}
export type IpcErrorCode =
  | 'unknown-channel'
  | 'invalid-payload'
  | 'forbidden'
  | 'not-found'
  | 'server-unreachable'
  | 'server-error'
  | 'internal';

export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcErrorData };

/** The error a `window.firebrand` call rejects with. */
export class FirebrandError extends Error {
  readonly code: IpcErrorCode;
  constructor(data: IpcErrorData) {
    super(data.message);
    this.name = 'FirebrandError';
    this.code = data.code;
  }
}
