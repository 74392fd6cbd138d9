import { statusInWords } from '../shared/status-words';

/**
 * Ollama answers errors with a JSON body `{"error": "..."}` (docs/api.md, "Errors"), e.g. HTTP 404
 * `{"error":"model \"x\" not found, try pulling it first"}`. The server's own words are the best message.
 */
export function ollamaErrorMessage(status: number, body: string): string {
  const text = body.trim();
  if (text) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object' && 'error' in parsed) {
        const error = (parsed as { error: unknown }).error;
        if (typeof error === 'string' && error.trim()) return error.trim();
        if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string') return error.message;
      }
    } catch {
      // Not JSON (a proxy's HTML page, plain text): fall through and show it, shortened.
    }
    if (!text.startsWith('<')) return text.length > 300 ? `${text.slice(0, 300)}…` : text;
  }
  return statusInWords('Ollama', status, text, status === 404 ? '(not found: is the model pulled and the URL right?).' : undefined);
}
