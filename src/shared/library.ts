/**
 * The model library and the built-in llama.cpp engine, as main and the renderer share them (DESIGN.md §9): GGUF
 * files in a models folder, read from their own metadata; downloads; what the engine has loaded. Pure types.
 */
import type { ContextAdvice } from './models';

/** usable: listed from valid metadata; unusable: not a model Firebrand can run (see `reason`); downloading: a
 * `.part` file that a download is filling (or will resume). */
export type LibraryState = 'usable' | 'unusable' | 'downloading';

/** One GGUF in the models folder. `file` is its path relative to the folder, with `/`: the model's name. */
export interface LibraryEntry {
  file: string;
  /** The absolute path ("show where it lives"). */
  path: string;
  sizeBytes: number;
  state: LibraryState;
  /** Why the file cannot be used, in words for the user; null when usable. */
  reason: string | null;
  /**
   * The engine's message the last time loading this file failed (this run), until a load of it works: the header
   * reads fine, the weights do not (builtin audit #8). Absent when none failed.
   */
  loadError?: string;
  architecture: string | null;
  /** Summed tensor elements; null when the file did not say. */
  parameterCount: number | null;
  /** The quantization of most weights (`Q4_K_M`, `F16`...). */
  quantization: string | null;
  trainedContext: number | null;
  /** The chat template can describe tools and Firebrand reads the calls it asks for. */
  tools: boolean;
  /** The chat template has a thinking switch or renders reasoning. */
  thinking: boolean;
  /** An `mmproj` file sits beside the model (the built-in engine does not read images yet: see `visionNote`). */
  vision: boolean;
  mmproj: string | null;
  /** The file's sha256, once computed (downloads: verified against the source where it gives one). */
  sha256: string | null;
  download: DownloadProgress | null;
}

export type DownloadState = 'running' | 'paused' | 'verifying' | 'done' | 'error' | 'cancelled';

/** A download into the models folder; `bytes` of `total` are on disk (a resumed download starts high). */
export interface DownloadProgress {
  downloadId: string;
  file: string;
  source: string;
  state: DownloadState;
  bytes: number;
  total: number | null;
  bytesPerSecond: number | null;
  etaSeconds: number | null;
  error?: string;
  /** Done and checked against a sha256 its source gave (otherwise only the size, where the source gave one). */
  verified?: boolean;
  /** false: an error that asking again cannot help (no such file, a web page), so no Resume is offered. */
  resumable?: boolean;
}

/** Which llama.cpp build the engine runs, and why a GPU one is not in use where that is so. */
export interface BackendInfo {
  /** `cpu`, `cuda`, `vulkan` or `metal`. */
  backend: string;
  /** One sentence: what runs, and why a GPU build was not used when it was not. */
  reason: string;
  /** What the backend reports free for models (VRAM, or system memory on the CPU backend). */
  freeBytes: number | null;
  totalBytes: number | null;
}

/** A model the engine holds, and what it costs. */
export interface LoadedModel {
  file: string;
  /** The context the engine made (llama.cpp's 256-token steps). */
  contextSize: number;
  /**
   * The window it was loaded for: an answer that asks another (a window kept since) makes its context again, with
   * that window, before its first token.
   */
  requestedSize: number;
  /** Memory the model and its context hold (weights + KV cache), as the engine measures it. */
  memoryBytes: number;
  /** When it unloads if unused (ms since epoch), null when no idle timeout applies. */
  unloadsAt: number | null;
  /** An answer runs on it now: its idle clock waits, and it cannot be unloaded until that answer ends. */
  answering: boolean;
}

/**
 * An answer waiting on the built-in engine before its first token: `loading` its model (nothing runs before it), or
 * `queued` behind other answers, on any model (the engine runs one answer at a time, whatever the model).
 */
export type WaitingAnswer =
  | { turnId: string; file: string; state: 'loading' }
  /** Its model is loaded and the engine reads the conversation (`tokens` of it not cached) before the first token. */
  | { turnId: string; file: string; state: 'reading'; tokens: number }
  | {
      turnId: string;
      file: string;
      state: 'queued';
      /**
       * Each generation before this one, in the order they run (the first runs or loads now): its model, and whether
       * it is an answer (else a title or a summary made for a chat, or, with `load`, a load asked from Models → Load).
       */
      ahead: { file: string; answer: boolean; load?: true }[];
      /** Whether this answer's model must still be loaded once its turn comes (not loaded, or with another window). */
      thenLoads: boolean;
    };

export interface BuiltinStatus {
  /** Null until the engine has started once (it starts on first use). */
  backend: BackendInfo | null;
  running: boolean;
  loaded: LoadedModel[];
  /** Model files an answer waits on while the engine loads them (what `loading:`/`loaded:` events say, read at once). */
  loading: string[];
  /** Each answer waiting before its first token, and on what (what `builtin:waiting` says, read at once). */
  waiting: WaitingAnswer[];
  modelsDir: string;
  /** Why the engine cannot run here at all (no binary for this platform), if so. */
  unavailable: string | null;
}

export interface LibraryInvokeContract {
  'library:list': { req: Record<string, never>; res: LibraryEntry[] };
  /** Copies (or links) a GGUF file from a path on this machine into the models folder. */
  'library:add-file': { req: { path: string; mode: 'copy' | 'link' }; res: LibraryEntry };
  /** Starts (or resumes) a download from an http(s) URL or `hf:owner/repo/file.gguf`. */
  'library:download': { req: { source: string }; res: { downloadId: string } };
  'library:pause-download': { req: { downloadId: string }; res: { paused: boolean } };
  'library:cancel-download': { req: { downloadId: string }; res: { cancelled: boolean } };
  'library:delete': { req: { file: string }; res: { deleted: boolean } };
  'library:rename': { req: { file: string; to: string }; res: LibraryEntry };
  'library:recommend-context': { req: { file: string }; res: ContextAdvice };
  'library:set-context': { req: { file: string; contextWindow: number | null }; res: { contextWindow: number | null } };
  'builtin:status': { req: Record<string, never>; res: BuiltinStatus };
  'builtin:load': { req: { file: string }; res: BuiltinStatus };
  'builtin:unload': { req: { file: string }; res: BuiltinStatus };
}

export interface LibraryEventContract {
  /** `renamed`: a file renamed in Models, old name → new: what chose it by name follows it (builtin audit #3). */
  'library:changed': { reason: string; renamed?: { from: string; to: string } };
  'library:download-progress': DownloadProgress;
  /** The answers waiting on the built-in engine, each with its own state, after any of them changed. */
  'builtin:waiting': { waiting: WaitingAnswer[] };
}

export const LIBRARY_INVOKE_CHANNELS = [
  'library:list',
  'library:add-file',
  'library:download',
  'library:pause-download',
  'library:cancel-download',
  'library:delete',
  'library:rename',
  'library:recommend-context',
  'library:set-context',
  'builtin:status',
  'builtin:load',
  'builtin:unload',
] as const satisfies readonly (keyof LibraryInvokeContract)[];

export const LIBRARY_EVENT_CHANNELS = ['library:changed', 'library:download-progress', 'builtin:waiting'] as const satisfies readonly (keyof LibraryEventContract)[];
