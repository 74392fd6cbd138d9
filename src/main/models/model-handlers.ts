/**
 * The IPC handlers of the model manager, GPU probe and aliases, merged into the services' handler table.
 */
import type { Database } from 'better-sqlite3';
import type { ModelInvokeContract } from '../../shared/models-ipc';
import { aliasFromModel } from '../aliases/alias-create-body';
import { AliasStore } from '../aliases/alias-store';
import { materializeAlias, refreshAliasStatuses } from '../aliases/alias-sync';
import type { EmitEvent } from '../events';
import { nodeProbeHost } from '../gpu/node-host';
import type { ProbeHost } from '../gpu/types';
import { llamaServerInfo } from './llama-server-info';
import { ModelService } from './model-service';
import { ModelSettingsStore } from './model-settings-store';
import { serverVersion } from './ollama-admin';

export type ModelHandlers = {
  [C in keyof ModelInvokeContract]: (req: ModelInvokeContract[C]['req']) => Promise<ModelInvokeContract[C]['res']> | ModelInvokeContract[C]['res'];
};

export interface ModelHandlerDeps {
  db: Database;
  /** The Ollama address in use; for now it is also the alias's connection id. */
  baseUrl: () => string;
  emit: EmitEvent;
  newId: () => string;
  log: (message: string) => void;
  probeHost?: ProbeHost;
}

export function createModelHandlers(deps: ModelHandlerDeps): { handlers: ModelHandlers; models: ModelService; close(): void } {
  const settings = new ModelSettingsStore(deps.db);
  const aliases = new AliasStore(deps.db, deps.newId);
  const models = new ModelService({ baseUrl: deps.baseUrl, settings, emit: deps.emit, probeHost: deps.probeHost ?? nodeProbeHost(), newId: deps.newId, log: deps.log });
  const handlers: ModelHandlers = {
    'models:show': ({ model }) => models.show(model),
    'models:pull': ({ model }) => models.pull(model),
    'models:cancel-pull': ({ pullId }) => ({ cancelled: models.cancelPull(pullId) }),
    'models:delete': async ({ model }) => {
      await models.delete(model);
      return { deleted: true };
    },
    'models:running': () => models.running(),
    'models:unload': async ({ model }) => {
      await models.unload(model);
      return { unloaded: true };
    },
    'models:version': async () => ({ version: await serverVersion(deps.baseUrl()) }),
    'models:recommend-context': ({ model, flashAttention, kvCacheType }) => models.recommend(model, flashAttention ?? true, kvCacheType ?? 'f16'),
    'models:set-context': ({ model, contextWindow, source }) => models.setContext(model, contextWindow, source ?? 'user'),
    'models:llama-server-info': ({ baseUrl }) => llamaServerInfo(baseUrl),
    'gpu:probe': () => models.gpu(),
    'gpu:set-override': ({ bytes }) => models.setGpuOverride(bytes),
    'aliases:list': () => refreshAliasStatuses(aliases, deps.baseUrl()),
    'aliases:create': (input) => aliases.create(input),
    'aliases:update': ({ id, alias }) => aliases.update(id, alias),
    'aliases:delete': ({ id }) => ({ deleted: aliases.delete(id) }),
    'aliases:materialize': ({ id }) => materializeAlias(aliases, deps.baseUrl(), id),
    'aliases:from-model': async ({ model, name }) => aliasFromModel(await models.show(model), name, deps.baseUrl()),
  };
  return { handlers, models, close: () => models.cancelAll() };
}
