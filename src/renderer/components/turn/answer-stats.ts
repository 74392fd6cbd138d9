import type { Turn } from '../../../shared/turn';
import { turnTimingMeta } from '../../../shared/turn-timing';
import { turnTiming } from '../../store/turn-timings';

export interface AnswerStats {
  tokens?: number;
  tokensPerSecond?: number;
  /** Milliseconds from the send to the first token: measured here when this window sent it, else the server's prompt time. */
  ttftMs?: number;
}

/** Per-answer numbers from the server's usage and, when this window streamed it, our own clock. */
export function answerStats(turn: Turn): AnswerStats {
  const out: AnswerStats = {};
  const usage = turn.usage;
  if (usage?.outputTokens !== undefined) {
    out.tokens = usage.outputTokens;
    if (usage.generationMs && usage.generationMs > 0) out.tokensPerSecond = usage.outputTokens / (usage.generationMs / 1000);
  }
  const timing = turnTiming(turn.id);
  if (timing?.sentAt !== undefined && timing.firstTokenAt !== undefined) out.ttftMs = timing.firstTokenAt - timing.sentAt;
  else {
    const saved = turnTimingMeta(turn).ttftMs;
    if (saved !== undefined) out.ttftMs = saved;
    else if (usage?.promptMs !== undefined) out.ttftMs = usage.promptMs;
  }
  return out;
}

export function formatStats(stats: AnswerStats): string[] {
  const parts: string[] = [];
  if (stats.tokens !== undefined) parts.push(`${stats.tokens} ${stats.tokens === 1 ? 'token' : 'tokens'}`);
  if (stats.tokensPerSecond !== undefined) parts.push(`${stats.tokensPerSecond.toFixed(1)} tok/s`);
  if (stats.ttftMs !== undefined) parts.push(`first token ${stats.ttftMs < 1000 ? `${Math.round(stats.ttftMs)} ms` : `${(stats.ttftMs / 1000).toFixed(1)} s`}`);
  return parts;
}
