import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import type { ModelDetails } from '../../shared/models';
import type { AttachmentBlock } from '../../shared/turn';
import type { InvokeContract, SendRequest } from '../../shared/ipc';
import type { ContextWindowChoice } from '../../shared/models';
import type { AliasLayer } from '../aliases/alias-route';
import { pathToFileURL } from 'node:url';
import { BUILTIN_CONNECTION_ID, connectionName } from '../../shared/connections';
import type { BuiltinRequests } from '../builtin/builtin-request';
import type { BuiltinService } from '../builtin/builtin-service';
import { getDialect } from '../dialects/registry';
import { ConnectionStore, DEFAULT_CONNECTION_ID, withoutApiSuffix } from '../connections/connection-store';
import { dialectOf } from '../connections/auth';
import { testConnection } from '../connections/test-connection';
import { serverUrlProblem } from '../connections/server-url';
import type { ConversationStore } from '../db/conversation-store';
import { setAnswersStreaming } from '../db/background-slices';
import { settleAtStart } from '../db/left-open';
import { scheduleRechunk } from '../db/rechunk-bodies';
import { StepStore } from '../db/step-store';
import { ToolRuns } from '../db/tool-runs';
import { Calibration } from '../engine/calibration';
import { CapabilityCache } from '../engine/capabilities';
import { ThinkOpenCache } from '../engine/think-open';
import { LiveTurns } from '../engine/live-turns';
import { RunningTools } from '../engine/running-tools';
import type { IdentityLayer } from '../../shared/identity-layer';
import type { AttachmentPreparer, EngineConnection } from '../engine/types';
import { UserFacingError } from '../errors';
import type { EmitEvent } from '../events';
import { FileSecretStore, type SecretStore } from '../secrets/secret-store';
import { ApprovalGate } from '../tools/approval-gate';
import { builtinTools, type ToolRegistry } from '../tools/registry';
import { ChatService, type ChatServiceDeps } from './chat-service';

export interface ChatWiringOptions {
  db: Database;
  dataDir: string;
  store: ConversationStore;
  ollamaUrl: () => string;
  readBlob: (digest: string) => Uint8Array | undefined;
  /** Documents read and images scaled before a request (services: the blob store's AttachmentContent). */
  attachments?: AttachmentPreparer;
  emit: EmitEvent;
  newId: () => string;
  now: () => number;
  log: (message: string) => void;
  /** Electron's safeStorage-backed store from the shell; serve mode (and tests) get the 0600 file. */
  secrets?: SecretStore;
  tools?: ToolRegistry;
  /** The approval cards' waits; Settings → Tools withdraws those of a server it removes (services makes it). */
  approvals?: ApprovalGate;
  stallTimeoutMs?: number;
  retryDelayMs?: number;
  maxSteps?: number;
  appLayer?: IdentityLayer;
  alias?: (model: string) => AliasLayer | undefined;
  aliasNamed?: ChatServiceDeps['aliasNamed'];
  conversationLayer?: (conversationId: string) => IdentityLayer | undefined;
  saveConversationSettings?: (conversationId: string, settings: NonNullable<SendRequest['conversationSettings']>) => void;
  /** Whether a conversation offers tools (its settings). */
  conversationTools?: (conversationId: string) => boolean;
  /** Stores an image a tool returned (the blob store). */
  storeImage?: (bytes: Uint8Array, mime: string, name: string) => Promise<AttachmentBlock>;
  /** Ollama's window when no layer names one (services: the kept or recommended window per model). */
  contextWindow?: (baseUrl: string, model: string) => Promise<ContextWindowChoice>;
  /** The model manager's `/api/show` cache, shared so a model's details are fetched once. */
  ollamaShow?: (baseUrl: string, model: string) => Promise<ModelDetails | null>;
  titles?: boolean;
  /** Builds an attachment block from the stored bytes (services: the blob store's `describe`). */
  attachment?: (claim: AttachmentBlock) => AttachmentBlock;
  /** The built-in llama.cpp engine (services); absent in tests that do not need it. */
  builtin?: { service: BuiltinService; requests: BuiltinRequests; modelsDir: () => string };
  /** Issue 21's auto-compact and its lock (services: the out-of-room service). */
  beforeAnswer?: ChatServiceDeps['beforeAnswer'];
  busyReason?: ChatServiceDeps['busyReason'];
  answering?: ChatServiceDeps['answering'];
  answerEnded?: ChatServiceDeps['answerEnded'];
}

type Handlers = { [C in 'connections:list' | 'connections:save' | 'connections:delete' | 'connections:test' | 'connections:key-storage' | 'chat:approve-tool']: (req: InvokeContract[C]['req']) => InvokeContract[C]['res'] | Promise<InvokeContract[C]['res']> };

/** The chat service with its engine, connections and secrets, and the IPC handlers those add. */
export interface ChatParts {
  chat: ChatService;
  connections: ConnectionStore;
  steps: StepStore;
  capabilities: CapabilityCache;
  /** The per-model correction of the token estimate (the meter shows it too). */
  calibration: Calibration;
  /** A connection as the engine uses it (default: the built-in Ollama); throws a user-facing error when gone. */
  engineConnection: (id?: string) => EngineConnection;
  /** The engine's collaborators, shared with the out-of-room service so it measures as the preflight does. */
  engine: ChatServiceDeps['engine'];
  handlers: Handlers;
}

export function createChat(o: ChatWiringOptions): ChatParts {
  const secrets = o.secrets ?? new FileSecretStore(join(o.dataDir, 'secrets.json'));
  const connections = new ConnectionStore(o.db, secrets, o.ollamaUrl, o.newId, o.builtin?.modelsDir);
  // What the last run left streaming is settled before anything of this run streams; a full disk puts it off.
  const leftOpen = settleAtStart({
    ...{ db: o.db, store: o.store, newId: o.newId, now: o.now, log: o.log },
    changed: (conversationId) => o.emit('conversations:changed', { conversationId }),
    saved: (turn) => o.emit('chat:turn-saved', { turn }),
  });
  const live = new LiveTurns();
  live.leftOpen = leftOpen;
  const steps = new StepStore(o.db, o.readBlob);
  // Bodies stored whole by versions before 0015 are cut into shared chunks in the background (a minute in).
  scheduleRechunk(o.db, o.readBlob, o.log);
  const capabilities = new CapabilityCache(o.ollamaShow);
  const calibration = new Calibration(o.db);
  const windowOf = o.contextWindow;
  const engineConnection = (id = DEFAULT_CONNECTION_ID): EngineConnection => {
    const c = connections.get(id);
    if (!c) throw new UserFacingError('not-found', 'That connection no longer exists; pick another in Settings.');
    if (c.kind === 'builtin') return builtinConnection(o, c.label);
    return { id: c.id, kind: c.kind, label: c.label, baseUrl: c.baseUrl, dialect: getDialect(dialectOf(c.kind)), authHeaders: () => connections.headersFor(c.id) };
  };
  const engine: ChatServiceDeps['engine'] = {
    steps,
    tools: o.tools ?? builtinTools(),
    approvals: o.approvals ?? new ApprovalGate(),
    toolRuns: new ToolRuns(o.db),
    capabilities,
    thinkOpen: new ThinkOpenCache(),
    calibration,
    readBlob: o.readBlob,
    resolveAttachment: o.readBlob,
    ...(o.storeImage ? { storeImage: o.storeImage } : {}),
    ...(o.attachments ? { attachments: o.attachments } : {}),
    ...(o.attachments?.documentText ? { documentText: o.attachments.documentText } : {}),
    ...(o.appLayer ? { appLayer: o.appLayer } : {}),
    contextWindow: async (c: EngineConnection, model: string): Promise<ContextWindowChoice> => {
      if (c.kind === 'builtin' && o.builtin) return o.builtin.service.windowFor(model);
      return windowOf ? windowOf(c.baseUrl, model) : { contextWindow: null, source: 'unknown', reason: null };
    },
    ...(o.maxSteps ? { maxSteps: o.maxSteps } : {}),
    ...(o.stallTimeoutMs ? { stallTimeoutMs: o.stallTimeoutMs } : {}),
    ...(o.retryDelayMs !== undefined ? { retryDelayMs: o.retryDelayMs } : {}),
    live,
    running: new RunningTools(),
  };
  const chat = new ChatService({
    store: o.store,
    emit: o.emit,
    newId: o.newId,
    now: o.now,
    log: o.log,
    connection: engineConnection,
    ...(o.alias ? { alias: o.alias } : {}),
    ...(o.aliasNamed ? { aliasNamed: o.aliasNamed } : {}),
    ...(o.conversationLayer ? { conversationLayer: o.conversationLayer } : {}),
    ...(o.saveConversationSettings ? { saveConversationSettings: o.saveConversationSettings } : {}),
    ...(o.conversationTools ? { conversationTools: o.conversationTools } : {}),
    ...(o.titles !== undefined ? { titles: o.titles } : {}),
    ...(o.attachment ? { attachment: o.attachment } : {}),
    engine,
    ...(o.beforeAnswer ? { beforeAnswer: o.beforeAnswer } : {}),
    ...(o.busyReason ? { busyReason: o.busyReason } : {}),
    // Background work on the database (rechunking, the merge after a delete, giving pages back) waits meanwhile.
    answering: (on) => {
      setAnswersStreaming(o.db, on);
      o.answering?.(on);
    },
    ...(o.answerEnded ? { answerEnded: o.answerEnded } : {}),
    ...(leftOpen ? { beforeWrite: () => void leftOpen.retry() } : {}),
  });
  /** Every page's Settings, picker groups and model list follow a connection saved anywhere (not only on reconnect). */
  const announce = (id: string) => o.emit('connections:changed', { id, connections: connections.list() });
  const handlers: Handlers = {
    'connections:list': () => connections.list(),
    'connections:save': (input) => {
      const saved = connections.save(input);
      capabilities.forget(saved.id);
      announce(saved.id);
      return saved;
    },
    'connections:delete': ({ id }) => {
      const deleted = connections.delete(id);
      if (deleted) announce(id);
      return { deleted };
    },
    'connections:test': async ({ id, baseUrl }) => {
      if (id === BUILTIN_CONNECTION_ID && o.builtin) return testBuiltin(o.builtin.service);
      const c = engineConnection(id);
      // A test is the user saying "look again": the next send and the meter read the server anew.
      capabilities.forget(id);
      const typed = baseUrl === undefined ? undefined : withoutApiSuffix(c.kind, baseUrl);
      // The saved connection is named in what the test says ("Cannot reach GPU box at …"), as the banner names it.
      if (typed === undefined || sameOrigin(typed, c.baseUrl)) return testConnection(c.kind, typed ?? c.baseUrl, c.authHeaders(), connectionName(c));
      // The address on screen, not saved yet: tested as typed, without the key (a key goes only where it was saved for),
      // and said by its address: no saved connection is there yet.
      const problem = serverUrlProblem(typed);
      if (problem) return { ok: false, error: problem };
      return testConnection(c.kind, typed, {});
    },
    'connections:key-storage': () => secrets.storage(),
    'chat:approve-tool': (req) => ({ applied: chat.approveTool(req) }),
  };
  return { chat, connections, steps, capabilities, calibration, engineConnection, engine, handlers };
}

/**
 * The built-in engine as a connection (DESIGN.md §9): the `builtin` dialect, its own leg (the engine process),
 * capabilities from the GGUF, the exact preflight and token counter. Its endpoint in step records is the models
 * folder as a file URL.
 */
function builtinConnection(o: ChatWiringOptions, label: string): EngineConnection {
  const b = o.builtin;
  if (!b) throw new UserFacingError('internal', 'The built-in engine is not available in this process.');
  return {
    id: BUILTIN_CONNECTION_ID,
    kind: 'builtin',
    label,
    baseUrl: pathToFileURL(`${b.modelsDir().replace(/[\\/]+$/, '')}/`).href,
    dialect: getDialect('builtin'),
    authHeaders: () => ({}),
    send: (body, signal, turnId) => b.requests.send(body, signal, turnId),
    describe: (model) => b.service.describe(model),
    preflight: (body) => b.requests.preflight(body),
    countTokens: (model, text) => b.service.countTokens(model, text),
  };
}

async function testBuiltin(service: BuiltinService) {
  try {
    const status = await service.status();
    if (status.unavailable) return { ok: false as const, error: status.unavailable };
    await service.refresh();
    const after = await service.status();
    return { ok: true as const, version: after.backend?.backend ?? null, modelCount: (await service.deps.library.list()).filter((e) => e.state === 'usable').length, detail: after.backend?.reason ?? 'The engine started.' };
  } catch (err) {
    return { ok: false as const, error: err instanceof Error ? err.message : String(err) };
  }
}

/** Two addresses on the same scheme, host and port (a key saved for one may be sent to the other). */
function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}
