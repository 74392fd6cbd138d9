/**
 * The largest context window that fits on the GPU, with its arithmetic, from the model's architecture, its
 * weights' size and the usable VRAM. Pure: the GPU probe and `/api/show` feed it.
 *
 * Memory model (what must sit in VRAM besides the KV cache):
 * - weights: the model file's size (what `/api/tags` reports); all layers offloaded.
 * - runtime, per GPU: 640 MiB for the CUDA/ROCm/Metal context, cuBLAS workspace and the runner's own buffers
 *   (Ollama keeps ~457 MiB per CUDA GPU as its floor; the rest covers the output and host-visible buffers).
 * - headroom: 10% of usable VRAM for the desktop, other apps and allocator fragmentation. A window that only
 *   just fits is the one that spills to the CPU the first time a browser tab wakes up.
 * - compute graph: with flash attention llama.cpp's graph does not grow with the context; its largest buffers
 *   are the f32 logits and hidden state of one batch: 4 B × batch 512 × (vocab + embedding). For llama3.1:8b
 *   that is 258.5 MiB, the "compute buffer size" llama.cpp logs for it. Without flash attention the attention
 *   scores are materialized: 4 B × batch × heads per token of context, on top.
 * The runtime and headroom numbers were calibrated on the issue's worked example (issue 6: llama3.1:8b Q4_K_M
 * on a 12 GB card, flash attention, f16 cache ≈ 43,000 tokens → 43,008 here); qwen3:14b (9.3 GB) cannot fit
 * on 8 GB at all, whatever the reserve.
 */
import type { ContextRecommendation, ContextRecommendationLine, KvCacheType, ModelArchitecture } from '../../shared/models';
import { windowMemoryBytes } from '../../shared/window-memory';

export const MIB = 1024 * 1024;
export const RUNTIME_BYTES_PER_GPU = 640 * MIB;
export const HEADROOM_FRACTION = 0.1;
export const BATCH_TOKENS = 512;
export const MIN_USEFUL_CONTEXT = 2048;
const FALLBACK_GRAPH_BYTES = 256 * MIB;

/** Bytes per cached element: ggml's block sizes (q8_0: 34 B per 32 values, q4_0: 18 B per 32). */
export const KV_BYTES_PER_ELEMENT: Record<KvCacheType, number> = { f16: 2, q8_0: 34 / 32, q4_0: 18 / 32 };

export interface RecommendInput {
  arch: ModelArchitecture;
  weightsBytes: number;
  usableVramBytes: number;
  gpuCount?: number;
  flashAttention: boolean;
  kvCacheType: KvCacheType;
  /** What the memory is, for the table (default `GPU memory`; the built-in engine's CPU backend: system memory). */
  memoryLabel?: string;
  /** Runtime reserve in place of 640 MiB per GPU (a CPU backend keeps far less beside the model). */
  runtimeBytes?: number;
  /** Memory other loaded models hold on the same GPU (Ollama's /api/ps), with their names for the table. */
  othersBytes?: number;
  othersLabel?: string;
}

/** KV bytes one token costs, split into layers that keep every token and layers that keep only the window. */
export function kvBytesPerToken(arch: ModelArchitecture, kvType: KvCacheType): { global: number; sliding: number } {
  const bpe = KV_BYTES_PER_ELEMENT[kvType];
  let global = 0;
  let sliding = 0;
  arch.kvHeadsPerLayer.forEach((heads, layer) => {
    // K and V: keyLength + valueLength elements per head (the "2 ×" when both equal the head size).
    const bytes = heads * (arch.keyLength + arch.valueLength) * bpe;
    if (arch.slidingWindow !== null && arch.slidingLayers[layer] === true) sliding += bytes;
    else global += bytes;
  });
  return { global, sliding };
}

function graphBytes(arch: ModelArchitecture): number {
  if (arch.embeddingLength === null || arch.vocabSize === null) return FALLBACK_GRAPH_BYTES;
  return 4 * BATCH_TOKENS * (arch.embeddingLength + arch.vocabSize);
}

export function recommendContext(input: RecommendInput): ContextRecommendation {
  const { arch } = input;
  const notes: string[] = [];
  let kvType = input.kvCacheType;
  if (kvType !== 'f16' && !input.flashAttention) {
    // Ollama quantizes the KV cache only with flash attention on; otherwise it silently stays f16.
    notes.push(`A ${kvType} cache needs flash attention; counted as f16.`);
    kvType = 'f16';
  }
  const gpus = Math.max(1, input.gpuCount ?? 1);
  const runtime = input.runtimeBytes ?? RUNTIME_BYTES_PER_GPU * gpus;
  const memory = input.memoryLabel ?? 'GPU memory';
  const headroom = Math.floor(input.usableVramBytes * HEADROOM_FRACTION);
  const graph = graphBytes(arch);
  const others = Math.max(0, input.othersBytes ?? 0);
  const available = input.usableVramBytes - others - input.weightsBytes - runtime - headroom - graph;
  const kv = kvBytesPerToken(arch, kvType);
  const scoresPerToken = input.flashAttention ? 0 : 4 * BATCH_TOKENS * (arch.headCount ?? Math.max(0, ...arch.kvHeadsPerLayer));
  const linear = kv.global + scoresPerToken;

  let raw = 0;
  if (available > 0) {
    const window = arch.slidingWindow ?? Infinity;
    const whileInWindow = available / (linear + kv.sliding);
    if (whileInWindow <= window || kv.sliding === 0) raw = whileInWindow;
    else raw = linear === 0 ? Infinity : (available - kv.sliding * window) / linear;
  }
  const trained = arch.contextLength ?? Infinity;
  const clamped = Math.min(raw, trained);
  const rounded = Number.isFinite(clamped) ? Math.floor(clamped / 1024) * 1024 : 0;
  const fits = rounded >= MIN_USEFUL_CONTEXT;

  const lines: ContextRecommendationLine[] = [
    { label: `Usable ${memory}`, value: input.usableVramBytes, unit: 'bytes' },
    ...(others > 0 ? [{ label: '− other loaded models', value: others, unit: 'bytes' as const, note: input.othersLabel ?? 'held by models already loaded' }] : []),
    { label: '− model weights', value: input.weightsBytes, unit: 'bytes' },
    { label: input.runtimeBytes === undefined ? `− runtime (${gpus} × 640 MiB)` : '− runtime', value: runtime, unit: 'bytes' },
    { label: '− headroom (10%)', value: headroom, unit: 'bytes' },
    { label: '− compute graph', value: graph, unit: 'bytes', note: input.flashAttention ? 'flash attention' : 'plus attention scores per token' },
    { label: '= left for the context', value: Math.max(0, available), unit: 'bytes' },
    { label: `KV cache per token (${kvType})`, value: kv.global + kv.sliding, unit: 'bytes-per-token', ...(kv.sliding > 0 ? { note: `sliding-window layers stop growing at ${arch.slidingWindow ?? 0} tokens` } : {}) },
  ];
  if (scoresPerToken > 0) lines.push({ label: 'attention scores per token', value: scoresPerToken, unit: 'bytes-per-token' });
  if (Number.isFinite(raw)) lines.push({ label: 'fits', value: Math.floor(raw), unit: 'tokens' });
  if (arch.contextLength !== null) lines.push({ label: 'trained context', value: arch.contextLength, unit: 'tokens' });
  lines.push({ label: 'recommended (rounded down to 1024)', value: fits ? rounded : 0, unit: 'tokens' });

  const message = fits
    ? `${rounded.toLocaleString('en-US')} tokens fit ${input.memoryLabel ? `in ${memory}` : 'on the GPU'}.${notes.length ? ' ' + notes.join(' ') : ''}`
    : `Does not fit ${input.memoryLabel ? `in ${memory}` : 'on the GPU'}: less than ${MIN_USEFUL_CONTEXT} tokens of context would remain.${notes.length ? ' ' + notes.join(' ') : ''}`;
  const memoryShape = { fixedBytes: input.weightsBytes + runtime + graph, perTokenBytes: linear, slidingPerTokenBytes: kv.sliding, slidingWindow: arch.slidingWindow };
  return {
    fits, contextTokens: fits ? rounded : 0, kvBytesPerToken: kv.global + kv.sliding, lines, message,
    memory: { ...memoryShape, freeBytes: Math.max(0, input.usableVramBytes - others) },
  };
}

/**
 * The memory a model needs with a given window (issue 21's larger-window offer): weights, runtime, compute graph,
 * and the KV cache for that many tokens (sliding-window layers stop growing at their window). The headroom is not
 * counted: it is what the recommendation leaves free, not what the model takes.
 */
export function memoryForWindow(input: Omit<RecommendInput, 'usableVramBytes'>, window: number): number {
  const { arch } = input;
  const kvType = input.kvCacheType !== 'f16' && !input.flashAttention ? 'f16' : input.kvCacheType;
  const kv = kvBytesPerToken(arch, kvType);
  const gpus = Math.max(1, input.gpuCount ?? 1);
  const runtime = input.runtimeBytes ?? RUNTIME_BYTES_PER_GPU * gpus;
  const scoresPerToken = input.flashAttention ? 0 : 4 * BATCH_TOKENS * (arch.headCount ?? Math.max(0, ...arch.kvHeadsPerLayer));
  return windowMemoryBytes({ fixedBytes: input.weightsBytes + runtime + graphBytes(arch), perTokenBytes: kv.global + scoresPerToken, slidingPerTokenBytes: kv.sliding, slidingWindow: arch.slidingWindow }, window);
}

/** What a window would cost a model: the most it takes, the memory it would need, the memory there is. */
export interface WindowCost {
  /** The model's trained context (the most it takes); null when not known. */
  trained: number | null;
  memoryBytes: number | null;
  usableBytes: number | null;
  /** The largest window that fits the memory (0: none does); null when memory or architecture is unknown. */
  fitsTokens: number | null;
}
