import type { ThinkMode } from './models';

/** Kinds of server a user can add a connection to; each speaks one dialect (llama-server speaks the OpenAI one). */
export const CONNECTION_KINDS = ['ollama', 'llama-server', 'openai-compatible', 'anthropic'] as const;
export type ServerKind = (typeof CONNECTION_KINDS)[number];
/** A server kind, or `builtin`: the llama.cpp engine inside Firebrand (always present, never added or removed). */
export type ConnectionKind = ServerKind | 'builtin';

/**
 * Each kind as a user knows it, for Settings' rows and its kind dropdown: the ids ("llama-server",
 * "openai-compatible", "builtin") were shown as they are (settings user's-eyes pass).
 */
export const KIND_NAMES: Record<ConnectionKind, string> = {
  ollama: 'Ollama',
  'llama-server': 'llama.cpp server',
  'openai-compatible': 'OpenAI-compatible (LM Studio, vLLM…)',
  anthropic: 'Anthropic',
  builtin: 'Built-in (llama.cpp)',
};

/** The built-in engine's connection id. */
export const BUILTIN_CONNECTION_ID = 'builtin';

/** A server the user chats with. The API key is never here: only whether one is saved. */
export interface ConnectionInfo {
  id: string;
  kind: ConnectionKind;
  label: string;
  baseUrl: string;
  hasApiKey: boolean;
  /** Always present, cannot be deleted: the default Ollama connection (its address is the `ollamaUrl` setting)
   * and the built-in engine (its `baseUrl` is the models folder). */
  builtIn?: boolean;
}

/**
 * How Firebrand names a connection in what it says (the banner, the composer, an answer's failure): the user's name
 * for it, else its kind. The banner said "Cannot reach Ollama" where the composer said "GPU box cannot be reached":
 * with two connections of one kind, the kind does not say which one failed.
 */
export function connectionName(c: Pick<ConnectionInfo, 'label' | 'kind'>): string {
  return c.label.trim() || c.kind;
}

/**
 * What a connection added without a name is called: its kind's name without the examples in brackets ("OpenAI-compatible",
 * not "OpenAI-compatible (LM Studio, vLLM…)", a menu entry's words, cut in the name box at 390 px), made unique by
 * `unusedName`.
 */
export function kindConnectionName(kind: ServerKind): string {
  return KIND_NAMES[kind].replace(/\s*\([^)]*\)$/, '');
}

/** `base`, or `base 2`, `base 3`…: the first that no connection has (names compared as a user reads them). */
export function unusedName(base: string, taken: readonly string[]): string {
  const used = new Set(taken.map((t) => t.trim().toLowerCase()));
  for (let n = 1; ; n++) {
    const name = n === 1 ? base : `${base} ${n}`;
    if (!used.has(name.toLowerCase())) return name;
  }
}

/**
 * Create (no id) or update (id) a connection; `apiKey` '' removes the saved key, absent keeps it. An empty `label`
 * keeps the saved name, or names a new connection by its kind (`unusedName(kindConnectionName(kind), …)`).
 */
export interface ConnectionInput {
  id?: string;
  kind: ServerKind;
  label: string;
  baseUrl: string;
  apiKey?: string;
}

/** What "Test connection" found: the server's version and model count, or the exact failure. */
export type ConnectionTestResult =
  | { ok: true; version: string | null; modelCount: number; detail: string }
  | { ok: false; error: string };

/** What protects saved API keys on this machine, for Settings → connections: the truth, in plain words. */
export interface KeyStorage {
  /** True only when an OS keyring encrypts them (never for Electron's `basic_text` fallback or serve mode). */
  encrypted: boolean;
  summary: string;
}

/** Think mode per conversation or alias (one type with the aliases'); levels are for models that take one. */
export type { ThinkMode };
export const THINK_MODES = ['off', 'on', 'low', 'medium', 'high'] as const satisfies readonly ThinkMode[];
