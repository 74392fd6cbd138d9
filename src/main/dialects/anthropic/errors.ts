import { statusInWords } from '../shared/status-words';

/**
 * Anthropic error bodies are `{"type":"error","error":{"type":"not_found_error","message":"model: x"}}`
 * (https://docs.claude.com/en/api/errors). The message is the useful part; the type names the class of failure.
 */
export function anthropicErrorMessage(status: number, body: string): string {
  const text = body.trim();
  if (text) {
    try {
      const parsed: unknown = JSON.parse(text);
      const message = errorOf(parsed);
      if (message) return message;
    } catch {
      // Not JSON (a gateway's page): fall through.
    }
    if (!text.startsWith('<')) return text.length > 300 ? `${text.slice(0, 300)}…` : text;
  }
  return statusInWords('The server', status, text);
}

/** The message inside an Anthropic error object (also the `data` of an SSE `error` event). */
export function errorOf(parsed: unknown): string | undefined {
  if (!parsed || typeof parsed !== 'object') return undefined;
  const error = (parsed as { error?: unknown }).error;
  if (typeof error === 'string') return error;
  if (error && typeof error === 'object') {
    const { message, type } = error as { message?: unknown; type?: unknown };
    if (typeof message === 'string' && message) return message;
    if (typeof type === 'string') return type;
  }
  return undefined;
}

export function errorTypeOf(parsed: unknown): string | undefined {
  const error = parsed && typeof parsed === 'object' ? (parsed as { error?: unknown }).error : undefined;
  const type = error && typeof error === 'object' ? (error as { type?: unknown }).type : undefined;
  return typeof type === 'string' ? type : undefined;
}
