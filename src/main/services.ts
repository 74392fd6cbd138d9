/**
 * The main process's services, wired once and shared by both carriers: the Electron shell and serve mode.
 * Plain Node: nothing here imports electron.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { aliasRefs } from './aliases/alias-refs';
import { AliasStore } from './aliases/alias-store';
import { collect, conversationBlobs, scheduleStartupGc } from './blobs/blob-gc';
import { BlobStore } from './blobs/blob-store';
import { Sidecars } from './blobs/sidecars';
import { servedType } from './blobs/sniff';
import type { ChatService } from './chat/chat-service';
import { createChat, type ChatWiringOptions } from './chat/chat-wiring';
import { conversationView, toSearchResult } from './chat/conversation-view';
import { preparePrivateDataDir, tightenFiles } from './data-dir';
import { ConversationStore } from './db/conversation-store';
import { ConversationSettingsStore } from './db/conversation-settings';
import { openLockedDatabase } from './db/folder-lock';
import { SearchStore } from './db/search';
import { SettingsStore } from './db/settings-store';
import { UserFacingError } from './errors';
import { EventHub } from './events';
import { importConversation } from './export/conversation-io';
import { exportFile } from './export/export-file';
import { ImportUploads } from './export/import-uploads';
import { FileSecretStore, type SecretStore } from './secrets/secret-store';
import { McpManager } from './mcp/mcp-manager';
import { createMcpHandlers } from './mcp/mcp-handlers';
import { builtinToolList, ToolRegistry } from './tools/registry';
import { createDispatcher, type Dispatcher, type InvokeHandlers } from './ipc/dispatch';
import { AttachmentContent } from './documents/attachment-content';
import { ExtractionRunner, type ExtractionLimits } from './documents/extraction-runner';
import type { ReaderSpawner } from './documents/reader-protocol';
import { tokenCounterFor } from './connections/token-counter';
import { DEFAULT_CONNECTION_ID } from './connections/connection-store';
import { BUILTIN_CONNECTION_ID, type ConnectionInfo } from '../shared/connections';
import type { ProbeHost } from './gpu/types';
import { effectiveWindow } from './models/effective-window';
import { createModelHandlers } from './models/model-handlers';
import { listOllamaWithDetails, listV1Models, withCapabilities } from './models/model-list';
import type { EngineSpawner } from './builtin/engine-host';
import { nodeProbeHost } from './gpu/node-host';
import { createLibrary, type LibraryParts } from './library/library-wiring';
import { ServerWatch, type ServerWatchDeps } from './models/server-watch';
import { lookAtServer } from './models/server-look';
import { earlyAnswer } from './models/early-answer';
import { tagDigests } from './models/ollama-admin';
import { createContextRoom } from './context/context-wiring';
import type { RoomService } from './context/room-service';

export interface ServicesOptions {
  dataDir: string;
  /** Overrides the saved Ollama address (the `--ollama URL` flag); saved so the UI shows it. */
  ollamaUrl?: string;
  nativeBinding?: string;
  /** Longest silence tolerated mid-stream (default: the leg's 2 minutes). */
  stallTimeoutMs?: number;
  log?: (message: string) => void;
  /** Where API keys live: the shell passes Electron safeStorage's; default the 0600 `<dataDir>/secrets.json`. */
  secrets?: SecretStore;
  /** Engine knobs for tests (tools, step limit, retry pause, titles). */
  chat?: Partial<Pick<ChatWiringOptions, 'tools' | 'maxSteps' | 'retryDelayMs' | 'titles' | 'appLayer' | 'alias'>>;
  /** The GPU probe's machine (tests feed recorded outputs); default the real one. */
  probeHost?: ProbeHost;
  /** Delay before the startup blob GC (default 30 s; tests shorten it). */
  startupGcDelayMs?: number;
  /** Bounds of document extraction (time, memory, workers at once); tests tighten them. */
  extraction?: Partial<ExtractionLimits>;
  /** Starts a document reader process (a utilityProcess in the shell); default a Node fork (serve mode, tests). */
  documentReader?: ReaderSpawner;
  /** The models folder (the `--models-dir` flag); saved so the UI shows it. Default `<dataDir>/models`. */
  modelsDir?: string;
  /** Starts the built-in engine process (a fork in serve mode, a utilityProcess in the shell); absent: unavailable. */
  builtinEngine?: EngineSpawner;
  /**
   * Watch the server in use and tell the renderers when it comes back, goes away or lists other models
   * (`models:changed`). On in the app and serve mode; off by default so tests that count requests see only theirs.
   */
  watchServers?: boolean | Pick<ServerWatchDeps, 'upIntervalMs' | 'backoffMs'>;
  /**
   * Ask the server in use for its model list as soon as the services exist, for the first page that asks within
   * a few seconds (models/early-answer.ts). On in the app and serve mode; off by default, as `watchServers`.
   */
  prefetchModelList?: boolean;
  /** MCP knobs for tests: how long a server may take to start. */
  mcp?: { startTimeoutMs?: number; prepareWaitMs?: number };
}

export interface Services {
  dispatcher: Dispatcher;
  hub: EventHub;
  handlers: InvokeHandlers;
  db: Database;
  chat: ChatService;
  /** The model library and the built-in engine (the shell reveals files; tests reach the engine process). */
  library: LibraryParts;
  /** The MCP tool servers (issue 19). */
  mcp: McpManager;
  /**
   * Stops everything. MCP servers get a polite stop at once (stdin closed, SIGTERM to their process groups) and
   * SIGKILL after a short grace or when this process exits, whichever comes first; `closed` resolves when they
   * are gone, for a carrier that can wait.
   */
  close(): void;
  closed: Promise<void>;
}

export function createServices(options: ServicesOptions): Services {
  const log = options.log ?? ((m: string) => console.error(m));
  preparePrivateDataDir(options.dataDir, log);
  const { db, lock, reserve } = openLockedDatabase(options.dataDir, { log, ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}) });
  // SQLite creates the database (and its -wal/-shm, with the database's mode) under the process umask.
  tightenFiles(options.dataDir, log);
  const store = new ConversationStore(db, reserve);
  const hub = new EventHub();
  const settings = new SettingsStore(db, (saved) => hub.emit('settings:changed', { settings: saved }));
  const blobs = new BlobStore(db, options.dataDir);
  const search = new SearchStore(db);
  const extraction = new ExtractionRunner(options.extraction, options.documentReader);
  const sidecars = new Sidecars((digest) => blobs.pathOf(digest));
  const content = new AttachmentContent({ blobs, sidecars, runner: extraction, now: Date.now, log });
  const removeSidecars = (digests: readonly string[]) => sidecars.removeFor(digests);
  const flags = { ...(options.ollamaUrl ? { ollamaUrl: options.ollamaUrl } : {}), ...(options.modelsDir ? { modelsDir: options.modelsDir } : {}) };
  if (!settings.useForThisRun(flags)) log('storage: the disk is full: the addresses given on the command line are used but not saved');

  // One secret store for API keys and MCP servers' env and header values (both "stored like API keys").
  const secrets = options.secrets ?? new FileSecretStore(join(options.dataDir, 'secrets.json'));
  const storeImage = (bytes: Uint8Array, mime: string, name: string) => blobs.put(bytes, { name, mime }, Date.now());
  const builtins = builtinToolList();
  const mcp = new McpManager({ db, secrets, emit: hub.emit, newId: randomUUID, now: Date.now, storeImage, reservedNames: builtins.map((t) => t.schema.name), ...options.mcp });
  const lib = createLibrary({
    db,
    dataDir: options.dataDir,
    modelsDirSetting: () => settings.get().modelsDir,
    idleMinutes: () => settings.get().builtinIdleMinutes,
    spawner: options.builtinEngine ?? null,
    probeHost: options.probeHost ?? nodeProbeHost(),
    emit: hub.emit,
    newId: randomUUID,
    log,
    renamed: (from, to) => modelManager.renameAliasModel(BUILTIN_CONNECTION_ID, from, to),
  });
  const aliases = new AliasStore(db, randomUUID);
  const conversationSettings = new ConversationSettingsStore(db, (conversationId, saved) => hub.emit('conversations:changed', { conversationId, settings: saved }));
  const refs = aliasRefs(aliases);
  let watch: ServerWatch | null = null;
  const modelManager = createModelHandlers({
    watchNow: () => watch?.nudge(),
    modelNamesOf: async (connectionId) => {
      const connection = chatParts.connections.get(connectionId);
      if (!connection) throw new UserFacingError('not-found', 'That connection no longer exists: choose the model again.');
      try {
        return { label: connection.label, models: await modelNamesOf(connection) };
      } catch {
        return { label: connection.label, models: null };
      }
    },
    db,
    baseUrl: () => settings.get().ollamaUrl,
    emit: hub.emit,
    newId: randomUUID,
    log,
    ...(options.probeHost ? { probeHost: options.probeHost } : {}),
    contextWindowOf: (req, resolver) =>
      effectiveWindow(req, {
        alias: refs.route, connection: chatParts.engineConnection, capabilities: chatParts.capabilities, resolver,
        estimateRatio: (m) => chatParts.calibration.ratio(m), builtinWindow: (file) => lib.builtin.windowFor(file),
      }),
  });
  // The out-of-room service needs the chat, and the chat its auto-compact: bound once both exist.
  const late: { room?: RoomService } = {};
  const chatParts = createChat({
    db,
    dataDir: options.dataDir,
    store,
    ollamaUrl: () => settings.get().ollamaUrl,
    readBlob: (id) => blobs.read(id),
    attachment: (claim) => blobs.describe(claim),
    attachments: content,
    emit: hub.emit,
    newId: randomUUID,
    now: Date.now,
    log,
    secrets,
    tools: new ToolRegistry(builtins, [mcp.provider]),
    storeImage,
    conversationTools: (id) => conversationSettings.toolsOn(id),
    ...(options.stallTimeoutMs ? { stallTimeoutMs: options.stallTimeoutMs } : {}),
    alias: refs.route,
    aliasNamed: refs.named,
    conversationLayer: (id) => conversationSettings.layer(id),
    saveConversationSettings: (id, s) => void conversationSettings.update(id, s),
    contextWindow: (baseUrl, model) => modelManager.windows.resolve(baseUrl, model),
    builtin: { service: lib.builtin, requests: lib.requests, modelsDir: lib.modelsDir },
    ollamaShow: (baseUrl, model) => modelManager.shows.get(baseUrl, model),
    beforeAnswer: (first, o, signal) => (late.room ? late.room.beforeAnswer(first, o, signal) : Promise.resolve(first)),
    busyReason: (id) => late.room?.busyReason(id),
    // Answering: a document read meanwhile yields the CPU (documents/reading-pace.ts); after, Ollama's Running is read.
    answering: (on) => { extraction.setAnswering(on); if (!on) modelManager.answered(); },
    ...options.chat,
  });
  const chat = chatParts.chat;
  const context = createContextRoom({
    db,
    store,
    chat: chatParts,
    emit: hub.emit,
    newId: randomUUID,
    now: Date.now,
    log,
    alias: refs.route,
    aliasId: (model) => refs.of(model)?.id,
    modelLabel: refs.label,
    conversationLayer: (id) => conversationSettings.layer(id),
    conversationTools: (id) => conversationSettings.toolsOn(id),
    copySettings: (from, to) => {
      const kept = conversationSettings.get(from);
      if (kept) conversationSettings.update(to, kept);
    },
    windows: {
      ollamaCost: (baseUrl, model, window) => modelManager.models.windowCost(model, window, baseUrl),
      keepOllama: (baseUrl, model, window) => void modelManager.models.setContext(model, window, 'user', baseUrl),
      builtinCost: (file, window) => lib.builtin.windowCost(file, window),
      keepBuiltin: (file, window) => void lib.handlers['library:set-context']({ file, contextWindow: window }),
    },
  });
  late.room = context.room;

  const cancelStartupGc = scheduleStartupGc(blobs, log, Date.now, options.startupGcDelayMs, removeSidecars);
  /** The connection the composer uses (Settings → connections); the default Ollama one if that is gone. */
  const activeConnection = () => chatParts.connections.get(settings.get().activeConnectionId) ?? chatParts.connections.get(DEFAULT_CONNECTION_ID);
  /** A connection by id (the alias editor lists an alias's own connection), else the one the composer uses. */
  const connectionOrActive = (connectionId?: string) => {
    if (connectionId === undefined) return activeConnection();
    const connection = chatParts.connections.get(connectionId);
    if (!connection) throw new UserFacingError('not-found', 'That connection no longer exists.');
    return connection;
  };
  /** The models of a connection, by default the one the composer uses (Settings → connections). */
  const listModels = async (connectionId?: string) => {
    const active = connectionOrActive(connectionId);
    if (active?.kind === 'builtin') return lib.listModels();
    if (!active || active.kind === 'ollama') return listOllamaWithDetails(active?.baseUrl ?? settings.get().ollamaUrl, modelManager.shows);
    const models = await listV1Models(active.kind, active.baseUrl, chatParts.connections.headersFor(active.id));
    if (active.kind !== 'llama-server') return models;
    // The list is read on every page load and connection change: the moment to see a restarted server (another
    // -c, another model) instead of what it said before. /props gives the capabilities and the window (issue 13).
    chatParts.capabilities.forget(active.id);
    const connection = chatParts.engineConnection(active.id);
    return Promise.all(models.map(async (m) => withCapabilities(m, await chatParts.capabilities.get(connection, m.name))));
  };
  /** The model names on a connection, cheaply (an alias may not take one of them). */
  const modelNamesOf = async (connection: ConnectionInfo): Promise<string[]> => {
    if (connection.kind === 'builtin') return (await lib.listModels()).map((m) => m.name);
    if (connection.kind === 'ollama') return [...(await tagDigests(connection.baseUrl)).keys()];
    return (await listV1Models(connection.kind, connection.baseUrl, chatParts.connections.headersFor(connection.id))).map((m) => m.name);
  };
  /** Which server a model list is of: an early list is handed out only for the server it came from. */
  const listKey = () => {
    const active = activeConnection();
    return active ? `${active.id}\n${active.kind}\n${active.baseUrl}` : `ollama\n${settings.get().ollamaUrl}`;
  };
  const earlyList = options.prefetchModelList ? earlyAnswer(() => listModels(), listKey(), { now: Date.now, freshMs: 10_000 }) : null;
  if (options.watchServers) {
    watch = new ServerWatch({
      look: async () => {
        const active = activeConnection();
        return active ? lookAtServer(active, { modelsDir: () => lib.modelsDir(), headersFor: (id) => chatParts.connections.headersFor(id) }) : null;
      },
      emit: (change) => {
        // What was worked out for the old list (windows, capabilities) is read again for the new one.
        modelManager.windows.forget();
        chatParts.capabilities.forget(change.connectionId);
        earlyList?.forget();
        hub.emit('models:changed', change);
        if (change.connectionId === BUILTIN_CONNECTION_ID) hub.emit('library:changed', { reason: 'folder' });
      },
      ...(typeof options.watchServers === 'object' ? options.watchServers : {}),
    });
    watch.start();
  }
  const importUploads = new ImportUploads({ newId: randomUUID });
  const importText = async (text: string): Promise<{ conversationId: string }> => {
    const { conversationId } = await importConversation({ db, store, blobs, newId: randomUUID }, text, Date.now());
    hub.emit('conversations:changed', { conversationId });
    return { conversationId };
  };
  const handlers: InvokeHandlers = {
    ...modelManager.handlers,
    ...lib.handlers,
    ...chatParts.handlers,
    ...createMcpHandlers(mcp, randomUUID),
    ...context.handlers,
    'conversations:list': (page) => store.listConversations(page),
    'conversations:open': ({ conversationId, tail, before }) => conversationView(store, conversationId, tail, before, chatParts.engine),
    'conversations:delete': ({ conversationId }) => {
      // The renderer's undo window is over: this delete is for good, so its unique attachments go too.
      chat.stopConversation(conversationId);
      const released = conversationBlobs(db, conversationId);
      const deleted = store.deleteConversation(conversationId);
      hub.emit('conversations:changed', { conversationId });
      if (deleted && released && released.digests.length > 0) void collect(blobs, log, { now: Date.now(), released }, removeSidecars);
      return { deleted };
    },
    'conversations:get-settings': ({ conversationId }) => conversationSettings.require(conversationId),
    'conversations:update-settings': ({ conversationId, systemPrompt, think, tools }) => conversationSettings.update(conversationId, { systemPrompt, think, ...(tools !== undefined ? { tools } : {}) }),
    'chat:send': (req) => {
      const result = chat.send(req);
      settings.update({ defaultModel: req.model });
      return result;
    },
    'conversations:rename': ({ conversationId, title }) => {
      const renamed = store.renameConversation(conversationId, title.trim() || 'New chat', Date.now());
      hub.emit('conversations:changed', { conversationId });
      return { renamed };
    },
    'conversations:export': ({ conversationId, format }) => exportFile({ db, store, blobs, live: chatParts.engine.live }, conversationId, format),
    'conversations:import': ({ text }) => importText(text),
    'conversations:import-begin': ({ size, name }) => importUploads.begin(size, name),
    'conversations:import-chunk': ({ uploadId, offset, dataBase64 }) => importUploads.append(uploadId, offset, Buffer.from(dataBase64, 'base64')),
    'conversations:import-finish': ({ uploadId }) => importText(importUploads.take(uploadId)),
    'conversations:import-cancel': ({ uploadId }) => ({ cancelled: importUploads.cancel(uploadId) }),
    'conversations:search': ({ query }) => search.search(query, 30).map(toSearchResult),
    'conversations:switch-branch': ({ turnId }) => {
      const turn = store.getTurn(turnId);
      if (!turn) throw new UserFacingError('not-found', 'That message no longer exists.');
      store.switchBranch(turnId);
      return conversationView(store, turn.conversationId);
    },
    'chat:stop': ({ turnId }) => ({ stopped: chat.stop(turnId) }),
    'chat:regenerate': (req) => chat.regenerate(req),
    'chat:edit-and-resend': (req) => chat.editAndResend(req),
    'attachments:add': ({ name, mime, dataBase64 }) => blobs.put(Buffer.from(dataBase64, 'base64'), { name, mime }, Date.now()),
    'attachments:get': ({ id }) => {
      const bytes = blobs.read(id);
      if (!bytes) throw new UserFacingError('not-found', 'That attachment is no longer stored.');
      // The type the renderer makes its blob URL with comes from the bytes, never from a stored claim.
      return { mime: servedType(bytes), dataBase64: Buffer.from(bytes).toString('base64') };
    },
    'attachments:inspect': ({ block, model, connectionId }) => {
      // The server the message would go to: an alias names its own connection.
      const connection = chatParts.engineConnection(refs.route(model)?.connectionId ?? connectionId);
      return content.inspect(block, { anthropic: connection.kind === 'anthropic', counter: tokenCounterFor(connection) });
    },
    'attachments:preview': async ({ block }) => ({ text: await content.preview(block) }),
    'models:list': async ({ connectionId }) => {
      if (connectionId !== undefined && connectionId !== activeConnection()?.id) return listModels(connectionId);
      try {
        return await (earlyList?.take(listKey()) ?? listModels());
      } catch (err) {
        watch?.sawFailure(settings.get().activeConnectionId, err instanceof Error ? err.message : String(err));
        throw err;
      }
    },
    'settings:get': () => settings.get(),
    'settings:update': (patch) => {
      const next = settings.update(patch);
      earlyList?.forget();
      // Another server or address: look at it now rather than at the next tick.
      if (patch.activeConnectionId !== undefined || patch.ollamaUrl !== undefined) watch?.nudge();
      if (patch.modelsDir !== undefined) {
        chatParts.capabilities.forget(BUILTIN_CONNECTION_ID);
        hub.emit('library:changed', { reason: 'folder' });
      }
      return next;
    },
  };

  mcp.startAtLaunch();
  let closed: Promise<void> = Promise.resolve();
  return {
    dispatcher: createDispatcher(handlers, log),
    hub,
    handlers,
    db,
    chat,
    library: lib,
    mcp,
    get closed() {
      return closed;
    },
    close: () => {
      watch?.stop();
      closed = mcp.close();
      cancelStartupGc();
      void extraction.close();
      modelManager.close();
      lib.close();
      db.close();
      lock.release();
    },
  };
}
