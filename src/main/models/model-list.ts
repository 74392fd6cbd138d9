/**
 * `models:list` for the connection the composer uses. Ollama: `/api/tags`, each model filled in from its
 * `/api/show` (capabilities, trained context), asked in parallel through the cache; a model whose details do
 * not come in time is listed with them unknown rather than failing the list. llama-server, OpenAI-compatible
 * servers and Anthropic: the ids `/v1/models` lists, with llama-server's `meta.size` (bytes) and `meta.n_params`
 * where it writes them (conformance/llama-server/v1-models-deepseek.json); other servers write no size.
 */
import { connectionName, type ConnectionInfo } from '../../shared/connections';
import type { ModelSummary } from '../../shared/ipc';
import { describeProbeError, probeJson, serverMessage } from '../connections/probe-http';
import { capabilityNames } from '../engine/capabilities';
import { fromConnection } from '../engine/from-connection';
import type { ModelCapabilities } from '../engine/types';
import { UserFacingError } from '../errors';
import { LegError } from '../leg/http';
import { listOllamaModels } from './ollama-models';
import type { ShowCache } from './show-cache';

/** `name`: the connection's, for its failures (shared connectionName); the default Ollama connection's when absent. */
export async function listOllamaWithDetails(baseUrl: string, shows: ShowCache, name?: string): Promise<ModelSummary[]> {
  const models = await listOllamaModels(baseUrl, name);
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

/**
 * Model ids of an OpenAI-shaped `/v1/models` (llama-server, LM Studio, vLLM, Anthropic's list has the same `data`).
 * Its failures name the connection as the rest of the page does (shared connectionName), not by its kind.
 */
export async function listV1Models(connection: Pick<ConnectionInfo, 'label' | 'kind' | 'baseUrl'>, headers: Record<string, string>): Promise<ModelSummary[]> {
  const { baseUrl } = connection;
  const name = connectionName(connection);
  let answer;
  try {
    answer = await probeJson(baseUrl, '/v1/models', headers);
  } catch (err) {
    // The leg's own "Cannot reach the server at X" would repeat what this line says (issue 13).
    if (err instanceof LegError && err.kind === 'unreachable') {
      throw new UserFacingError('server-unreachable', `Cannot reach ${name} at ${baseUrl}. Is it running? Start it, or change its address in Settings.`);
    }
    // Said once: "X at … did not answer: The server did not answer within 10 s." said the same thing twice.
    const at = `${name} at ${baseUrl}`;
    throw new UserFacingError('server-unreachable', err instanceof LegError ? err.naming(at) : fromConnection(at, describeProbeError(err)));
  }
  if (answer.status !== 200) throw new UserFacingError('server-error', `${name} at ${baseUrl} answered HTTP ${answer.status} when asked for its models (/v1/models): ${serverMessage(answer)}`);
  const data = answer.json && typeof answer.json === 'object' ? (answer.json as { data?: unknown }).data : undefined;
  if (!Array.isArray(data)) throw new UserFacingError('server-error', `${name} at ${baseUrl} did not list its models (/v1/models has no "data").`);
  return data.flatMap((m: unknown) => {
    const id = m && typeof m === 'object' ? (m as { id?: unknown }).id : undefined;
    if (typeof id !== 'string' || id === '') return [];
    const meta = (m as { meta?: unknown }).meta;
    const { size, n_params: params } = meta && typeof meta === 'object' ? (meta as { size?: unknown; n_params?: unknown }) : {};
    return [{ name: id, sizeBytes: count(size), family: null, parameterSize: parameterCount(count(params)), quantization: null }];
  });
}

/** A count the server wrote as a whole number of at least 1; anything else is unknown. */
function count(v: unknown): number | null {
  return typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : null;
}

/**
 * llama-server's `meta.n_params` written as Ollama writes `parameter_size`, so both read alike on the rows and in
 * the picker: 8,030,261,248 → "8.0B", 494,032,768 → "494M", 674,240 → "674K".
 */
export function parameterCount(n: number | null): string | null {
  if (n === null) return null;
  // The largest unit the rounded figure reads at least 1 in: 999,950 is "1.0M", not "1000K".
  for (const [unit, letter] of [[1e12, 'T'], [1e9, 'B'], [1e6, 'M'], [1e3, 'K']] as const) {
    const tenths = (n / unit).toFixed(1);
    if (Number(tenths) >= 1) return `${Number(tenths) >= 100 ? (n / unit).toFixed(0) : tenths}${letter}`;
  }
  return String(n);
}


/** A llama-server model with what `/props` says of it: capabilities for the badges, n_ctx as its window. */
export function withCapabilities(model: ModelSummary, caps: ModelCapabilities): ModelSummary {
  const names = capabilityNames(caps);
  return {
    ...model,
    ...(names.length > 0 ? { capabilities: names } : {}),
    ...(caps.serverContext !== undefined ? { contextLength: caps.serverContext } : {}),
  };
}
