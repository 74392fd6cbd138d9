/**
 * Types of the model manager, the GPU probe, the context recommendation and aliases, shared by main and the
 * renderer through the IPC contract (src/shared/ipc.ts). Pure types: no runtime code beyond constants.
 */
import type { WindowMemory } from './window-memory';

/** What a model can do, as the server says (`/api/show` capabilities), never guessed from its name. */
export type ModelCapability = 'completion' | 'vision' | 'tools' | 'thinking' | 'embedding' | 'insert' | (string & {});

/** The architecture numbers the context recommendation needs, read from `/api/show` model_info. */
export interface ModelArchitecture {
  arch: string;
  blockCount: number;
  /** KV heads per layer (an array in model_info for models whose layers differ), expanded to one per layer. */
  kvHeadsPerLayer: number[];
  headCount: number | null;
  keyLength: number;
  valueLength: number;
  /** True when key/value lengths were absent and derived as embedding_length / head_count. */
  headDimDerived: boolean;
  embeddingLength: number | null;
  contextLength: number | null;
  vocabSize: number | null;
  slidingWindow: number | null;
  /** One entry per layer: true when that layer attends only to the sliding window. */
  slidingLayers: boolean[];
}

export interface ModelDetails {
  name: string;
  capabilities: ModelCapability[];
  family: string | null;
  parameterSize: string | null;
  quantization: string | null;
  template: string;
  /** Modelfile parameters as the server lists them, e.g. { temperature: [0.6], stop: ['<|eot_id|>'] }. */
  parameters: Record<string, (string | number)[]>;
  system: string;
  license: string;
  digest: string | null;
  architecture: ModelArchitecture | null;
}

export interface PullProgress {
  pullId: string;
  model: string;
  status: string;
  completedBytes: number;
  totalBytes: number;
  percent: number | null;
  bytesPerSecond: number | null;
  etaSeconds: number | null;
  state: 'running' | 'done' | 'error' | 'cancelled';
  error?: string;
}

export interface RunningModel {
  name: string;
  sizeBytes: number;
  sizeVramBytes: number;
  contextLength: number | null;
  expiresAt: string | null;
  /** Part of the model sits in system memory: the server could not fit it on the GPU. */
  spilledToCpu: boolean;
}

export interface GpuDevice {
  index: number;
  name: string;
  vendor: 'nvidia' | 'amd' | 'apple' | 'intel' | 'other';
  totalBytes: number;
  usedBytes: number | null;
  freeBytes: number | null;
  /** Shares system memory or has little of its own: not counted when a discrete GPU is present. */
  integrated: boolean;
  /** What the runtime may use of totalBytes (Apple caps unified memory; others: all of it). */
  usableBytes: number;
}

export interface GpuReport {
  /** `engine`: the built-in engine's own backend reading; `system`: system memory (its CPU backend). */
  source: 'nvidia-smi' | 'rocm-smi' | 'sysfs' | 'sysctl' | 'override' | 'server' | 'engine' | 'system' | 'unknown';
  devices: GpuDevice[];
  /** Summed over the GPUs that count; null when unknown. */
  usableBytes: number | null;
  notes: string[];
}

export type KvCacheType = 'f16' | 'q8_0' | 'q4_0';

export interface ContextRecommendationLine {
  label: string;
  /** Bytes for memory lines, tokens for context lines. */
  value: number;
  unit: 'bytes' | 'tokens' | 'bytes-per-token';
  note?: string;
}

export interface ContextRecommendation {
  fits: boolean;
  /** The recommended window in tokens (0 when it does not fit). */
  contextTokens: number;
  kvBytesPerToken: number;
  lines: ContextRecommendationLine[];
  message: string;
  /** What any other window would take (absent from recommendations made before it was added). */
  memory?: WindowMemory;
}

/**
 * Alias names are Ollama model names: letters, digits and `._-`, up to 80, with an optional `:tag` of up to 80.
 * Main's payload schema and the alias editor check the same pattern.
 */
export const ALIAS_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]{0,79}(?::[A-Za-z0-9._-]{1,80})?$';
export const ALIAS_NAME_RULE = 'An alias name is up to 80 letters, digits, dots, dashes or underscores, starting with a letter or digit, optionally followed by :tag (up to 80 more).';

/**
 * Whether Ollama takes two names for one model: it compares names without case (server/routes.go getExistingName,
 * strings.EqualFold) and `coder` is `coder:latest`. An alias named `Qwen3:8B` beside a model `qwen3:8b` would have
 * its "Create in Ollama" write over that model (models audit #1), so alias names are compared this way.
 */
export function sameOllamaModelName(a: string, b: string): boolean {
  const plain = (n: string) => (n.endsWith(':latest') ? n.slice(0, -':latest'.length) : n).toLowerCase();
  return plain(a) === plain(b);
}

export type ThinkMode = 'off' | 'on' | 'low' | 'medium' | 'high';

export interface AliasParameters {
  temperature?: number;
  top_p?: number;
  top_k?: number;
  num_predict?: number;
  repeat_penalty?: number;
  seed?: number;
  min_p?: number;
}

export interface AliasInput {
  name: string;
  connectionId: string;
  model: string;
  systemPrompt: string;
  parameters: AliasParameters;
  thinkMode: ThinkMode;
  contextWindow: number | null;
}

export type AliasStatus = 'not-materialized' | 'in-sync' | 'changed' | 'missing';

export interface Alias extends AliasInput {
  id: string;
  /** Digest of the Ollama model created from this alias, when materialized. */
  materializedDigest: string | null;
  status: AliasStatus;
  updatedAt: number;
}

export interface LlamaServerInfo {
  health: 'ok' | 'loading' | 'error' | 'unreachable';
  healthMessage: string | null;
  model: string | null;
  nCtx: number | null;
  nCtxTrain: number | null;
  modalities: { vision: boolean; audio: boolean };
  chatTemplate: string | null;
  slots: { id: number; nCtx: number; processing: boolean }[];
}

/**
 * Why a model has no recommended window when the GPU memory is unknown, and where to set it (main's reason). The
 * Models screen says it once, on its GPU line, and its rows and Details only point there (gpu-line.ts).
 */
export const GPU_UNKNOWN_REASON = 'GPU memory is unknown: set it in Settings → GPU memory to get a recommendation.';

/** What the model manager shows for one model's context window. */
export interface ContextAdvice {
  model: string;
  gpu: GpuReport;
  weightsBytes: number | null;
  /** Null when the GPU memory or the model's architecture is unknown (see `reason`). */
  recommendation: ContextRecommendation | null;
  reason: string | null;
  /** The window kept for this model, if one was chosen; a change makes Ollama reload the model. */
  stored: { contextWindow: number; source: 'recommended' | 'user' } | null;
}

export interface SetContextResult {
  contextWindow: number | null;
  /** True when the window changed: the next request carries a new num_ctx and Ollama reloads the model. */
  reloads: boolean;
}

/** The server in use came back, went away, or lists other models now (`models:changed`): read the list again. */
export interface ModelsChanged {
  connectionId: string;
  reachable: boolean;
  /** Why it cannot be reached, when it cannot. */
  error: string | null;
}

/** Where the context window a request carries came from (the composer's meter says it). */
export type ContextWindowSource = 'alias' | 'user' | 'recommended' | 'server' | 'fallback' | 'unknown';

/** The window the next message to a model will carry, and why; `contextWindow` null when the server decides. */
export interface ContextWindowChoice {
  contextWindow: number | null;
  source: ContextWindowSource;
  reason: string | null;
  /**
   * Tokens per token of the character estimate, learned from what the server counted for this model; absent
   * until it has counted once. The meter scales its estimate by it (the preflight counts exactly where it can).
   */
  estimateRatio?: number;
  /** Where a recommended window's memory is: `system` when the built-in engine runs on the CPU (absent: a GPU). */
  memory?: 'system';
}
