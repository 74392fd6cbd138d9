/**
 * The main process's services, wired once and shared by both carriers: the Electron shell and serve mode.
 * Plain Node: nothing here imports electron.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { aliasRefs } from './aliases/alias-refs';
import { refuseAliasBeyondTrained } from './aliases/alias-window-limit';
import { AliasStore } from './aliases/alias-store';
import { scheduleStartupGc } from './blobs/blob-gc';
import { BlobStore } from './blobs/blob-store';
import { Sidecars } from './blobs/sidecars';
import { createChat } from './chat/chat-wiring';
import { createConversationHandlers } from './chat/conversation-handlers';
import { preparePrivateDataDir, tightenFiles } from './data-dir';
import { ConversationStore } from './db/conversation-store';
import { ConversationSettingsStore } from './db/conversation-settings';
import { DraftStore } from './db/draft-store';
import { openLockedDatabase } from './db/folder-lock';
import { SearchStore } from './db/search';
import { indexDocumentsInBackground } from './db/document-search';
import { SettingsStore } from './db/settings-store';
import { UserFacingError } from './errors';
import { EventHub } from './events';
import { FileSecretStore } from './secrets/secret-store';
import { McpManager } from './mcp/mcp-manager';
import { createMcpHandlers } from './mcp/mcp-handlers';
import { ApprovalGate } from './tools/approval-gate';
import { builtinToolList, ToolRegistry } from './tools/registry';
import { createDispatcher, type InvokeHandlers } from './ipc/dispatch';
import { AttachmentContent } from './documents/attachment-content';
import { ExtractionRunner } from './documents/extraction-runner';
import { BUILTIN_CONNECTION_ID, connectionName } from '../shared/connections';
import { DEFAULT_CONNECTION_LABEL } from './connections/connection-store';
import { effectiveWindow } from './models/effective-window';
import { createModelHandlers } from './models/model-handlers';
import { connectionModels } from './models/connection-models';
import { lookAtAnswerStart } from './models/answer-start-look';
import { nodeProbeHost } from './gpu/node-host';
import { createLibrary } from './library/library-wiring';
import { ServerWatch } from './models/server-watch';
import { folderSignature, listedSignature, lookAtServer } from './models/server-look';
import { earlyAnswer } from './models/early-answer';
import { createContextRoom } from './context/context-wiring';
import type { RoomService } from './context/room-service';
import type { Services, ServicesOptions } from './services-options';

export type { Services, ServicesOptions } from './services-options';

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
  const extraction = new ExtractionRunner(options.extraction, options.documentReader);
  const sidecars = new Sidecars((digest) => blobs.pathOf(digest));
  const content = new AttachmentContent({ blobs, sidecars, runner: extraction, now: Date.now, log });
  const search = new SearchStore(db, { ...options.search, documentText: content.searchableText });
  indexDocumentsInBackground(db, search.documents, log);
  const removeSidecars = (digests: readonly string[]) => sidecars.removeFor(digests);
  const flags = { ...(options.ollamaUrl ? { ollamaUrl: options.ollamaUrl } : {}), ...(options.modelsDir ? { modelsDir: options.modelsDir } : {}) };
  if (!settings.useForThisRun(flags)) log('storage: the disk is full: the addresses given on the command line are used but not saved');

  // One secret store for API keys and MCP servers' env and header values (both "stored like API keys").
  const secrets = options.secrets ?? new FileSecretStore(join(options.dataDir, 'secrets.json'));
  const storeImage = (bytes: Uint8Array, mime: string, name: string) => blobs.put(bytes, { name, mime }, Date.now());
  const builtins = builtinToolList();
  const approvals = new ApprovalGate();
  const mcp = new McpManager({ db, secrets, emit: hub.emit, newId: randomUUID, now: Date.now, storeImage, reservedNames: builtins.map((t) => t.schema.name), ...options.mcp });
  let watch: ServerWatch | null = null;
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
    // What a page was handed of the folder: a file shown and removed between two looks is still told (server-watch.ts).
    folderScanned: (models) => watch?.heard({ connectionId: BUILTIN_CONNECTION_ID, signature: folderSignature(models) }),
  });
  const aliases = new AliasStore(db, randomUUID);
  const conversationSettings = new ConversationSettingsStore(db, (conversationId, saved) => hub.emit('conversations:changed', { conversationId, settings: saved }));
  const refs = aliasRefs(aliases);
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
    // The very address the engine asks on that connection (chat-wiring's engineConnection): a window the Models
    // screen keeps is stored under it, and a send reads it back by it (context audit #1).
    // Named as the rest of the app names it (shared connectionName): its failures said "the server at http://…".
    screen: () => {
      const active = chatParts.connections.get(settings.get().activeConnectionId);
      return active?.kind === 'ollama' ? { baseUrl: active.baseUrl, name: connectionName(active) } : { baseUrl: settings.get().ollamaUrl, name: DEFAULT_CONNECTION_LABEL };
    },
    nameAt: (baseUrl) => {
      const saved = chatParts.connections.list().find((c) => c.kind === 'ollama' && c.baseUrl === baseUrl);
      return saved && connectionName(saved);
    },
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
    approvals,
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
    // Answering: a document read meanwhile yields the CPU (documents/reading-pace.ts). After an answer on Ollama, its Running is read.
    answering: (on) => extraction.setAnswering(on),
    answerEnded: (connection) => modelManager.answered(connection),
    ...options.chat,
  });
  const chat = chatParts.chat;
  // An answer's first token: Ollama holds its model now, which every page's Running panel shows (round 8, engine #2).
  const unhookAnswerStart = hub.connect(
    lookAtAnswerStart((conversationId) => {
      const connection = chat.answerConnection(conversationId);
      if (connection) modelManager.answerStarted(connection);
    }),
  );
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
  const { activeConnection, listModels, modelNamesOf, listKey } = connectionModels({
    settings: () => settings.get(),
    chat: () => chatParts,
    lib,
    shows: modelManager.shows,
  });
  const earlyList = options.prefetchModelList ? earlyAnswer(() => listModels(), listKey(), { now: Date.now, freshMs: 10_000 }) : null;
  if (options.watchServers) {
    watch = new ServerWatch({
      look: async () => {
        const active = activeConnection();
        return active ? lookAtServer(active, { modelsDir: () => lib.modelsDir(), headersFor: (id) => chatParts.connections.headersFor(id) }) : null;
      },
      log,
      emit: (change) => {
        // What was worked out for the old list (windows, capabilities) is read again for the new one.
        modelManager.windows.forget();
        chatParts.capabilities.forget(change.connectionId);
        earlyList?.forget();
        hub.emit('models:changed', change);
        // Every page's meter and the Models screen's rows ask for their windows again: a server back up may hold
        // another (llama-server restarted with another -c; models audit #3: the row kept the old n_ctx).
        if (change.reachable) hub.emit('models:windows-changed', {});
        if (change.connectionId === BUILTIN_CONNECTION_ID) hub.emit('library:changed', { reason: 'folder' });
      },
      ...(typeof options.watchServers === 'object' ? options.watchServers : {}),
    });
    watch.start();
  }
  const trainedOf = (file: string) =>
    lib.library
      .model(file)
      .then((m) => m.info.trainedContext)
      .catch(() => null);
  const handlers: InvokeHandlers = {
    ...modelManager.handlers,
    ...lib.handlers,
    ...chatParts.handlers,
    ...createMcpHandlers(mcp, randomUUID, approvals),
    ...context.handlers,
    ...createConversationHandlers({ db, store, blobs, search, settings, conversationSettings, drafts: new DraftStore(db), content, chat: chatParts, refs, emit: hub.emit, log, removeSidecars }),
    // An alias of a GGUF is refused a window past the model's trained context, as the model's own row is.
    'aliases:create': async (input) => {
      await refuseAliasBeyondTrained(input, trainedOf);
      return modelManager.handlers['aliases:create'](input);
    },
    'aliases:update': async (req) => {
      await refuseAliasBeyondTrained(req.alias, trainedOf);
      return modelManager.handlers['aliases:update'](req);
    },
    'models:list': async ({ connectionId }) => {
      if (connectionId !== undefined && connectionId !== activeConnection()?.id) return listModels(connectionId);
      const active = activeConnection();
      try {
        const models = await (earlyList?.take(listKey()) ?? listModels());
        // What a page was handed of a server: a model pulled and deleted between two looks is still told gone
        // (the built-in folder's lists are told by the library, as it reads the folder).
        if (active && active.kind !== 'builtin') watch?.heard({ connectionId: active.id, signature: listedSignature(models) });
        return models;
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
      if (patch.builtinIdleMinutes !== undefined) lib.builtin.idleMinutesChanged();
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
      unhookAnswerStart();
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
