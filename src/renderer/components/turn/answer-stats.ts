import type { Turn } from '../../../shared/turn';
import { turnTimingMeta } from '../../../shared/turn-timing';
import { turnTiming } from '../../store/turn-timings';

export interface AnswerStats {
  tokens?: number;
  tokensPerSecond?: number;
  /**
   * Milliseconds from the request leaving main to the first token, as main measured and saved it with the answer
   * (turn-timing.ts); the server's prompt time for answers saved before main measured it.
   */
  ttftMs?: number;
}

/**
 * Per-answer numbers from the server's usage and main's clock. "First token" is one figure, live and after a reload:
 * the one saved with the answer. The page's own clock (from Send to the token reaching the page) gave another number
 * for the same answer until a reload showed main's.
 */
export function answerStats(turn: Turn): AnswerStats {
  const out: AnswerStats = {};
  const usage = turn.usage;
  if (usage?.outputTokens !== undefined) {
    out.tokens = usage.outputTokens;
    if (usage.generationMs && usage.generationMs > 0) out.tokensPerSecond = usage.outputTokens / (usage.generationMs / 1000);
  }
  const saved = turnTimingMeta(turn).ttftMs;
  if (saved !== undefined) out.ttftMs = saved;
  // An answer that streamed here and is not saved yet (its finish came; main's turn with the figure follows at once)
  // says no first token rather than the server's, which the saved figure would replace a moment later.
  else if (usage?.promptMs !== undefined && !(turnTiming(turn.id) && turn.meta['timing'] === undefined)) out.ttftMs = usage.promptMs;
  return out;
}

export function formatStats(stats: AnswerStats): string[] {
  const parts: string[] = [];
  if (stats.tokens !== undefined) parts.push(`${stats.tokens} ${stats.tokens === 1 ? 'token' : 'tokens'}`);
  if (stats.tokensPerSecond !== undefined) parts.push(`${stats.tokensPerSecond.toFixed(1)} tok/s`);
  if (stats.ttftMs !== undefined) parts.push(`first token ${stats.ttftMs < 1000 ? `${Math.round(stats.ttftMs)} ms` : `${(stats.ttftMs / 1000).toFixed(1)} s`}`);
  return parts;
}
