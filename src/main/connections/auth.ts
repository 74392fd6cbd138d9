import type { ConnectionKind } from '../../shared/connections';
import type { DialectId } from '../dialects/types';

/** The dialect a kind of server speaks. */
export function dialectOf(kind: ConnectionKind): DialectId {
  if (kind === 'ollama') return 'ollama';
  if (kind === 'anthropic') return 'anthropic';
  return 'openai';
}

/** Anthropic's API version header value; the API rejects requests without one. */
export const ANTHROPIC_VERSION = '2023-06-01';

/**
 * The auth headers for a request, built only where the leg sends it (DESIGN.md §2, §8): they are never part of
 * a body, step record, log or export. Ollama takes none natively, but a reverse proxy in front of it may want a
 * bearer token, so a saved key is sent the OpenAI way.
 */
export function authHeaders(kind: ConnectionKind, apiKey: string | undefined): Record<string, string> {
  if (kind === 'anthropic') return { 'anthropic-version': ANTHROPIC_VERSION, ...(apiKey ? { 'x-api-key': apiKey } : {}) };
  return apiKey ? { authorization: `Bearer ${apiKey}` } : {};
}

/** Header names whose values are credentials. */
const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'api-key']);

/**
 * The credential strings in a request's headers (the key itself and the whole `Bearer …` value), for
 * redaction: a server may echo the key it was given in an error body, and that text becomes a turn's error,
 * a step record and part of exports.
 */
export function secretValues(headers: Record<string, string>): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (!SECRET_HEADERS.has(name.toLowerCase())) continue;
    const bare = value.replace(/^Bearer\s+/i, '');
    // Very short values cannot be told apart from ordinary words; real keys are long.
    if (bare.length >= 8) out.push(value, bare);
  }
  return out;
}

/** `text` with every secret replaced by `[redacted]`. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) out = out.split(s).join('[redacted]');
  return out;
}
