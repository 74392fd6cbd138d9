/**
 * The models of a connection, as the picker, the alias editor and the early model list ask for them: the
 * connection the composer uses (Settings → connections) unless another is named.
 */
import { UserFacingError } from '../errors';
import { DEFAULT_CONNECTION_ID } from '../connections/connection-store';
import { connectionName, type ConnectionInfo } from '../../shared/connections';
import type { ModelSummary } from '../../shared/ipc';
import type { ConnectionStore } from '../connections/connection-store';
import type { CapabilityCache } from '../engine/capabilities';
import type { EngineConnection } from '../engine/types';
import type { LibraryParts } from '../library/library-wiring';
import type { ShowCache } from './show-cache';
import { listOllamaWithDetails, listV1Models, withCapabilities } from './model-list';
import { tagDigests } from './ollama-admin';

export interface ConnectionModelsDeps {
  /** The connection the composer uses and the Ollama address, as saved now. */
  settings: () => { activeConnectionId: string; ollamaUrl: string };
  /** Read when asked (the chat is wired after the model manager that asks for names). */
  chat: () => { connections: ConnectionStore; capabilities: CapabilityCache; engineConnection: (id?: string) => EngineConnection };
  lib: Pick<LibraryParts, 'listModels'>;
  shows: ShowCache;
}

export interface ConnectionModels {
  /** The connection the composer uses (Settings → connections); the default Ollama one if that is gone. */
  activeConnection(): ConnectionInfo | undefined;
  /** The models of a connection, by default the one the composer uses. */
  listModels(connectionId?: string): Promise<ModelSummary[]>;
  /** The model names on a connection, cheaply (an alias may not take one of them). */
  modelNamesOf(connection: ConnectionInfo): Promise<string[]>;
  /** Which server a model list is of: an early list is handed out only for the server it came from. */
  listKey(): string;
}

export function connectionModels(deps: ConnectionModelsDeps): ConnectionModels {
  const { settings, chat, lib } = deps;
  const activeConnection = () => chat().connections.get(settings().activeConnectionId) ?? chat().connections.get(DEFAULT_CONNECTION_ID);
  /** A connection by id (the alias editor lists an alias's own connection), else the one the composer uses. */
  const connectionOrActive = (connectionId?: string) => {
    if (connectionId === undefined) return activeConnection();
    const connection = chat().connections.get(connectionId);
    if (!connection) throw new UserFacingError('not-found', 'That connection no longer exists.');
    return connection;
  };
  const listModels = async (connectionId?: string) => {
    const active = connectionOrActive(connectionId);
    if (active?.kind === 'builtin') return lib.listModels();
    if (!active || active.kind === 'ollama') return listOllamaWithDetails(active?.baseUrl ?? settings().ollamaUrl, deps.shows, active && connectionName(active));
    const parts = chat();
    const models = await listV1Models(active, parts.connections.headersFor(active.id));
    if (active.kind !== 'llama-server') return models;
    // The list is read on every page load and connection change: the moment to see a restarted server (another
    // -c, another model) instead of what it said before. /props gives the capabilities and the window (issue 13).
    parts.capabilities.forget(active.id);
    const connection = parts.engineConnection(active.id);
    return Promise.all(models.map(async (m) => withCapabilities(m, await parts.capabilities.get(connection, m.name))));
  };
  const modelNamesOf = async (connection: ConnectionInfo): Promise<string[]> => {
    if (connection.kind === 'builtin') return (await lib.listModels()).map((m) => m.name);
    if (connection.kind === 'ollama') return [...(await tagDigests(connection.baseUrl, connectionName(connection))).keys()];
    return (await listV1Models(connection, chat().connections.headersFor(connection.id))).map((m) => m.name);
  };
  const listKey = () => {
    const active = activeConnection();
    return active ? `${active.id}\n${active.kind}\n${active.baseUrl}` : `ollama\n${settings().ollamaUrl}`;
  };
  return { activeConnection, listModels, modelNamesOf, listKey };
}
