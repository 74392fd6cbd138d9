/**
 * The IPC contract: one table of channels shared by main, preload and renderer (GitHub Desktop style).
 * Invoke channels are request -> result; event channels go main -> renderer. Names are `domain:kebab-action`.
 * The same contract is carried by Electron IPC and, in serve mode, by a WebSocket.
 */
import { MCP_EVENT_CHANNELS, MCP_INVOKE_CHANNELS, type McpEventContract, type McpInvokeContract, type ToolProgress } from './mcp';
import { EXPORT_EVENT_CHANNELS, type ExportEventContract } from './export-ipc';
import type { SearchReply } from './search-ipc';
import { CONTEXT_EVENT_CHANNELS, CONTEXT_INVOKE_CHANNELS, type ContextEventContract, type ContextInvokeContract } from './context-ipc';
import { LIBRARY_EVENT_CHANNELS, LIBRARY_INVOKE_CHANNELS, type LibraryEventContract, type LibraryInvokeContract } from './library';
import { MODEL_EVENT_CHANNELS, MODEL_INVOKE_CHANNELS, type ModelEventContract, type ModelInvokeContract } from './models-ipc';
import type { ConnectionInfo, ConnectionInput, ConnectionTestResult, KeyStorage, ThinkMode } from './connections';
import type { StreamPart } from './parts';
import type { LegacyTextEncoding, PageRange } from './attachment-text';
import type { AttachmentBlock, Turn } from './turn';
export type { SearchReply, SearchResult } from './search-ipc';

export interface ConversationSummary {
  id: string;
  title: string;
  updatedAt: number;
  model: string | null;
}

/** Where a page of the conversation list ends: the last conversation of the page before. */
/**
 * What an import brought in: `conversationId` is the conversation listed first (the only one, or the most recently
 * updated of an Export all); `imported` how many came in; `all` whether the file was an Export all.
 */
export interface ImportResult {
  conversationId: string;
  /** The title the first conversation is listed under: marked "(imported copy)" where it was here already. */
  title: string;
  imported: number;
  all: boolean;
  /** How many were here already (the same file imported before) and came in as marked copies. */
  copies: number;
  /**
   * How many conversations the list shows above the first one: each is listed by its own last message, so an old
   * chat may be far down the list, and the page reads the list that far to show it open there.
   */
  listedAbove: number;
}

export interface ConversationCursor {
  updatedAt: number;
  id: string;
}

/**
 * Which page of the conversation list: from the most recent, or after `before`; `limit` conversations at most
 * (CONVERSATION_PAGE_DEFAULT where not given). A page shorter than its limit is the list's end.
 */
export interface ConversationPage {
  before?: ConversationCursor;
  limit?: number;
}

/** The longest title a conversation is renamed to (the search's limits are in ./search-ipc.ts). */
export const CONVERSATION_TITLE_MAX_CHARS = 300;

export const CONVERSATION_PAGE_DEFAULT = 50;
export const CONVERSATION_PAGE_MAX = 5_000;

/** A draft kept in main (DraftStore): what was typed and attached in a conversation (`null`: a new chat) and not sent. */
export interface SavedDraft {
  conversationId: string | null;
  text: string;
  attachments: AttachmentBlock[];
}

/** A draft as main keeps it: a new chat's also holds the Chat settings chosen for that chat (absent: none set). */
export interface KeptDraft extends SavedDraft {
  settings?: ConversationSettings;
}

/** The files added in the edit of a sent message (`turnId`), kept in the renderer until it is sent or discarded. */
export interface EditFiles {
  turnId: string;
  attachments: AttachmentBlock[];
}

/** What main holds of an edit's files: `gone`, its message no longer exists; `missing`, the digests no longer stored. */
export interface EditFilesHeld {
  turnId: string;
  gone: boolean;
  missing: string[];
}

export interface ConversationView {
  conversation: ConversationSummary;
  /** The active branch, root first. */
  turns: Turn[];
  /** Asked with `tail` (or `before`): the branch holds turns older than `turns` that were not sent. */
  partial?: boolean;
  /** For each turn on the branch that has siblings (edit-and-resend, regenerate): all of them and its place. */
  siblings: Record<string, SiblingInfo>;
  /** Turns still streaming, sent as streamed so far: how many parts each holds (later parts carry their `from`). */
  streamed?: Record<string, number>;
  /** The chat's tool calls running now, with their last progress (later progress comes as `chat:tool-progress`). */
  toolsRunning?: ToolProgress[];
}

/** A turn's siblings, oldest first, and the 0-based index of the one on the active branch (`< 2/3 >`). */
export interface SiblingInfo {
  ids: string[];
  index: number;
}

/** An attachment's bytes, for thumbnails; base64 because both carriers speak JSON. */
export interface AttachmentData {
  mime: string;
  dataBase64: string;
}

/**
 * What an attachment will cost as sent, worked out by main with the function the dialects encode with: the
 * composer's chip shows it (`data-tokens`, `data-tokens-source`) and the meter adds it up.
 */
export interface AttachmentInspection {
  tokens: number;
  /** `exact` where the server counted with the model's tokenizer (llama-server), else the estimate. */
  tokensSource: 'exact' | 'estimate';
  /** PDFs: how many pages, and each page's text length, so the composer can say which pages fit. */
  pageCount: number | null;
  pageChars: number[] | null;
  /** Other documents: the length of their text. */
  textChars: number | null;
  /** The page range applied (clamped to the document); null: all of it. */
  pages: PageRange | null;
  /** Why the file's text cannot be read (password, damaged, a scan, not a readable type); nothing is sent for it. */
  error: string | null;
  /** Images: the size the model gets, and whether it was scaled or turned from the original. */
  image: { width: number; height: number; scaled: boolean } | null;
  /** Text read in an encoding other than UTF-8 (a Windows-1252 CSV), which the chip says; absent: UTF-8. */
  encoding?: LegacyTextEncoding;
}

export interface ModelSummary {
  name: string;
  sizeBytes: number | null;
  family: string | null;
  parameterSize: string | null;
  quantization: string | null;
  /** What the server says the model can do (`vision`, `tools`, `thinking`, ...); absent when not known. */
  capabilities?: string[];
  /** The context window the model runs with, in tokens; absent when not known. */
  contextLength?: number;
  /** A built-in GGUF whose last load failed: never chosen on its own (the user may pick it to try again). */
  loadError?: string;
}

export interface Settings {
  /** Base URL of the Ollama server, e.g. http://127.0.0.1:11434 */
  ollamaUrl: string;
  /** The model picked last; offered first next time. */
  defaultModel: string | null;
  /** The model or alias name new chats start with, chosen in Settings (wins over `defaultModel`). */
  defaultChatModel: string | null;
  /** The connection the composer lists models from and sends to (`connections:list` ids; `ollama` built in). */
  activeConnectionId: string;
  /** The UI's colour scheme; `system` follows the OS. */
  theme: Theme;
  /** The folder of GGUF files the built-in engine runs; null: `<data dir>/models` (or `--models-dir` in serve mode). */
  modelsDir: string | null;
  /** Minutes a built-in model stays loaded unused before it is unloaded; 0 keeps it loaded. */
  builtinIdleMinutes: number;
  /** Set, never saved, while the chats are open read-only because the disk is full: why, for the page's banner. */
  readOnly?: string;
}

export type Theme = 'light' | 'dark' | 'system';

/** A conversation's own identity layer (DESIGN.md §2): its system prompt and think mode (null: not set). */
export interface ConversationSettings {
  systemPrompt: string;
  think: ThinkMode | null;
  /** Offer the enabled tools to the model (issue 19: small models do worse with tools in context). */
  tools: boolean;
}

export interface SendRequest {
  conversationId: string | null;
  text: string;
  model: string;
  /** Blocks returned by `attachments:add`. */
  attachments?: AttachmentBlock[];
  /** Ask a thinking model to think (Ollama `think`), or a level/mode; absent leaves the server's default. */
  think?: boolean | ThinkMode;
  /** The connection to ask (`connections:list`); absent: the default Ollama connection. */
  connectionId?: string;
  /** Settings a new conversation starts with (ignored when `conversationId` names an existing one); `tools` absent: on. */
  conversationSettings?: Omit<ConversationSettings, 'tools'> & { tools?: boolean };
  /** Sent from the composer's draft: main drops the draft it keeps for the conversation (DraftStore). */
  fromDraft?: boolean;
}

/** A sent message edited and sent again (chat:edit-and-resend). */
export interface EditAndResendRequest {
  /** The user turn edited: the new one is its sibling. */
  turnId: string;
  text: string;
  model: string;
  think?: boolean;
  connectionId?: string;
  /** The places (0-based, in order) of the original's attachments that go with it; absent, all of them. */
  keepAttachments?: number[];
  /** Files added in the edit: blocks returned by `attachments:add`, sent after those kept. */
  attachments?: AttachmentBlock[];
}

export interface SendResult {
  conversationId: string;
  userTurn: Turn;
  assistantTurn: Turn;
}

/** Invoke channels: request payload and result. Payloads are always objects, so each one has a schema. */
export interface InvokeContract extends ModelInvokeContract, LibraryInvokeContract, McpInvokeContract, ContextInvokeContract {
  'conversations:list': { req: ConversationPage; res: ConversationSummary[] };
  /**
   * `tail`: only the branch's last turns (a long chat's first screenful, asked for before the rest). `before`: the
   * branch's turns older than that one (the last `tail` of them), paged in as the reader scrolls up; none where it
   * is no longer on the active branch.
   */
  'conversations:open': { req: { conversationId: string; tail?: number; before?: string }; res: ConversationView };
  /**
   * `keepIfWrittenAfter`: the conversation's `updatedAt` as the page listed it when the user deleted it. Where a
   * message was written in it since (another window, during the page's undo window) it is kept, not deleted with
   * that message and its answer: `writtenSince` says so.
   */
  'conversations:delete': { req: { conversationId: string; keepIfWrittenAfter?: number }; res: { deleted: boolean; writtenSince?: boolean } };
  'conversations:rename': { req: { conversationId: string; title: string }; res: { renamed: boolean } };
  /** One file for the user to save: every branch and attachment (json), or the active branch as Markdown. */
  /** `title`: the conversation's title as exported (the notice names it; the list may not have the newest yet). */
  'conversations:export': { req: { conversationId: string; format: 'json' | 'markdown' }; res: { fileName: string; mime: string; text: string; title: string } };
  /** One file for the user to save with every conversation (Export all), each attachment's bytes once; Import reads it back whole. */
  'conversations:export-all': { req: Record<string, never>; res: { fileName: string; mime: string; text: string } };
  /** A conversation file in one payload: small files only (one serve frame is at most 64 MiB). `name`: the file's, which a refusal says. */
  'conversations:import': { req: { text: string; name?: string }; res: ImportResult };
  /**
   * A conversation file of any size Firebrand exports (CONVERSATION_FILE_MAX_BYTES), in pieces: begin with its size
   * in bytes (and its name, for messages), send its bytes in order in chunks of at most IMPORT_CHUNK_BYTES (as
   * base64, at `offset`), then finish to import it. Main stages the bytes and drops them on any failure, on cancel,
   * or after a minute without a chunk.
   */
  'conversations:import-begin': { req: { size: number; name?: string }; res: { uploadId: string } };
  'conversations:import-chunk': { req: { uploadId: string; offset: number; dataBase64: string }; res: { received: number } };
  'conversations:import-finish': { req: { uploadId: string }; res: ImportResult };
  'conversations:import-cancel': { req: { uploadId: string }; res: { cancelled: boolean } };
  /** The best `limit` messages found (SEARCH_PAGE unless said), and conversations found by their title only. */
  'conversations:search': { req: { query: string; limit?: number }; res: SearchReply };
  /** Makes the branch through `turnId` the active one and returns the conversation as then seen. */
  'conversations:switch-branch': { req: { turnId: string }; res: ConversationView };
  'chat:send': { req: SendRequest; res: SendResult };
  'chat:stop': { req: { turnId: string }; res: { stopped: boolean } };
  /** A new answer to the same message, as a sibling of `turnId` (an assistant turn). */
  'chat:regenerate': { req: { turnId: string; model: string; think?: boolean; connectionId?: string }; res: SendResult };
  /** The edited message as a sibling of `turnId` (a user turn), answered anew. Text may be empty where a file goes. */
  'chat:edit-and-resend': { req: EditAndResendRequest; res: SendResult };
  /** A conversation's system prompt and think mode (its popover). */
  'conversations:get-settings': { req: { conversationId: string }; res: ConversationSettings };
  /** `tools` absent: left as it is. */
  'conversations:update-settings': { req: { conversationId: string } & Omit<ConversationSettings, 'tools'> & { tools?: boolean }; res: ConversationSettings };
  /** Stores an attachment's bytes in the blob store; the message then carries the returned block by reference. */
  'attachments:add': { req: { name: string; mime: string; dataBase64: string }; res: AttachmentBlock };
  'attachments:get': { req: { id: string }; res: AttachmentData };
  /** What an attachment costs for this model as it will be sent (reads its text first, once). */
  'attachments:inspect': { req: { block: AttachmentBlock; model: string; connectionId?: string }; res: AttachmentInspection };
  /** The exact text the model will read for a document attachment (its pages as chosen). */
  'attachments:preview': { req: { block: AttachmentBlock }; res: { text: string } };
  /** The drafts kept (every conversation's, and a new chat's), for a window or tab that opens. */
  'drafts:list': { req: Record<string, never>; res: KeptDraft[] };
  /** Keeps a conversation's draft (`null`: a new chat's), or drops it when empty; `kept` is false when it was not kept. */
  'drafts:save': { req: SavedDraft; res: { kept: boolean } };
  /** Keeps the Chat settings chosen for the new chat with its draft (blank: forgets them); its first message takes both. */
  'drafts:save-new-chat-settings': { req: { settings: ConversationSettings }; res: { kept: boolean } };
  /**
   * Holds the files added in these edits of sent messages against the blob collector, in place of what each held
   * (none: let go); says of each whether its message is gone and which of its files are no longer stored.
   */
  'drafts:hold-edit-files': { req: { edits: EditFiles[] }; res: { edits: EditFilesHeld[] } };
  /** The models of a connection (by default the active one): the alias editor lists an alias's own connection's. */
  'models:list': { req: { connectionId?: string }; res: ModelSummary[] };
  'settings:get': { req: Record<string, never>; res: Settings };
  'settings:update': { req: Partial<Settings>; res: Settings };
  /** The servers the user chats with; keys are never returned, only whether one is saved. */
  'connections:list': { req: Record<string, never>; res: ConnectionInfo[] };
  /** Creates (no id) or updates a connection; `apiKey: ''` removes its saved key. */
  'connections:save': { req: ConnectionInput; res: ConnectionInfo };
  'connections:delete': { req: { id: string }; res: { deleted: boolean } };
  /**
   * Asks the server its version and model count, or reports the exact failure. `baseUrl`: test this address (the
   * one on screen, not saved yet) with the connection's kind; its saved key goes only to its saved origin.
   */
  'connections:test': { req: { id: string; baseUrl?: string }; res: ConnectionTestResult };
  /** What protects saved API keys here (an OS keyring, or only a private file's permissions). */
  'connections:key-storage': { req: Record<string, never>; res: KeyStorage };
  /**
   * The user's answer to a `tool-approval` card (`turnId`: the assistant turn that made the call, the card's
   * `meta.turnId`); `applied` is false when that call no longer waits.
   */
  'chat:approve-tool': {
    req: { conversationId: string; turnId: string; toolCallId: string; decision: 'allow-once' | 'allow-conversation' | 'allow-always' | 'deny' };
    res: { applied: boolean };
  };
}

/** Event channels: main -> renderer payloads. */
export interface EventContract extends ModelEventContract, LibraryEventContract, McpEventContract, ContextEventContract, ExportEventContract {
  /** Streamed parts of an assistant turn, one batch per network chunk, in order; the renderer applies them with
   * the same reducer main persists with. `from`: how many parts of the turn came before these. */
  'chat:turn-parts': { conversationId: string; turnId: string; parts: StreamPart[]; from: number };
  /** A turn as persisted (after its stream ended, or when it was created). */
  'chat:turn-saved': { turn: Turn };
  /** No answer is on its way in the chat any more (the last one ended, its tool steps included): a message may go. */
  'chat:answer-ended': { conversationId: string };
  /** `settings`: the chat's own settings as just saved, where that is what changed (another tab's popover). */
  'conversations:changed': { conversationId: string | null; settings?: ConversationSettings };
  /** The settings as saved, after any window or tab changed them (a theme picked in one tab shows in the others). */
  'settings:changed': { settings: Settings };
  /** The connections as saved, after any window or tab added, edited or removed `id` (its models may be others now). */
  'connections:changed': { id: string; connections: ConnectionInfo[] };
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
  'conversations:rename',
  'conversations:export',
  'conversations:export-all',
  'conversations:import',
  'conversations:import-begin',
  'conversations:import-chunk',
  'conversations:import-finish',
  'conversations:import-cancel',
  'conversations:search',
  'conversations:switch-branch',
  'conversations:get-settings',
  'conversations:update-settings',
  'chat:send',
  'chat:stop',
  'chat:regenerate',
  'chat:edit-and-resend',
  'attachments:add',
  'attachments:get',
  'attachments:inspect',
  'attachments:preview',
  'drafts:list',
  'drafts:save',
  'drafts:save-new-chat-settings',
  'drafts:hold-edit-files',
  'models:list',
  'settings:get',
  'settings:update',
  'connections:list',
  'connections:save',
  'connections:delete',
  'connections:test',
  'connections:key-storage',
  'chat:approve-tool',
  ...MODEL_INVOKE_CHANNELS,
  ...LIBRARY_INVOKE_CHANNELS,
  ...MCP_INVOKE_CHANNELS,
  ...CONTEXT_INVOKE_CHANNELS,
] as const satisfies readonly InvokeChannel[];

export const EVENT_CHANNELS = [
  'chat:turn-parts',
  'chat:turn-saved',
  'chat:answer-ended',
  'conversations:changed',
  'settings:changed',
  'connections:changed',
  ...MODEL_EVENT_CHANNELS,
  ...LIBRARY_EVENT_CHANNELS,
  ...MCP_EVENT_CHANNELS,
  ...CONTEXT_EVENT_CHANNELS,
  ...EXPORT_EVENT_CHANNELS,
] as const satisfies readonly EventChannel[];

export const CHANNEL_NAME_PATTERN = /^[a-z]+:[a-z]+(?:-[a-z]+)*$/;

// The error shapes (IpcErrorData, FirebrandError…) are in their own module; importers keep naming this one.
export * from './ipc-errors';
