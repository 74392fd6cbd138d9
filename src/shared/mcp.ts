/**
 * Model Context Protocol servers as tools (issue 19, DESIGN.md §9), as main and the renderer share them: the
 * servers the user configured, their state and tools, and the channels Settings → Tools uses. Pure types.
 * Secrets (env values, header values) go to main once and never come back: only their names are listed.
 */

/** `stdio`: a program Firebrand starts; `http`: a URL speaking Streamable HTTP (or, failing that, the older SSE). */
export type McpTransport = 'stdio' | 'http';

/** stopped: not running (not needed yet, disabled, or quit); starting; ready (tools listed); failed (see `error`). */
export type McpServerState = 'stopped' | 'starting' | 'ready' | 'failed';

export const MCP_SERVER_STATES: readonly McpServerState[] = ['stopped', 'starting', 'ready', 'failed'];

/** One tool of a server, as Settings shows it. */
export interface McpToolInfo {
  /** The server's own name for it. */
  name: string;
  /** The name the model sees (its own when unique among enabled tools, else `server_tool`); null: not offered. */
  offeredAs: string | null;
  /** Untrusted text from the server: shown as text, never as HTML. */
  description: string;
  enabled: boolean;
  /** Runs without asking (the user chose "always allow" for it); default: ask on a card. */
  alwaysAllow: boolean;
}

export interface McpServerInfo {
  id: string;
  /** Unique among servers; the prefix of `server_tool` names. */
  name: string;
  transport: McpTransport;
  /** stdio: the program and its arguments, and the folder it runs in (null: the user's home folder). */
  command: string;
  args: string[];
  cwd: string | null;
  /** http: the server's URL. */
  url: string;
  /** Names of the environment variables (stdio) and headers (http) saved for it; their values are never shown. */
  envNames: string[];
  headerNames: string[];
  enabled: boolean;
  /** Start with Firebrand instead of when first needed. */
  startWithApp: boolean;
  /** A call that gets no answer (or progress) for this long ends with an error result. */
  timeoutSeconds: number;
  state: McpServerState;
  /** Why it failed, in words; null unless `failed`. */
  error: string | null;
  /** The last lines the server wrote to stderr (and any stdout that was not protocol), for the user. */
  stderrTail: string;
  /**
   * While it starts: the last line the program wrote so far, readable (what it is doing, or what is wrong: "Error:
   * missing API key" from one that then waits); null otherwise.
   */
  startingLine: string | null;
  /** Which protocol answered over http (`streamable-http` or `sse`); `stdio`; null before it ever connected. */
  protocol: 'stdio' | 'streamable-http' | 'sse' | null;
  /** The tools it listed when it last connected (kept across restarts); empty before it ever listed them. */
  tools: McpToolInfo[];
  toolsKnown: boolean;
}

/** A saved secret entry: a value sets or replaces it; no value keeps the saved one. Names not listed are removed. */
export interface McpSecretEntry {
  name: string;
  value?: string;
}

/** Creates (no id) or updates a server. */
export interface McpServerInput {
  id?: string;
  name: string;
  transport: McpTransport;
  command?: string;
  args?: string[];
  cwd?: string | null;
  url?: string;
  env?: McpSecretEntry[];
  headers?: McpSecretEntry[];
  enabled?: boolean;
  startWithApp?: boolean;
  timeoutSeconds?: number;
}

export interface McpImportResult {
  /** Names of the servers added. */
  added: string[];
  /** Entries not added, and why. */
  skipped: { name: string; reason: string }[];
}

/** A tool call's progress, for its card while it runs (`turnId`: the assistant turn that made the call). */
export interface ToolProgress {
  conversationId: string;
  turnId: string;
  toolCallId: string;
  state: 'running' | 'done';
  progress: number | null;
  total: number | null;
  message: string | null;
}

export const DEFAULT_MCP_TIMEOUT_SECONDS = 60;

export interface McpInvokeContract {
  'mcp:list': { req: Record<string, never>; res: McpServerInfo[] };
  'mcp:save': { req: McpServerInput; res: McpServerInfo };
  'mcp:delete': { req: { id: string }; res: { deleted: boolean } };
  'mcp:set-enabled': { req: { id: string; enabled: boolean }; res: McpServerInfo };
  /** A tool's switches: offered to the model or not; run without asking or not. */
  'mcp:set-tool': { req: { id: string; tool: string; enabled?: boolean; alwaysAllow?: boolean }; res: McpServerInfo };
  /** Stops the server if it runs and starts it again now (a failed server's "Try again"). */
  'mcp:restart': { req: { id: string }; res: McpServerInfo };
  /** Adds the servers of an `mcpServers` JSON file (Claude Desktop, Cursor, Cline... all use this shape). */
  'mcp:import': { req: { text: string }; res: McpImportResult };
}

export interface McpEventContract {
  /** Servers, their states or tools changed: the whole list (it is small). */
  'mcp:changed': { servers: McpServerInfo[] };
  'chat:tool-progress': ToolProgress;
}

export const MCP_INVOKE_CHANNELS = ['mcp:list', 'mcp:save', 'mcp:delete', 'mcp:set-enabled', 'mcp:set-tool', 'mcp:restart', 'mcp:import'] as const satisfies readonly (keyof McpInvokeContract)[];
export const MCP_EVENT_CHANNELS = ['mcp:changed', 'chat:tool-progress'] as const satisfies readonly (keyof McpEventContract)[];
