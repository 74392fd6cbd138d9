/**
 * Fits a step's tool results into what is left of the context window (issue 15: a fetched page of 40,000
 * characters overflowed Ollama's 4096-token fallback window, so the next step was refused and the answer lost).
 * Each result gets a fair share of the room (what a small result leaves goes to the others); a cut result says
 * so to the model, in its own text, and to the user, in the block's note. Pure.
 */
import { CHARS_PER_TOKEN, MESSAGE_OVERHEAD_TOKENS } from '../../shared/context-estimate';
import type { ToolResultBlock } from '../../shared/turn';

export interface ResultBudget {
  /** The window the next request goes to. */
  window: number;
  /** Tokens the next request uses without the results: the request just sent plus the answer it got. */
  used: number;
  /** Calibrated tokens per raw (chars/4) token for this model. */
  ratio: number;
}

/** Tokens kept free for the model's next answer. */
export function answerReserve(window: number): number {
  return Math.min(1024, Math.floor(window / 4));
}

export function fitToolResults(results: ToolResultBlock[], budget: ResultBudget): ToolResultBlock[] {
  const freeTokens = budget.window - budget.used - answerReserve(budget.window) - MESSAGE_OVERHEAD_TOKENS * (results.length + 1);
  const room = Math.max(0, Math.floor((freeTokens / Math.max(budget.ratio, 0.01)) * CHARS_PER_TOKEN));
  const total = results.reduce((n, r) => n + r.content.length, 0);
  if (total <= room) return results;
  // What goes whole takes its size from the room first; the others share what is left, and a share too small to
  // be useful leaves its result out with a notice (whose size is no larger than the result's: see keptWhole).
  const whole = results.map((r) => keptWhole(r, budget.window));
  const left = Math.max(0, room - results.reduce((n, r, i) => n + (whole[i] ? r.content.length : 0), 0));
  const open = results.flatMap((r, i) => (whole[i] ? [] : [i]));
  const shares = fairShares(open.map((i) => results[i]?.content.length ?? 0), left);
  const out = [...results];
  open.forEach((i, k) => (out[i] = cut(results[i] as ToolResultBlock, shares[k] ?? 0, budget.window)));
  return out;
}

/**
 * Results that go as they are, whatever the room: one that never ran (a denial, a stop, the step limit) or was
 * stopped tells the model what happened, which a "did not fit" notice would turn into a falsehood; and one no
 * larger than the notice that would replace it saves nothing by going (a 78-character time became a 170-character
 * notice, and the next step no longer fit).
 */
function keptWhole(result: ToolResultBlock, window: number): boolean {
  return result.notRun === true || result.stopped === true || result.content.length <= leftOut(result, window).content.length;
}

/** Water-filling: smallest first, each takes what it needs up to an equal share of what is left. */
function fairShares(sizes: number[], room: number): number[] {
  const order = sizes.map((_, i) => i).sort((a, b) => (sizes[a] ?? 0) - (sizes[b] ?? 0));
  const shares = sizes.map(() => 0);
  let left = room;
  order.forEach((i, k) => {
    const share = Math.min(sizes[i] ?? 0, Math.floor(left / (order.length - k)));
    shares[i] = share;
    left -= share;
  });
  return shares;
}

/** A share smaller than this would leave nothing useful: the result is left out, saying so. */
const MIN_USEFUL_CHARS = 200;

const fitting = (window: number) => `to fit the context window (${window} tokens)`;

/** The result left out, saying so to the model (its content) and to the user (the note). */
function leftOut(result: ToolResultBlock, window: number): ToolResultBlock {
  const size = result.content.length;
  return {
    ...result,
    content: `[The result of ${result.name} (${size} characters) did not fit in what is left of the context window (${window} tokens), so it was left out. Ask for less, or answer without it.]`,
    note: `Left out: all ${size.toLocaleString('en-US')} characters, ${fitting(window)}.`,
  };
}

function cut(result: ToolResultBlock, share: number, window: number): ToolResultBlock {
  const size = result.content.length;
  if (size <= share) return result;
  if (share < MIN_USEFUL_CHARS) return leftOut(result, window);
  const why = fitting(window);
  const marker = (n: number) => `\n[cut: the first ${n} of ${size} characters, ${why}; ask for less to see the rest]`;
  const kept = result.content.slice(0, Math.max(0, share - marker(share).length));
  return {
    ...result,
    content: kept + marker(kept.length),
    note: `Cut to ${kept.length.toLocaleString('en-US')} of ${size.toLocaleString('en-US')} characters ${why}.`,
  };
}
