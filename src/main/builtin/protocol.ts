/**
 * The message protocol between main and the built-in engine process (an Electron utilityProcess in the app, a
 * `child_process.fork` in serve mode and tests). Plain data only: both carriers use structured clone.
 *
 * Requests carry an `id`; the engine answers each with one `result`, and a `generate` with `stream` messages
 * before it. A stream's events are the built-in "wire" (EngineEvent): the `builtin` dialect parses them exactly
 * as the HTTP dialects parse theirs, so the engine never decides what is reasoning, a tool call or a stop.
 */

/** A model as the engine loads it: the file and the context Firebrand chose for it (DESIGN.md §9). */
export interface ModelSpec {
  path: string;
  contextSize: number;
}

/** Sampling as llama-server takes it; absent fields take llama-server's defaults. */
export interface Sampling {
  temperature?: number;
  topK?: number;
  topP?: number;
  minP?: number;
  repeatPenalty?: number;
  seed?: number;
}

export type EngineRequest =
  | { type: 'generate'; id: number; model: ModelSpec; prompt: string; addBos: boolean; sampling: Sampling; maxTokens: number | null }
  | { type: 'abort'; id: number }
  /** Tokens `text` makes with the model's own tokenizer (special tokens parsed, as a rendered prompt is). */
  | { type: 'count'; id: number; path: string; text: string; addBos: boolean }
  | { type: 'load'; id: number; model: ModelSpec }
  | { type: 'unload'; id: number; path: string }
  | { type: 'status'; id: number };

/**
 * The built-in wire. `done.reason`: `eog` the model ended its turn; `length` the token limit; `context-full` the
 * context window filled; `abort` stopped on request.
 */
export type EngineEvent =
  | { type: 'start'; promptTokens: number; cachedTokens: number }
  | { type: 'text'; text: string }
  | { type: 'done'; reason: 'eog' | 'length' | 'context-full' | 'abort'; promptTokens: number; completionTokens: number; promptMs: number; generationMs: number }
  | { type: 'error'; message: string };

export interface EngineBackend {
  /** `cpu`, `cuda`, `vulkan`, `metal`. */
  backend: string;
  /** GPU builds this machine could run, best first (empty: none). */
  supportedGpus: string[];
  /** GPU builds installed with the app. */
  installedGpus: string[];
  vram: { total: number; free: number } | null;
  ram: { total: number; free: number };
}

export interface EngineLoaded {
  path: string;
  /** The context llama.cpp made: the window asked for, rounded up to its 256-token steps. */
  contextSize: number;
  /** The window Firebrand asked for. */
  requestedSize: number;
  memoryBytes: number;
}

export interface EngineStatus {
  backend: EngineBackend;
  loaded: EngineLoaded[];
}

export type EngineMessage =
  | { type: 'result'; id: number; ok: true; value: EngineResultValue }
  | { type: 'result'; id: number; ok: false; error: string }
  | { type: 'stream'; id: number; event: EngineEvent };

export type EngineResultValue = EngineStatus | { tokens: number } | { ok: true };

/** One line of the built-in wire as the leg frames it (NDJSON), and as the replay command reads it back. */
export function engineEventLine(event: EngineEvent): string {
  return `${JSON.stringify(event)}\n`;
}
