/**
 * The main process's services, wired once and shared by both carriers: the Electron shell and serve mode.
 * Plain Node: nothing here imports electron.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { ChatService } from './chat/chat-service';
import { ConversationStore } from './db/conversation-store';
import { openDatabase } from './db/open-database';
import { SettingsStore } from './db/settings-store';
import { ollamaDialect } from './dialects/ollama';
import { UserFacingError } from './errors';
import { EventHub } from './events';
import { createDispatcher, type Dispatcher, type InvokeHandlers } from './ipc/dispatch';
import { listOllamaModels } from './models/ollama-models';

export interface ServicesOptions {
  dataDir: string;
  /** Overrides the saved Ollama address (the `--ollama URL` flag); saved so the UI shows it. */
  ollamaUrl?: string;
  nativeBinding?: string;
  /** Longest silence tolerated mid-stream (default: the leg's 2 minutes). */
  stallTimeoutMs?: number;
  log?: (message: string) => void;
}

export interface Services {
  dispatcher: Dispatcher;
  hub: EventHub;
  handlers: InvokeHandlers;
  db: Database;
  chat: ChatService;
  close(): void;
}

export function createServices(options: ServicesOptions): Services {
  const log = options.log ?? ((m: string) => console.error(m));
  mkdirSync(options.dataDir, { recursive: true });
  const db = openDatabase(join(options.dataDir, 'firebrand.db'), options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  const store = new ConversationStore(db);
  const settings = new SettingsStore(db);
  const interrupted = store.markInterrupted();
  if (interrupted > 0) log(`storage: ${interrupted} answer(s) were streaming when Firebrand stopped; kept as interrupted`);
  if (options.ollamaUrl) settings.update({ ollamaUrl: options.ollamaUrl });

  const hub = new EventHub();
  const chat = new ChatService({
    store,
    emit: hub.emit,
    connection: () => ({ label: 'Ollama', baseUrl: settings.get().ollamaUrl, dialect: ollamaDialect }),
    newId: randomUUID,
    now: Date.now,
    log,
    ...(options.stallTimeoutMs ? { stallTimeoutMs: options.stallTimeoutMs } : {}),
  });

  const handlers: InvokeHandlers = {
    'conversations:list': () => store.listConversations(),
    'conversations:open': ({ conversationId }) => {
      const conversation = store.getConversation(conversationId);
      if (!conversation) throw new UserFacingError('not-found', 'That conversation no longer exists.');
      const { activeLeafId, ...summary } = conversation;
      return { conversation: summary, turns: activeLeafId ? store.branch(activeLeafId) : [] };
    },
    'conversations:delete': ({ conversationId }) => {
      const deleted = store.deleteConversation(conversationId);
      hub.emit('conversations:changed', { conversationId });
      return { deleted };
    },
    'chat:send': (req) => {
      const result = chat.send(req);
      settings.update({ defaultModel: req.model });
      return result;
    },
    'chat:stop': ({ turnId }) => ({ stopped: chat.stop(turnId) }),
    'models:list': () => listOllamaModels(settings.get().ollamaUrl),
    'settings:get': () => settings.get(),
    'settings:update': (patch) => settings.update(patch),
  };

  return {
    dispatcher: createDispatcher(handlers, log),
    hub,
    handlers,
    db,
    chat,
    close: () => db.close(),
  };
}
