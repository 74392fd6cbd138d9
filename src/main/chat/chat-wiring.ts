import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import type { ModelDetails } from '../../shared/models';
import type { ConversationSettings, InvokeContract } from '../../shared/ipc';
import type { ContextWindowChoice } from '../../shared/models';
import type { AliasLayer } from '../aliases/alias-route';
import { getDialect } from '../dialects/registry';
import { ConnectionStore, DEFAULT_CONNECTION_ID } from '../connections/connection-store';
import { dialectOf } from '../connections/auth';
import { testConnection } from '../connections/test-connection';
import type { ConversationStore } from '../db/conversation-store';
import { StepStore } from '../db/step-store';
import { Calibration } from '../engine/calibration';
import { CapabilityCache } from '../engine/capabilities';
import { ThinkOpenCache } from '../engine/think-open';
import type { EngineConnection, IdentityLayer } from '../engine/types';
import { UserFacingError } from '../errors';
import type { EmitEvent } from '../events';
import { FileSecretStore, type SecretStore } from '../secrets/secret-store';
import { ApprovalGate } from '../tools/approval-gate';
import { builtinTools, type ToolRegistry } from '../tools/registry';
import { ChatService } from './chat-service';

export interface ChatWiringOptions {
  db: Database;
  dataDir: string;
  store: ConversationStore;
  ollamaUrl: () => string;
  readBlob: (digest: string) => Uint8Array | undefined;
  emit: EmitEvent;
  newId: () => string;
  now: () => number;
  log: (message: string) => void;
  /** Electron's safeStorage-backed store from the shell; serve mode (and tests) get the 0600 file. */
  secrets?: SecretStore;
  tools?: ToolRegistry;
  stallTimeoutMs?: number;
  retryDelayMs?: number;
  maxSteps?: number;
  appLayer?: IdentityLayer;
  alias?: (model: string) => AliasLayer | undefined;
  conversationLayer?: (conversationId: string) => IdentityLayer | undefined;
  saveConversationSettings?: (conversationId: string, settings: ConversationSettings) => void;
  /** Ollama's window when no layer names one (services: the kept or recommended window per model). */
  contextWindow?: (baseUrl: string, model: string) => Promise<ContextWindowChoice>;
  /** The model manager's `/api/show` cache, shared so a model's details are fetched once. */
  ollamaShow?: (baseUrl: string, model: string) => Promise<ModelDetails | null>;
  titles?: boolean;
}

type Handlers = { [C in 'connections:list' | 'connections:save' | 'connections:delete' | 'connections:test' | 'connections:key-storage' | 'chat:approve-tool']: (req: InvokeContract[C]['req']) => InvokeContract[C]['res'] | Promise<InvokeContract[C]['res']> };

/** The chat service with its engine, connections and secrets, and the IPC handlers those add. */
export interface ChatParts {
  chat: ChatService;
  connections: ConnectionStore;
  steps: StepStore;
  capabilities: CapabilityCache;
  /** A connection as the engine uses it (default: the built-in Ollama); throws a user-facing error when gone. */
  engineConnection: (id?: string) => EngineConnection;
  handlers: Handlers;
}

export function createChat(o: ChatWiringOptions): ChatParts {
  const secrets = o.secrets ?? new FileSecretStore(join(o.dataDir, 'secrets.json'));
  const connections = new ConnectionStore(o.db, secrets, o.ollamaUrl, o.newId);
  const steps = new StepStore(o.db, o.readBlob);
  const capabilities = new CapabilityCache(o.ollamaShow);
  const windowOf = o.contextWindow;
  const engineConnection = (id = DEFAULT_CONNECTION_ID): EngineConnection => {
    const c = connections.get(id);
    if (!c) throw new UserFacingError('not-found', 'That connection no longer exists; pick another in Settings.');
    return { id: c.id, kind: c.kind, label: c.label, baseUrl: c.baseUrl, dialect: getDialect(dialectOf(c.kind)), authHeaders: () => connections.headersFor(c.id) };
  };
  const chat = new ChatService({
    store: o.store,
    emit: o.emit,
    newId: o.newId,
    now: o.now,
    log: o.log,
    connection: engineConnection,
    ...(o.alias ? { alias: o.alias } : {}),
    ...(o.conversationLayer ? { conversationLayer: o.conversationLayer } : {}),
    ...(o.saveConversationSettings ? { saveConversationSettings: o.saveConversationSettings } : {}),
    ...(o.titles !== undefined ? { titles: o.titles } : {}),
    engine: {
      steps,
      tools: o.tools ?? builtinTools(),
      approvals: new ApprovalGate(),
      capabilities,
      thinkOpen: new ThinkOpenCache(),
      calibration: new Calibration(o.db),
      readBlob: o.readBlob,
      resolveAttachment: o.readBlob,
      ...(o.appLayer ? { appLayer: o.appLayer } : {}),
      ...(windowOf ? { contextWindow: (c: EngineConnection, model: string) => windowOf(c.baseUrl, model) } : {}),
      ...(o.maxSteps ? { maxSteps: o.maxSteps } : {}),
      ...(o.stallTimeoutMs ? { stallTimeoutMs: o.stallTimeoutMs } : {}),
      ...(o.retryDelayMs !== undefined ? { retryDelayMs: o.retryDelayMs } : {}),
    },
  });
  const handlers: Handlers = {
    'connections:list': () => connections.list(),
    'connections:save': (input) => {
      const saved = connections.save(input);
      capabilities.forget(saved.id);
      return saved;
    },
    'connections:delete': ({ id }) => ({ deleted: connections.delete(id) }),
    'connections:test': async ({ id }) => {
      const c = engineConnection(id);
      return testConnection(c.kind, c.baseUrl, c.authHeaders());
    },
    'connections:key-storage': () => secrets.storage(),
    'chat:approve-tool': (req) => ({ applied: chat.approveTool(req) }),
  };
  return { chat, connections, steps, capabilities, engineConnection, handlers };
}
