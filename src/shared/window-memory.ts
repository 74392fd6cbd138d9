/**
 * What a context window costs in GPU memory, from the recommendation's own arithmetic (main's
 * context-recommendation.ts), so the Models screen can say what a window it did not recommend would need
 * without asking main again for every digit typed.
 */

/** A model's memory as a function of its window, on one server's GPU. */
export interface WindowMemory {
  /** Weights, runtime and compute graph: what the model takes whatever its window. */
  fixedBytes: number;
  /** KV cache (and, without flash attention, attention scores) per token in layers that keep every token. */
  perTokenBytes: number;
  /** KV cache per token in sliding-window layers, which stop growing at `slidingWindow` tokens. */
  slidingPerTokenBytes: number;
  slidingWindow: number | null;
  /** The GPU memory this model may use: the usable memory less what other loaded models hold. */
  freeBytes: number;
}

/** The memory `window` tokens of context take, the model's weights and buffers included. */
export function windowMemoryBytes(m: Omit<WindowMemory, 'freeBytes'>, window: number): number {
  const sliding = m.slidingPerTokenBytes * Math.min(window, m.slidingWindow ?? window);
  return Math.ceil(m.fixedBytes + m.perTokenBytes * window + sliding);
}
