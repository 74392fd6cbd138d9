/**
 * The IPC handlers of the model manager, GPU probe and aliases, merged into the services' handler table.
 */
import type { Database } from 'better-sqlite3';
import type { ConnectionKind } from '../../shared/connections';
import type { ModelInvokeContract } from '../../shared/models-ipc';
import type { Alias, ContextWindowChoice } from '../../shared/models';
import { aliasFromModel } from '../aliases/alias-create-body';
import { refuseClash } from '../aliases/alias-names';
import { AliasStore } from '../aliases/alias-store';
import { materializeAlias, refreshAliasStatuses } from '../aliases/alias-sync';
import { DEFAULT_CONNECTION_ID, DEFAULT_CONNECTION_LABEL } from '../connections/connection-store';
import { joinUrl } from '../connections/server-url';
import type { EmitEvent } from '../events';
import { UserFacingError } from '../errors';
import { nodeProbeHost } from '../gpu/node-host';
import type { ProbeHost } from '../gpu/types';
import { ContextWindowResolver } from './context-window';
import { refuseBeyondTrained } from './kept-window';
import { llamaServerInfo } from './llama-server-info';
import { ModelService, type NamedServer } from './model-service';
import { ModelSettingsStore } from './model-settings-store';
import { RunningWatch } from './running-watch';
import { serverVersion } from './ollama-admin';
import { ShowCache } from './show-cache';
import { showModel } from './ollama-admin';

/** The least GPU memory that may be set by hand: less than any GPU a model runs on. */
const MIN_GPU_OVERRIDE_BYTES = 256 * 1024 ** 2;

export type ModelHandlers = {
  [C in keyof ModelInvokeContract]: (req: ModelInvokeContract[C]['req']) => Promise<ModelInvokeContract[C]['res']> | ModelInvokeContract[C]['res'];
};

export interface ModelHandlerDeps {
  db: Database;
  /** The default Ollama connection's address (the Ollama in Settings: aliases, version). */
  baseUrl: () => string;
  /** The Ollama the Models screen manages and its name (./model-service.ts screen). */
  screen?: () => NamedServer;
  /** The name of the saved Ollama connection at an address (./model-service.ts nameAt). */
  nameAt?: (baseUrl: string) => string | undefined;
  emit: EmitEvent;
  newId: () => string;
  log: (message: string) => void;
  probeHost?: ProbeHost;
  /** `models:context-window` with aliases and connections (services); default: the resolver on the default Ollama. */
  contextWindowOf?: (req: { model: string; connectionId?: string }, resolver: ContextWindowResolver) => Promise<ContextWindowChoice>;
  /** Look at the server in use now (services' ServerWatch); absent where nothing watches. */
  watchNow?: () => void;
  /**
   * The model names on a connection and what it is called, for refusing an alias name that would hide one;
   * `models` null when the server cannot be asked now (the name is then not refused on a guess).
   */
  modelNamesOf?: (connectionId: string) => Promise<{ label: string; models: string[] | null }>;
}

/** The server an answer ran on, as the Running panel's looks need it. */
export interface AnswerServer {
  kind: ConnectionKind;
  baseUrl: string;
}

export interface ModelManager {
  handlers: ModelHandlers;
  models: ModelService;
  /** `/api/show` answers shared with the model list. */
  shows: ShowCache;
  /** The window an Ollama request carries when no layer names one. */
  windows: ContextWindowResolver;
  /** Points a connection's aliases of model `from` at `to` (a file renamed in the library); other tabs are told. */
  renameAliasModel(connectionId: string, from: string, to: string): void;
  /** An answer on `on` has ended: Ollama may hold a model it loaded for it, which every page's Running panel shows. */
  answered(on: AnswerServer): void;
  /** An answer's first token came on `on`: Ollama has loaded its model by now, which every page's Running panel shows. */
  answerStarted(on: AnswerServer): void;
  close(): void;
}

export function createModelHandlers(deps: ModelHandlerDeps): ModelManager {
  const settings = new ModelSettingsStore(deps.db);
  const aliases = new AliasStore(deps.db, deps.newId);
  const shows = new ShowCache();
  // The recommendation reads the same cached /api/show as the model list and the engine; a miss asks directly,
  // which also yields the server's own error message.
  const show = async (baseUrl: string, model: string, name?: string) => (await shows.get(baseUrl, model)) ?? showModel(baseUrl, model, name);
  const models = new ModelService({ baseUrl: deps.baseUrl, ...(deps.screen ? { screen: deps.screen } : {}), ...(deps.nameAt ? { nameAt: deps.nameAt } : {}), settings, emit: deps.emit, probeHost: deps.probeHost ?? nodeProbeHost(), newId: deps.newId, log: deps.log, show });
  const windows = new ContextWindowResolver({
    stored: (baseUrl, model) => settings.getWindow(baseUrl, model),
    // Ollama's defaults for a plain `ollama serve`: flash attention where supported, an f16 cache.
    recommend: (baseUrl, model) => models.recommend(model, true, 'f16', baseUrl),
    nameOf: (baseUrl) => models.nameOf(baseUrl),
  });
  const running = new RunningWatch({ read: () => models.running(), announce: (list) => deps.emit('models:running-changed', { running: list }) });
  /** Every page's picker and Models screen follow an alias saved anywhere (a tab shows what another changed). */
  const announce = <T>(result: T): T => {
    deps.emit('aliases:changed', { aliases: aliases.list() });
    return result;
  };
  /** Every page's meter and model rows read the windows again (another tab's composer showed the old one). */
  const windowsChanged = <T>(result: T): T => {
    deps.emit('models:windows-changed', {});
    return result;
  };
  const refuseHiddenModel = async (name: string, connectionId: string, own?: Alias) => {
    if (!deps.modelNamesOf) return;
    const { label, models } = await deps.modelNamesOf(connectionId);
    refuseClash(name, models, label, own);
  };
  /** The context `model` was trained for, as the server at `baseUrl` describes it; null where it cannot say now. */
  const trainedContextOf = async (baseUrl: string, model: string): Promise<number | null> => {
    const details = await show(baseUrl, model).catch(() => null);
    return details?.architecture?.contextLength ?? null;
  };
  const handlers: ModelHandlers = {
    'models:show': ({ model }) => models.show(model),
    'models:pull': ({ model }) => models.pull(model),
    'models:cancel-pull': ({ pullId }) => ({ cancelled: models.cancelPull(pullId) }),
    'models:pulls': () => models.pullsReported(),
    'models:delete': async ({ model }) => {
      await models.delete(model);
      shows.forget(model);
      windows.forget();
      // Every page's picker and Models screen drop it now (`models:changed`), not at the watch's next look.
      deps.watchNow?.();
      return { deleted: true };
    },
    'models:running': async () => {
      const list = await models.running();
      // A page's Refresh that sees a change tells every page, not only itself (round 8, engine #3).
      running.saw(list);
      return list;
    },
    'models:unload': async ({ model }) => {
      await models.unload(model);
      // Every page's Running panel drops it, not only this one's (which reads the list itself too).
      await running.look();
      return { unloaded: true };
    },
    'models:version': async () => ({ version: await serverVersion(deps.baseUrl(), DEFAULT_CONNECTION_LABEL) }),
    // Details and its window are the model's on the server the Models screen lists (context audit #1), as are
    // list, show, delete, running and unload.
    'models:recommend-context': ({ model, flashAttention, kvCacheType }) => models.recommend(model, flashAttention ?? true, kvCacheType ?? 'f16', models.screenUrl()),
    'models:set-context': async ({ model, contextWindow, source }) => {
      // Taken once: the trained-context check and the kept window are of one server, even if the active one changes
      // while `/api/show` is asked.
      const baseUrl = models.screenUrl();
      // The server down or the model unknown to it: its trained context is unknown, and the window is kept as typed.
      if (contextWindow !== null) refuseBeyondTrained(model, contextWindow, await trainedContextOf(baseUrl, model));
      return windowsChanged(models.setContext(model, contextWindow, source ?? 'user', baseUrl));
    },
    'models:context-window': (req) => (deps.contextWindowOf ? deps.contextWindowOf(req, windows) : windows.resolve(deps.baseUrl(), req.model, { wait: req.wait === true })),
    'models:llama-server-info': ({ baseUrl }) => llamaServerInfo(baseUrl),
    'gpu:probe': () => models.gpu(),
    'models:watch-now': () => {
      deps.watchNow?.();
      return { ok: true as const };
    },
    'gpu:set-override': ({ bytes }) => {
      // `1e-9` GiB typed used to be kept as 1 byte (and shown as "0", which Settings then refused).
      if (bytes !== null && bytes < MIN_GPU_OVERRIDE_BYTES) throw new UserFacingError('invalid-payload', 'GPU memory set by hand must be at least 0.25 GiB (or empty to find it out).', 'gpuOverride');
      windows.forget();
      return models.setGpuOverride(bytes).then(windowsChanged);
    },
    'aliases:list': () => refreshAliasStatuses(aliases, deps.baseUrl()),
    'aliases:create': async (input) => {
      await refuseHiddenModel(input.name, input.connectionId);
      return announce(aliases.create(input));
    },
    'aliases:update': async ({ id, alias, basedOn }) => {
      await refuseHiddenModel(alias.name, alias.connectionId, aliases.require(id));
      return announce(aliases.update(id, alias, basedOn));
    },
    'aliases:delete': ({ id }) => announce({ deleted: aliases.delete(id) }),
    'aliases:materialize': async ({ id }) => {
      // The model manager works on the Ollama connection: an alias of another server's model would be created in
      // Ollama from a model Ollama does not have (it failed with Ollama's own "model not found").
      if (aliases.require(id).connectionId !== DEFAULT_CONNECTION_ID) {
        throw new UserFacingError('invalid-payload', 'Only an alias of an Ollama model can be created in Ollama; this one names a model of another server.');
      }
      return announce(await materializeAlias(aliases, deps.baseUrl(), id, DEFAULT_CONNECTION_LABEL));
    },
    'aliases:from-model': async ({ model, name }) => aliasFromModel(await models.show(model), name, DEFAULT_CONNECTION_ID),
  };
  const renameAliasModel = (connectionId: string, from: string, to: string) => {
    if (aliases.renameModel(connectionId, from, to) > 0) announce(undefined);
  };
  const close = () => {
    running.close();
    models.cancelAll();
  };
  /**
   * Only an answer on the Ollama the Running panel reads changes what it shows (round 9, engine #3): one on
   * llama-server or the built-in engine read Ollama's /api/ps at its first token and at its end, and found nothing.
   */
  const lookAfter = (on: AnswerServer) => {
    if (on.kind === 'ollama' && joinUrl(on.baseUrl, '') === joinUrl(models.screenUrl(), '')) void running.look();
  };
  return { handlers, models, shows, windows, renameAliasModel, answered: lookAfter, answerStarted: lookAfter, close };
}
