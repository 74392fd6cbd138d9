import type { Turn } from '../../../shared/turn';
import { turnTimingMeta } from '../../../shared/turn-timing';
import { turnTiming } from '../../store/turn-timings';

export interface AnswerStats {
  tokens?: number;
  /** `tokens` is not all the server's: main's count or an estimate for some of it, shown with "~". */
  approximate?: boolean;
  tokensPerSecond?: number;
  /**
   * Milliseconds from the request leaving main to the first token, as main measured it (turn-timing.ts): sent as the
   * first token came, and saved with the answer; the server's prompt time for answers saved before main measured it.
   */
  ttftMs?: number;
}

/**
 * Per-answer numbers from the server's usage and main's clock. "First token" is one figure, live and after a reload:
 * main's, which it sends as the first token comes and saves with the answer. The page's own clock (from Send to the
 * token reaching the page) gave another number for the same answer until a reload showed main's.
 */
export function answerStats(turn: Turn): AnswerStats {
  const out: AnswerStats = {};
  const usage = turn.usage;
  if (usage?.outputTokens !== undefined) {
    out.tokens = usage.outputTokens;
    // Over the tokens the time covers: llama-server's excludes the first, and the footer said a faster speed than its own.
    const timed = usage.generatedTokens ?? usage.outputTokens;
    if (usage.generationMs && usage.generationMs > 0 && timed > 0) out.tokensPerSecond = timed / (usage.generationMs / 1000);
  }
  const saved = turnTimingMeta(turn).ttftMs;
  if (saved !== undefined) out.ttftMs = saved;
  // An answer that streamed here without main's figures (main sends them with its first token) says no first token
  // rather than the server's, which the saved figure could replace a moment later.
  else if (usage?.promptMs !== undefined && !(turnTiming(turn.id) && turn.meta['timing'] === undefined)) out.ttftMs = usage.promptMs;
  return out;
}

export function formatStats(stats: AnswerStats): string[] {
  const parts: string[] = [];
  if (stats.tokens !== undefined) parts.push(`${stats.approximate ? '~ ' : ''}${stats.tokens} ${stats.tokens === 1 ? 'token' : 'tokens'}`);
  if (stats.tokensPerSecond !== undefined) parts.push(`${stats.tokensPerSecond.toFixed(1)} tok/s`);
  if (stats.ttftMs !== undefined) parts.push(`first token ${stats.ttftMs < 1000 ? `${Math.round(stats.ttftMs)} ms` : `${(stats.ttftMs / 1000).toFixed(1)} s`}`);
  return parts;
}
