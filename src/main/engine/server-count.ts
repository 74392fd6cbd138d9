/**
 * llama-server counts a request exactly: `POST /apply-template` renders the messages and tools with the model's
 * own template, and `POST /tokenize` counts the result (conformance: apply-template-deepseek, tokenize-deepseek).
 * The character estimate can be 7x off for a tokenizer unlike it (issue 13), so the preflight asks the server when
 * it can, within a bounded time, and falls back to the calibrated estimate when it cannot.
 */
import { probeJson } from '../connections/probe-http';
import type { EngineConnection } from './types';

/** Each of the two requests gets this long: a busy server still answers these at once (they take no slot). */
export const COUNT_TIMEOUT_MS = 3_000;

/** The exact prompt size of a chat request body, or undefined when the server cannot say (then estimate). */
export async function countPromptTokens(connection: EngineConnection, body: string): Promise<number | undefined> {
  const prompt = await renderPrompt(connection, body);
  return prompt === undefined ? undefined : tokenizeText(connection, prompt, true);
}

/** The prompt a chat request body makes, rendered by llama-server with the model's own template; undefined where it cannot say. */
export async function renderPrompt(connection: EngineConnection, body: string): Promise<string | undefined> {
  if (connection.kind !== 'llama-server') return undefined;
  let request: Record<string, unknown>;
  try {
    request = JSON.parse(body) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  // Images become media markers the text tokenizer cannot size: those requests keep the estimate.
  if (body.includes('"image_url"')) return undefined;
  try {
    const rendered = await probeJson(connection.baseUrl, '/apply-template', connection.authHeaders(), { ...request, stream: false }, COUNT_TIMEOUT_MS);
    const prompt = (rendered.json as { prompt?: unknown } | undefined)?.prompt;
    return rendered.status === 200 && typeof prompt === 'string' ? prompt : undefined;
  } catch {
    return undefined;
  }
}

/**
 * How many tokens llama-server makes of `text` (special tokens read as such); `whole`: as a whole prompt (with the
 * tokens the model adds at its start), else as a part of one. Undefined where it cannot say.
 */
export async function tokenizeText(connection: EngineConnection, text: string, whole: boolean): Promise<number | undefined> {
  return (await tokenPieces(connection, text, whole, false))?.length;
}

/** The tokens llama-server makes of `text`, each with its text where `pieces` (and the server gives it). */
export async function tokenPieces(connection: EngineConnection, text: string, whole: boolean, pieces: boolean, special = true): Promise<{ piece?: string }[] | undefined> {
  if (connection.kind !== 'llama-server') return undefined;
  try {
    const counted = await probeJson(connection.baseUrl, '/tokenize', connection.authHeaders(), { content: text, add_special: whole, parse_special: special, ...(pieces ? { with_pieces: true } : {}) }, COUNT_TIMEOUT_MS);
    const tokens = (counted.json as { tokens?: unknown } | undefined)?.tokens;
    if (counted.status !== 200 || !Array.isArray(tokens)) return undefined;
    return tokens.map((t: unknown) => (t !== null && typeof t === 'object' && typeof (t as { piece?: unknown }).piece === 'string' ? { piece: (t as { piece: string }).piece } : {}));
  } catch {
    return undefined;
  }
}

/** llama-server's answer to a prompt over its window (conformance: context-overflow-*), or undefined. */
export function contextOverflowOf(status: number, text: string): { promptTokens: number; window: number } | undefined {
  if (status !== 400) return undefined;
  try {
    const error = (JSON.parse(text) as { error?: { type?: unknown; n_prompt_tokens?: unknown; n_ctx?: unknown } }).error;
    if (error?.type !== 'exceed_context_size_error' || typeof error.n_prompt_tokens !== 'number' || typeof error.n_ctx !== 'number') return undefined;
    return { promptTokens: error.n_prompt_tokens, window: error.n_ctx };
  } catch {
    return undefined;
  }
}
