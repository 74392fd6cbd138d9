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
