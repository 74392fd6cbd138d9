/**
 * `models:list` for the connection the composer uses. Ollama: `/api/tags`, each model filled in from its
 * `/api/show` (capabilities, trained context), asked in parallel through the cache; a model whose details do
 * not come in time is listed with them unknown rather than failing the list. llama-server, OpenAI-compatible
 * servers and Anthropic: the ids `/v1/models` lists.
 */
import type { ConnectionKind } from '../../shared/connections';
import type { ModelSummary } from '../../shared/ipc';
import { describeProbeError, probeJson, serverMessage } from '../connections/probe-http';
import { capabilityNames } from '../engine/capabilities';
import type { ModelCapabilities } from '../engine/types';
import { UserFacingError } from '../errors';
import { LegError } from '../leg/http';
import { listOllamaModels } from './ollama-models';
import type { ShowCache } from './show-cache';

export async function listOllamaWithDetails(baseUrl: string, shows: ShowCache): Promise<ModelSummary[]> {
  const models = await listOllamaModels(baseUrl);
  const details = await Promise.all(models.map((m) => shows.get(baseUrl, m.name)));
  return models.map((m, i) => {
    const d = details[i];
    if (!d) return m;
    const contextLength = d.architecture?.contextLength ?? null;
    return {
      ...m,
      ...(d.capabilities.length > 0 ? { capabilities: d.capabilities } : {}),
      ...(contextLength !== null ? { contextLength } : {}),
    };
  });
}

/** Model ids of an OpenAI-shaped `/v1/models` (llama-server, LM Studio, vLLM, Anthropic's list has the same `data`). */
export async function listV1Models(kind: ConnectionKind, baseUrl: string, headers: Record<string, string>): Promise<ModelSummary[]> {
  let answer;
  try {
    answer = await probeJson(baseUrl, '/v1/models', headers);
  } catch (err) {
    // The leg's own "Cannot reach the server at X" would repeat what this line says (issue 13).
    if (err instanceof LegError && err.kind === 'unreachable') {
      throw new UserFacingError('server-unreachable', `Cannot reach ${SERVER_NAMES[kind]} at ${baseUrl}. Is it running? Start it, or change its address in Settings.`);
    }
    throw new UserFacingError('server-unreachable', `${SERVER_NAMES[kind]} at ${baseUrl} did not answer: ${describeProbeError(err)}`);
  }
  if (answer.status !== 200) throw new UserFacingError('server-error', `${baseUrl}/v1/models answered HTTP ${answer.status}: ${serverMessage(answer)}`);
  const data = answer.json && typeof answer.json === 'object' ? (answer.json as { data?: unknown }).data : undefined;
  if (!Array.isArray(data)) throw new UserFacingError('server-error', `The server at ${baseUrl} did not list its models (/v1/models has no "data").`);
  return data.flatMap((m: unknown) => {
    const id = m && typeof m === 'object' ? (m as { id?: unknown }).id : undefined;
    return typeof id === 'string' && id !== '' ? [{ name: id, sizeBytes: null, family: null, parameterSize: null, quantization: null }] : [];
  });
}

const SERVER_NAMES: Record<ConnectionKind, string> = {
  ollama: 'Ollama',
  'llama-server': 'llama-server',
  'openai-compatible': 'the OpenAI-compatible server',
  builtin: 'the built-in engine',
  anthropic: 'Anthropic',
};

/** A llama-server model with what `/props` says of it: capabilities for the badges, n_ctx as its window. */
export function withCapabilities(model: ModelSummary, caps: ModelCapabilities): ModelSummary {
  const names = capabilityNames(caps);
  return {
    ...model,
    ...(names.length > 0 ? { capabilities: names } : {}),
    ...(caps.serverContext !== undefined ? { contextLength: caps.serverContext } : {}),
  };
}
