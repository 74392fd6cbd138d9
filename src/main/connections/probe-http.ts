import { fromConnection, legFailure } from '../engine/from-connection';
import { LegError, sendRequest } from '../leg/http';
import { pageTitle } from '../dialects/shared/status-words';

export interface ProbeAnswer {
  status: number;
  json: unknown;
  text: string;
}

/** A short JSON request for probes (test connection, capabilities): 10 s, auth headers from the caller. */
export async function probeJson(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
  timeoutMs = 10_000,
): Promise<ProbeAnswer> {
  const signal = AbortSignal.timeout(timeoutMs);
  let status: number;
  let text: string;
  try {
    const res = await sendRequest({
      method: body === undefined ? 'GET' : 'POST',
      url: baseUrl.replace(/\/+$/, '') + path,
      headers,
      signal,
      headersTimeoutMs: timeoutMs,
      stallTimeoutMs: timeoutMs,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    status = res.status;
    text = await res.text();
  } catch (err) {
    // The leg knows nothing of this deadline: its abort read "The request to … failed: The operation was aborted
    // due to timeout" (settings audit #10). Said as the probe's own limit instead.
    if (signal.aborted || (err instanceof LegError && err.kind === 'timeout')) {
      const s = timeoutMs / 1000;
      throw new LegError('timeout', `The server did not answer within ${s} s.`, (who) => `${who} did not answer within ${s} s.`);
    }
    throw err;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status, json, text };
}

/** The server's own error message from a JSON error body (`{"error": "..."}` or `{"error": {"message": ...}}`). */
export function serverMessage(answer: ProbeAnswer): string {
  const j = answer.json;
  if (j && typeof j === 'object') {
    const e = (j as Record<string, unknown>)['error'];
    if (typeof e === 'string') return e;
    if (e && typeof e === 'object' && typeof (e as Record<string, unknown>)['message'] === 'string') return (e as { message: string }).message;
  }
  // A web page (a proxy's "502 Bad Gateway") is named by its title, never shown as markup.
  const title = pageTitle(answer.text);
  if (title !== undefined) return title ? `a web page ("${title}")` : 'a web page';
  return answer.text.trim().slice(0, 300) || `HTTP ${answer.status}`;
}

/**
 * A probe's failure in words for the user. `at`: the saved connection asked, named as an answer's failures name it
 * (from-connection.ts: "Cannot reach GPU box at http://…"); absent (an address typed, not saved), the address.
 * `at.inSettings`: asked from Settings (Test connection), where the address is fixed "here", not "in Settings".
 */
export function describeProbeError(err: unknown, at?: { name: string; baseUrl: string; inSettings?: boolean }): string {
  if (err instanceof LegError) return at ? legFailure(err, at.name, at.baseUrl, { inSettings: at.inSettings === true }) : err.message;
  const said = err instanceof Error && err.name === 'TimeoutError' ? 'The server did not answer within 10 s.' : err instanceof Error ? err.message : String(err);
  return at ? fromConnection(at.name, said) : said;
}
