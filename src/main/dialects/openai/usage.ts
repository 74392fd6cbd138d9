import type { Usage } from '../../../shared/turn';

type Rec = Record<string, unknown>;
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Folds a chunk's `usage` (OpenAI, sent when `stream_options.include_usage`) and llama-server's `timings` into
 * one Usage. `usage` token counts win; `timings` fill what is missing. llama-server's `prompt_n` counts only the
 * tokens it evaluated, so the prompt size is `prompt_n + cache_n` (see conformance
 * stream-options-usage-stream-deepseek: prompt_tokens 58 = prompt_n 1 + cache_n 57).
 */
export function mergeUsage(prev: Usage, chunk: Rec): Usage {
  const timings = chunk['timings'];
  const usage = chunk['usage'];
  // Most chunks carry neither: keep the same object rather than copy it once per token.
  if (!isRec(timings) && !isRec(usage)) return prev;
  const next: Usage = { ...prev };
  if (isRec(timings)) {
    const promptN = num(timings['prompt_n']);
    const cacheN = num(timings['cache_n']) ?? 0;
    if (promptN !== undefined && next.inputTokens === undefined) next.inputTokens = promptN + cacheN;
    if (cacheN > 0) next.cachedTokens = cacheN;
    const predicted = num(timings['predicted_n']);
    if (predicted !== undefined && next.outputTokens === undefined) next.outputTokens = predicted;
    // The server's speed leaves out the first token, whose time is the prompt's (test/fixtures/openai/llama-server-speed.md).
    if (predicted !== undefined) next.generatedTokens = Math.max(0, predicted - 1);
    const promptMs = num(timings['prompt_ms']);
    if (promptMs !== undefined) next.promptMs = promptMs;
    const genMs = num(timings['predicted_ms']);
    if (genMs !== undefined) next.generationMs = genMs;
  }
  if (isRec(usage)) {
    const input = num(usage['prompt_tokens']);
    if (input !== undefined) next.inputTokens = input;
    const output = num(usage['completion_tokens']);
    if (output !== undefined) next.outputTokens = output;
  }
  return next;
}

export function hasUsage(u: Usage): boolean {
  return Object.values(u).some((v) => v !== undefined);
}
