import type { ModelSummary } from '../../shared/ipc';
import { UserFacingError } from '../errors';
import { LegError, sendRequest } from '../leg/http';
import { DEFAULT_CONNECTION_LABEL } from '../connections/connection-store';
import { joinUrl } from '../connections/server-url';
import { otherKind } from '../connections/test-connection';

interface TagsResponse {
  models?: {
    name?: unknown;
    model?: unknown;
    size?: unknown;
    details?: { family?: unknown; parameter_size?: unknown; quantization_level?: unknown };
  }[];
}

/** How long the list may take to begin, and to go on, before it is given up. */
const LIST_TIMEOUT_MS = 10_000;

const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);

/**
 * The models an Ollama server has, from `/api/tags`. `name`: the connection's, which its failures say (the banner
 * named a connection the user called "GPU box" as "Ollama"); the default Ollama connection's is "Ollama".
 */
export async function listOllamaModels(baseUrl: string, name = DEFAULT_CONNECTION_LABEL): Promise<ModelSummary[]> {
  let status: number;
  let text: string;
  try {
    const res = await sendRequest({ method: 'GET', url: joinUrl(baseUrl, '/api/tags'), headersTimeoutMs: LIST_TIMEOUT_MS, stallTimeoutMs: LIST_TIMEOUT_MS });
    status = res.status;
    text = await res.text();
  } catch (err) {
    if (err instanceof LegError && err.kind === 'unreachable') {
      throw new UserFacingError('server-unreachable', `Cannot reach ${name} at ${baseUrl}. Is it running? Start it, or change its address in Settings.`);
    }
    // Named as the list's other failures and llama-server's list (model-list.ts) name it: a timeout said "The
    // server at http://… did not answer in time." of a connection the user called "Desk GPU".
    const at = `${name} at ${baseUrl}`;
    if (err instanceof LegError && err.kind === 'timeout') throw new UserFacingError('server-unreachable', `${at} did not answer within ${LIST_TIMEOUT_MS / 1000} s.`);
    throw new UserFacingError('server-unreachable', err instanceof LegError ? err.naming(at) : err instanceof Error ? err.message : String(err));
  }
  if (status !== 200) {
    const other = status === 404 ? await otherKind('ollama', baseUrl, {}) : null;
    throw new UserFacingError('server-error', `${name} at ${baseUrl} answered ${status} when asked for its models.${other ? ` ${other}` : ''}`);
  }
  let parsed: TagsResponse;
  try {
    parsed = JSON.parse(text) as TagsResponse;
  } catch {
    throw new UserFacingError('server-error', `${name} at ${baseUrl} did not answer like Ollama (its model list is not JSON).`);
  }
  return (parsed.models ?? []).flatMap((m) => {
    const name = str(m.name) ?? str(m.model);
    if (!name) return [];
    return [
      {
        name,
        sizeBytes: typeof m.size === 'number' ? m.size : null,
        family: str(m.details?.family),
        parameterSize: str(m.details?.parameter_size),
        quantization: str(m.details?.quantization_level),
      },
    ];
  });
}
