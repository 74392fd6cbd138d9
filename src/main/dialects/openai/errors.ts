import { statusInWords } from '../shared/status-words';

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The user-facing sentence for an OpenAI-style error object (`{message, type, code, ...}`).
 * llama-server's context overflow carries the two numbers the user needs; we name them
 * (conformance context-overflow-nostream-deepseek: type `exceed_context_size_error`, `n_prompt_tokens`, `n_ctx`).
 */
export function describeOpenAiError(error: unknown): { message: string; code?: string } {
  if (typeof error === 'string') return { message: error };
  if (!isRec(error)) return { message: 'The server reported an error without a message.' };
  const type = typeof error['type'] === 'string' ? error['type'] : undefined;
  const raw = typeof error['message'] === 'string' ? error['message'] : undefined;
  const nPrompt = error['n_prompt_tokens'];
  const nCtx = error['n_ctx'];
  if (type === 'exceed_context_size_error' && typeof nPrompt === 'number' && typeof nCtx === 'number') {
    return {
      code: type,
      message:
        `The prompt is too long for the server's context window: n_prompt_tokens=${nPrompt} exceeds n_ctx=${nCtx}. ` +
        'Shorten the conversation or restart llama-server with a larger context (-c).',
    };
  }
  const code = type ?? (error['code'] !== undefined ? String(error['code']) : undefined);
  const message = raw ?? 'The server reported an error without a message.';
  return code ? { message, code } : { message };
}

/** The message in a non-2xx body: an OpenAI error object if it parses, else the text, else the status in words. */
export function errorMessage(status: number, body: string): string {
  const text = body.trim();
  try {
    const parsed: unknown = JSON.parse(text);
    if (isRec(parsed) && 'error' in parsed) return `${describeOpenAiError(parsed['error']).message} (HTTP ${status})`;
    if (isRec(parsed) && typeof parsed['message'] === 'string') return `${parsed['message']} (HTTP ${status})`;
  } catch {
    // not JSON: fall through to the raw text
  }
  // A web page (a proxy's "502 Bad Gateway") is named by its title, never shown as markup.
  if (text && !text.startsWith('<')) return `${text.length > 500 ? `${text.slice(0, 500)}…` : text} (HTTP ${status})`;
  return statusInWords('The server', status, text);
}
