/**
 * Small JSON calls to an Ollama or llama-server (list, show, delete, ps, version, create): one request, one JSON
 * answer, failures turned into messages for the user. Streaming calls (pull) use the leg directly.
 */
import { joinUrl } from '../connections/server-url';
import { UserFacingError } from '../errors';
import { legFailure } from '../engine/from-connection';
import { LegError, sendRequest } from '../leg/http';

export interface JsonCall {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  body?: unknown;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface JsonAnswer {
  status: number;
  json: unknown;
  text: string;
}

/**
 * Sends one request and returns the status and parsed body (null when the body is not JSON). `name`: the saved
 * connection's (shared connectionName), which its failures say as an answer's do ("Cannot reach GPU box at …");
 * absent where no saved connection applies, the address alone.
 */
export async function callServer(baseUrl: string, call: JsonCall, name?: string): Promise<JsonAnswer> {
  const timeout = call.timeoutMs ?? 15_000;
  try {
    const res = await sendRequest({
      method: call.method,
      url: joinUrl(baseUrl, call.path),
      ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
      ...(call.signal ? { signal: call.signal } : {}),
      headersTimeoutMs: timeout,
      stallTimeoutMs: timeout,
    });
    const text = await res.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
    return { status: res.status, json, text };
  } catch (err) {
    // The Models screen and a pull said "Cannot reach the server at http://…" of a connection the user named.
    if (err instanceof LegError && name !== undefined) throw new UserFacingError('server-unreachable', legFailure(err, name, baseUrl));
    if (err instanceof LegError && err.kind === 'unreachable') {
      throw new UserFacingError('server-unreachable', `Cannot reach the server at ${baseUrl}. Is it running? Check its address in Settings.`);
    }
    throw new UserFacingError('server-unreachable', err instanceof Error ? err.message : String(err));
  }
}

/** The server's own words from an `{"error": "..."}` body, if it sent some. */
export function serverError(json: unknown): string | null {
  if (typeof json !== 'object' || json === null) return null;
  const error = (json as { error?: unknown }).error;
  if (typeof error === 'string') return error;
  // llama-server nests it: {"error":{"code":503,"message":"Loading model"}}
  if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string') {
    return (error as { message: string }).message;
  }
  return null;
}

/**
 * "Deleting qwen3:8b failed on Desk GPU": which server refused, named as the rest of the Models screen names it
 * (shared connectionName); absent (no saved connection applies), "Deleting qwen3:8b failed". The server's own words
 * follow it.
 */
export function failedOn(what: string, name?: string): string {
  return name !== undefined ? `${what} failed on ${name}` : `${what} failed`;
}

/** Like callServer, but a non-2xx answer becomes an error carrying the server's message. */
export async function callOk(baseUrl: string, call: JsonCall, what: string, name?: string): Promise<unknown> {
  const answer = await callServer(baseUrl, call, name);
  if (answer.status < 200 || answer.status >= 300) {
    const said = serverError(answer.json);
    if (answer.status === 404) throw new UserFacingError('not-found', said ? `${what}: ${said}` : `${what}: not found on ${name ?? 'the server'}.`);
    throw new UserFacingError('server-error', `${failedOn(what, name)} (${answer.status})${said ? `: ${said}` : '.'}`);
  }
  return answer.json;
}
