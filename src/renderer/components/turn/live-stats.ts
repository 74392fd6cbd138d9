/**
 * An answer's running figures while it streams: how many tokens so far and how fast, so a user watching a slow model
 * knows whether it goes at 2 tok/s or 20 before it ends.
 *
 * Every dialect sends the server's count with the finish only (llama-server's `timings`, Ollama's `eval_count`,
 * OpenAI's `usage`), so while the answer streams the count is main's: the chunks the server streamed, about one token
 * each (main/engine/chunk-count.ts), the whole answer's, sent a few times a second in the turn's timing. Where main
 * sent none (an answer streamed before it counted), the context meter's character rule (CHARS_PER_TOKEN) over what
 * the model wrote. Either is marked "~"; the server's figures replace it when the answer ends (answer-stats.ts). The
 * figures are sampled on a timer, a few times a second, never per token: the per-token path (streamed-turns.ts,
 * live-turns.ts) is what bench/latency measures.
 */
import { CHARS_PER_TOKEN } from '../../../shared/context-estimate';
import type { Turn } from '../../../shared/turn';
import { MIN_SPEED_SPAN_MS, turnTimingMeta } from '../../../shared/turn-timing';
import { formatStats } from './answer-stats';

/** How often the running figures are drawn. */
export const LIVE_STATS_MS = 500;

/** The running figures: main's count of the chunks streamed, or an estimate from the characters written. */
export interface LiveFigures {
  tokens: number;
  /** Absent until two samples a moment apart have seen it write. */
  tokensPerSecond?: number;
}

/**
 * Characters the model wrote: its text, its reasoning and its tool calls' arguments, which the server's output count
 * covers too.
 */
export function generatedChars(turn: Pick<Turn, 'blocks'>): number {
  let n = 0;
  for (const b of turn.blocks) {
    if (b.type === 'text' || b.type === 'reasoning') n += b.text.length;
    else if (b.type === 'tool_call') n += b.argumentsRaw.length;
  }
  return n;
}

/**
 * A step that only called a tool (no words for the user): no figures under it, live or after (answer-runs.ts). A
 * look at each block's first non-space, not the joined text: this is asked at each render of a streaming answer.
 */
export function callsToolsOnly(turn: Pick<Turn, 'blocks'>): boolean {
  return turn.blocks.some((b) => b.type === 'tool_call') && !turn.blocks.some((b) => b.type === 'text' && /\S/.test(b.text));
}

/** The span of samples the speed is measured over: below it, a count of a few tokens would make a wild speed. */
const MIN_SPAN_MS = MIN_SPEED_SPAN_MS;

/** Main's running count of the answer (its earlier steps too), where it sent one. */
export function countedTokens(turn: Pick<Turn, 'meta' | 'blocks'>): number | undefined {
  return turnTimingMeta(turn).tokens;
}

/**
 * Samples one streaming answer. The speed is measured on the page's clock from the first sample that saw it write to
 * the last one that saw it grow, so the wait for the first token is not in it (as the server's), nor a pause after
 * the last. None until those span MIN_SPAN_MS, as main's (turn-timing.ts): an answer whose tokens all came before
 * the second look grew over no time the page saw, and read "~ 0 tok/s".
 */
export class LiveSampler {
  private first: { at: number; tokens: number } | undefined;
  private grew: { at: number; tokens: number } | undefined;

  sample(turn: Pick<Turn, 'blocks' | 'meta'>, at: number): LiveFigures | undefined {
    const tokens = countedTokens(turn) ?? Math.round(generatedChars(turn) / CHARS_PER_TOKEN);
    if (tokens === 0 || callsToolsOnly(turn)) return undefined;
    this.first ??= { at, tokens };
    if (tokens > (this.grew ?? this.first).tokens) this.grew = { at, tokens };
    const span = this.grew ? this.grew.at - this.first.at : 0;
    if (!this.grew || span < MIN_SPAN_MS) return { tokens };
    return { tokens, tokensPerSecond: (this.grew.tokens - this.first.tokens) / (span / 1000) };
  }
}

/** "~ 120 tokens", "~ 18 tok/s": whole numbers, as an estimate has no decimals to give. */
export function formatLive(figures: LiveFigures): string[] {
  const parts = [`~ ${figures.tokens} ${figures.tokens === 1 ? 'token' : 'tokens'}`];
  // A speed under one a second keeps a decimal: rounded, it read "~ 0 tok/s", which is no speed at all.
  const speed = figures.tokensPerSecond;
  if (speed !== undefined && speed > 0) parts.push(`~ ${speed < 0.95 ? speed.toFixed(1) : Math.round(speed)} tok/s`);
  return parts;
}

/**
 * The last figures each answer showed while it streamed in this window: an answer stopped (or cut off) before the
 * server sent its count keeps them, rather than its footer losing the numbers it had as it ends.
 */
const shown = new Map<string, LiveFigures>();

export function keepLiveFigures(turnId: string, figures: LiveFigures): void {
  shown.delete(turnId);
  shown.set(turnId, figures);
  if (shown.size > 200) shown.delete(shown.keys().next().value ?? '');
}

/**
 * The running figures a stopped answer keeps: the count main saved with it (its last, sent with the stop, and the
 * one a reload reads), or where main saved none those it showed in this window.
 */
export function keptLiveFigures(turn: Pick<Turn, 'id' | 'meta' | 'blocks'>): LiveFigures | undefined {
  const saved = turnTimingMeta(turn);
  const drawn = shown.get(turn.id);
  if (saved.tokens === undefined || saved.tokens === 0) return drawn;
  // Where this window showed the answer streaming, a speed is shown if it showed one (main's where main saved one):
  // main saves a speed only over 400 ms of its own clock and the page shows one only over 400 ms of its own, so one
  // could have a speed where the other had none, and Stop added or took away a figure (and, on a phone, a line of the
  // footer: ci-134's live-footer).
  const speed = drawn === undefined ? saved.tokensPerSecond : drawn.tokensPerSecond === undefined ? undefined : (saved.tokensPerSecond ?? drawn.tokensPerSecond);
  return speed === undefined ? { tokens: saved.tokens } : { tokens: saved.tokens, tokensPerSecond: speed };
}

/** Ends that came before the server finished: a count it sent is not the answer's (Anthropic's message_start's 1). */
const ENDED_EARLY: ReadonlySet<Turn['status']> = new Set(['aborted', 'cut', 'error', 'interrupted']);

/**
 * The server counted the answer: its last step (where the footer is) finished with the server's count. A step
 * stopped or cut off has none to trust, and an answer whose earlier steps the server counted but whose last it did
 * not has only part of its count in the steps' sum: main's count, which covers the whole answer, is shown then.
 */
export function serverCounted(last: Pick<Turn, 'usage' | 'status'>): boolean {
  return last.usage?.outputTokens !== undefined && !ENDED_EARLY.has(last.status);
}

/**
 * An ended answer's footer figures: the server's (`stats`, the whole answer's, as formatted by answer-stats.ts), or,
 * where the server did not count it (an answer stopped or cut off mid-stream), main's count of the whole answer or
 * the running figures it showed last, still marked "~", and its first token.
 */
export function endedStats(stats: string, counted: boolean, kept: LiveFigures | undefined, ttftMs: number | undefined): string {
  if (counted || kept === undefined) return stats;
  return [...formatLive(kept), ...formatStats(ttftMs === undefined ? {} : { ttftMs })].join(' · ');
}
