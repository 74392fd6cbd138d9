/**
 * What the main process's services are made with (the carrier's flags and test knobs) and what they give the
 * carriers (services.ts wires them).
 */
import type { Database } from 'better-sqlite3';
import type { ChatService } from './chat/chat-service';
import type { ChatWiringOptions } from './chat/chat-wiring';
import type { EventHub } from './events';
import type { SecretStore } from './secrets/secret-store';
import type { McpManager } from './mcp/mcp-manager';
import type { Dispatcher, InvokeHandlers } from './ipc/dispatch';
import type { ExtractionLimits } from './documents/extraction-runner';
import type { ReaderSpawner } from './documents/reader-protocol';
import type { ProbeHost } from './gpu/types';
import type { EngineSpawner } from './builtin/engine-host';
import type { LibraryParts } from './library/library-wiring';
import type { ServerWatchDeps } from './models/server-watch';

export interface ServicesOptions {
  dataDir: string;
  /** Overrides the saved Ollama address (the `--ollama URL` flag); saved so the UI shows it. */
  ollamaUrl?: string;
  nativeBinding?: string;
  /** Longest silence tolerated mid-stream (default: the leg's 2 minutes). */
  stallTimeoutMs?: number;
  log?: (message: string) => void;
  /** Where API keys live: the shell passes Electron safeStorage's; default the 0600 `<dataDir>/secrets.json`. */
  secrets?: SecretStore;
  /** Engine knobs for tests (tools, step limit, retry pause, titles). */
  chat?: Partial<Pick<ChatWiringOptions, 'tools' | 'maxSteps' | 'retryDelayMs' | 'titles' | 'appLayer' | 'alias'>>;
  /** The GPU probe's machine (tests feed recorded outputs); default the real one. */
  probeHost?: ProbeHost;
  /** Delay before the startup blob GC (default 30 s; tests shorten it). */
  startupGcDelayMs?: number;
  /** Bounds of document extraction (time, memory, workers at once); tests tighten them. */
  extraction?: Partial<ExtractionLimits>;
  /** Starts a document reader process (a utilityProcess in the shell); default a Node fork (serve mode, tests). */
  documentReader?: ReaderSpawner;
  /** The models folder (the `--models-dir` flag); saved so the UI shows it. Default `<dataDir>/models`. */
  modelsDir?: string;
  /** Starts the built-in engine process (a fork in serve mode, a utilityProcess in the shell); absent: unavailable. */
  builtinEngine?: EngineSpawner;
  /**
   * Watch the server in use and tell the renderers when it comes back, goes away or lists other models
   * (`models:changed`). On in the app and serve mode; off by default so tests that count requests see only theirs.
   */
  watchServers?: boolean | Pick<ServerWatchDeps, 'upIntervalMs' | 'backoffMs'>;
  /**
   * Ask the server in use for its model list as soon as the services exist, for the first page that asks within
   * a few seconds (models/early-answer.ts). On in the app and serve mode; off by default, as `watchServers`.
   */
  prefetchModelList?: boolean;
  /** How many of the newest messages a search of an emoji or a very common literal word reads; tests tighten them. */
  search?: { symbolScanRows?: number; literalScanRows?: number };
  /** MCP knobs for tests: how long a server may take to start. */
  mcp?: { startTimeoutMs?: number; prepareWaitMs?: number };
}

export interface Services {
  dispatcher: Dispatcher;
  hub: EventHub;
  handlers: InvokeHandlers;
  db: Database;
  chat: ChatService;
  /** The model library and the built-in engine (the shell reveals files; tests reach the engine process). */
  library: LibraryParts;
  /** The MCP tool servers (issue 19). */
  mcp: McpManager;
  /**
   * Stops everything. MCP servers get a polite stop at once (stdin closed, SIGTERM to their process groups) and
   * SIGKILL after a short grace or when this process exits, whichever comes first; `closed` resolves when they
   * are gone, for a carrier that can wait.
   */
  close(): void;
  closed: Promise<void>;
}
