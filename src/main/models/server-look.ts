import { connectionName, type ConnectionInfo } from '../../shared/connections';
import { probeJson } from '../connections/probe-http';
import { scanModelsFolder, type FolderFile } from '../library/models-folder';
import { parseProps } from './llama-server-info';
import { listV1Models } from './model-list';
import { ollamaTags } from './ollama-admin';
import type { ServerLook } from './server-watch';

export interface ServerLookDeps {
  /** The built-in engine's models folder. */
  modelsDir: () => string;
  /** A connection's saved headers (its API key), sent only to its own address. */
  headersFor: (connectionId: string) => Record<string, string>;
}

/**
 * A connection's model list, cheaply, as one string that changes when the list does (ServerWatch compares them):
 * names and digests from Ollama, ids from /v1/models, and for the built-in engine the models folder's files, so a
 * GGUF copied in or removed by hand shows as a model pulled or deleted on a server does.
 */
export async function lookAtServer(active: ConnectionInfo, deps: ServerLookDeps): Promise<ServerLook> {
  if (active.kind === 'builtin') {
    const { models } = await scanModelsFolder(deps.modelsDir());
    return { connectionId: active.id, signature: folderSignature(models) };
  }
  if (active.kind === 'ollama') {
    const tags = await ollamaTags(active.baseUrl, connectionName(active));
    const signature = tags.map((t) => `${t.name}@${t.digest ?? ''}`).sort().join('\n');
    return { connectionId: active.id, signature, listed: listedSignature(tags) };
  }
  const models = await listV1Models(active, deps.headersFor(active.id));
  const window = active.kind === 'llama-server' ? await llamaServerWindow(active, deps) : '';
  return { connectionId: active.id, signature: listedSignature(models) + window, listed: listedSignature(models) };
}

/**
 * A server's list as a page is handed it (`models:list`), by its names: ServerWatch compares it with the names its
 * next look finds, so a model pulled and deleted between two looks, shown by a page meanwhile, is still told gone.
 */
export function listedSignature(models: readonly { name: string }[]): string {
  return models
    .map((m) => m.name)
    .sort()
    .join('\n');
}

/** The models folder's GGUFs as ServerWatch compares them: a file added, removed or replaced changes it. */
export function folderSignature(models: readonly FolderFile[]): string {
  return models.map((m) => `${m.file}:${m.size}:${m.mtimeMs}`).join('\n');
}

/**
 * llama-server's window is its `-c`, fixed when it starts: restarted with another one, it lists the same model, so
 * the look says its n_ctx too (models audit #3: the Models screen's row kept the old window). A server whose /props
 * does not answer adds nothing.
 */
async function llamaServerWindow(active: ConnectionInfo, deps: ServerLookDeps): Promise<string> {
  const answer = await probeJson(active.baseUrl, '/props', deps.headersFor(active.id)).catch(() => null);
  const nCtx = answer?.status === 200 ? parseProps(answer.json).nCtx : null;
  return nCtx === null ? '' : `\nn_ctx ${nCtx}`;
}
