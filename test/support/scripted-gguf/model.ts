/**
 * The weights of a scripted model: a one-block `llama` whose greedy decoding follows a chain of tokens.
 *
 * Attention and FFN weights are zero, so each position's residual stream is its own token embedding; embeddings
 * are one-hot (token t -> e_t), so after the final RMSNorm the hidden state is sqrt(D)·e_t and the logits are
 * column t of `output.weight`. That column is the transition table: 1.0 for the token that follows t in the
 * script, 0.5 for end-of-turn everywhere else. Prompt tokens other than the last one never matter.
 */
import type { GgufTensor } from './gguf-writer';

export interface ModelShape {
  /** Vocabulary size V (must be <= embeddingLength for one-hot embeddings). */
  vocabSize: number;
  embeddingLength: number;
  feedForwardLength: number;
}

export const HEAD_DIM = 64;

/** The smallest embedding length that fits the vocabulary: a multiple of the head size, at least 128. */
export function embeddingLengthFor(vocabSize: number): number {
  return Math.max(128, Math.ceil(vocabSize / HEAD_DIM) * HEAD_DIM);
}

/**
 * `next[t]` is the token that follows t (absent: end-of-turn). `start` is the prompt's last token, whose
 * column starts the script; with `repeat` the last script token leads back to the first (an endless answer,
 * for stop and kill tests: the context ends it).
 */
export function transitionTable(chain: readonly number[], start: number, eosId: number, repeat: boolean): Map<number, number> {
  const next = new Map<number, number>();
  const first = chain[0];
  if (first === undefined) throw new Error('scripted model: empty chain');
  next.set(start, first);
  for (let i = 0; i < chain.length; i++) {
    const from = chain[i] ?? 0;
    if (next.has(from)) throw new Error(`scripted model: token ${from} appears twice in the chain`);
    const to = chain[i + 1] ?? (repeat ? first : eosId);
    next.set(from, to);
  }
  return next;
}

export function buildTensors(shape: ModelShape, next: ReadonlyMap<number, number>, eosId: number): GgufTensor[] {
  const { vocabSize: V, embeddingLength: D, feedForwardLength: F } = shape;
  if (V > D) throw new Error(`scripted model: vocabulary ${V} exceeds embedding length ${D}`);

  const embd = new Float32Array(V * D);
  for (let t = 0; t < V; t++) embd[t * D + t] = 1;

  // ggml row-major with ne0 = D: row v holds the weights that produce logit v from the hidden state.
  const output = new Float32Array(V * D);
  for (let t = 0; t < V; t++) output[eosId * D + t] = 0.5;
  for (const [from, to] of next) output[to * D + from] = 1;

  const ones = new Float32Array(D).fill(1);
  return [
    { name: 'token_embd.weight', dims: [D, V], data: embd },
    { name: 'output_norm.weight', dims: [D], data: ones },
    { name: 'output.weight', dims: [D, V], data: output },
    { name: 'blk.0.attn_norm.weight', dims: [D], data: ones },
    { name: 'blk.0.attn_q.weight', dims: [D, D] },
    { name: 'blk.0.attn_k.weight', dims: [D, D] },
    { name: 'blk.0.attn_v.weight', dims: [D, D] },
    { name: 'blk.0.attn_output.weight', dims: [D, D] },
    { name: 'blk.0.ffn_norm.weight', dims: [D], data: ones },
    { name: 'blk.0.ffn_gate.weight', dims: [D, F] },
    { name: 'blk.0.ffn_up.weight', dims: [D, F] },
    { name: 'blk.0.ffn_down.weight', dims: [F, D] },
  ];
}
