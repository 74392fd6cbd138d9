/**
 * Exact token counts where the engine can count (DESIGN.md §9): one narrow interface per connection, so the
 * attachment chips (and later the preflight) ask "how many tokens is this text?" without knowing the server.
 * `null` means "cannot count here": the caller falls back to the estimate and labels it so.
 *
 * llama-server counts with the loaded model's own tokenizer: `POST /tokenize {"content": ...}` answers
 * `{"tokens": [ids...]}` (capture: ../shared/conformance/llama-server/tokenize-deepseek.*). The built-in engine
 * will offer its own counter behind the same interface.
 */
import { probeJson } from './probe-http';
import type { ConnectionKind } from '../../shared/connections';

export interface TokenCounter {
  countTokens(text: string): Promise<number | null>;
}

/** How long a count may take before the estimate is used instead: a chip must not wait on a busy server. */
export const COUNT_TIMEOUT_MS = 5_000;

export function llamaServerCounter(baseUrl: string, headers: () => Record<string, string>, timeoutMs = COUNT_TIMEOUT_MS): TokenCounter {
  return {
    async countTokens(text) {
      try {
        // add_special false: the text sits inside a prompt, so no BOS of its own is counted.
        const answer = await probeJson(baseUrl, '/tokenize', headers(), { content: text, add_special: false }, timeoutMs);
        if (answer.status !== 200 || !answer.json || typeof answer.json !== 'object') return null;
        const tokens = (answer.json as { tokens?: unknown }).tokens;
        return Array.isArray(tokens) ? tokens.length : null;
      } catch {
        return null;
      }
    },
  };
}

/** The counter of a connection, if its server can count. */
export function tokenCounterFor(connection: { kind: ConnectionKind; baseUrl: string; authHeaders(): Record<string, string> }): TokenCounter | undefined {
  if (connection.kind === 'llama-server') return llamaServerCounter(connection.baseUrl, () => connection.authHeaders());
  return undefined;
}
