/**
 * The MCP servers as one tool provider (issue 19, DESIGN.md §9): the configured servers, one host each, their
 * state for Settings → Tools, and their enabled tools offered to the model through the one tool registry, named
 * by the collision rule (src/main/mcp/tool-names.ts). Only what the user configured runs: a stdio server gets
 * its command, arguments, folder and environment, plus the few variables a program needs to start (the SDK's
 * list: HOME, PATH, USER...), and nothing else of Firebrand's environment.
 */
import { homedir } from 'node:os';
import type { JsonObject, JsonValue } from '../../shared/json';
import type { McpServerInfo, McpToolInfo } from '../../shared/mcp';
import type { AttachmentBlock } from '../../shared/turn';
import type { EmitEvent } from '../events';
import type { SecretStore } from '../secrets/secret-store';
import type { ToolProvider } from '../tools/registry';
import { ToolFailure, type Tool } from '../tools/types';
import type { Database } from 'better-sqlite3';
import { McpServerHost, type StopReason } from './mcp-server-host';
import type { McpToolDef, SessionConfig } from './mcp-session';
import { McpStore, type CachedTool, type StoredMcpServer } from './mcp-store';
import { killAllOnExit } from './live-processes';
import { toolOutcome } from './tool-result';
import { offeredNames } from './tool-names';

export interface McpManagerDeps {
  db: Database;
  secrets: SecretStore;
  emit: EmitEvent;
  newId: () => string;
  now: () => number;
  /** Stores an image a tool returned (the blob store). */
  storeImage?: (bytes: Uint8Array, mime: string, name: string) => Promise<AttachmentBlock>;
  /** The folder a stdio server runs in when none is configured (default: the home folder). */
  defaultCwd?: string;
  /** How long `initialize` and the first `tools/list` may take (default 30 s). */
  startTimeoutMs?: number;
  /** How long a request waits for servers that never listed their tools (default 5 s). */
  prepareWaitMs?: number;
  /** Names taken before any MCP tool's (the built-in tools'): Settings shows the names the model will see. */
  reservedNames?: readonly string[];
}

/** A request waits this long for a starting server's tools; it goes without them after that. */
export const PREPARE_WAIT_MS = 5000;

/** Starting a program (npx may download it first) takes longer than most calls: its own, longer bound. */
export const DEFAULT_START_TIMEOUT_MS = 30_000;

/** Longest tool description passed on to the model: a server's essay would crowd out the conversation. */
const MAX_DESCRIPTION = 4000;

export class McpManager {
  readonly store: McpStore;
  private readonly hosts = new Map<string, McpServerHost>();
  private emitQueued = false;
  private closed = false;

  constructor(private readonly deps: McpManagerDeps) {
    this.store = new McpStore(deps.db, deps.secrets);
    killAllOnExit();
  }

  /** Starts the enabled servers the user asked to start with Firebrand (the others start when first needed). */
  startAtLaunch(): void {
    for (const s of this.store.list()) if (s.enabled && s.startWithApp) void this.host(s.id).start().catch(() => undefined);
  }

  /** The provider the tool registry asks at each step. */
  readonly provider: ToolProvider = {
    tools: (taken) => this.offered(taken).map((o) => this.tool(o.server, o.def, o.name)),
    prepare: async (signal) => {
      // Servers that are enabled but never listed their tools start now, so the model can be offered them. The
      // request waits a few seconds at most: a slow server's tools join a later request, a hung one never blocks.
      const unknown = this.store.list().filter((s) => s.enabled && s.tools === null);
      if (unknown.length === 0) return;
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise<void>((r) => (timer = setTimeout(r, this.deps.prepareWaitMs ?? PREPARE_WAIT_MS)));
      await Promise.race([Promise.all(unknown.map((s) => this.host(s.id).list(signal))), bound]);
      clearTimeout(timer);
    },
  };

  list(): McpServerInfo[] {
    const names = this.offeredNames();
    return this.store.list().map((s) => this.info(s, names));
  }

  info(s: StoredMcpServer, names = this.offeredNames()): McpServerInfo {
    const host = this.hosts.get(s.id);
    const tools: McpToolInfo[] = (s.tools ?? []).map((t) => ({
      name: t.name,
      offeredAs: names.get(`${s.id}\u0000${t.name}`) ?? null,
      description: t.description,
      enabled: !s.disabledTools.includes(t.name),
      alwaysAllow: s.alwaysAllow.includes(t.name),
    }));
    return {
      id: s.id,
      name: s.name,
      transport: s.transport,
      command: s.command,
      args: s.args,
      cwd: s.cwd,
      url: s.url,
      envNames: s.envNames,
      headerNames: s.headerNames,
      enabled: s.enabled,
      startWithApp: s.startWithApp,
      timeoutSeconds: s.timeoutSeconds,
      state: host?.state ?? 'stopped',
      error: host?.error ?? null,
      stderrTail: host?.tail.value() ?? '',
      startingLine: host?.startingLine ?? null,
      protocol: s.protocol,
      tools,
      toolsKnown: s.tools !== null,
    };
  }

  /** The host of a configured server (made on first use); none is made for a removed one (tools audit #4). */
  host(id: string): McpServerHost {
    let host = this.hosts.get(id);
    if (!host) {
      if (!this.store.get(id)) throw new Error('This tool server is no longer configured.');
      host = new McpServerHost({
        name: () => this.store.get(id)?.name ?? 'The server',
        sessionConfig: () => this.sessionConfig(id),
        timeoutMs: () => (this.store.get(id)?.timeoutSeconds ?? 60) * 1000,
        listed: (tools, protocol) => this.store.update(id, { tools: tools.map(cached), protocol }),
        changed: () => this.changed(),
        now: this.deps.now,
      });
      this.hosts.set(id, host);
    }
    return host;
  }

  /** Stops a server's process (disabled, removed, or changed: the next use starts what is configured now). */
  async stopHost(id: string, reason?: StopReason): Promise<void> {
    const host = this.hosts.get(id);
    if (host) await host.stop(reason);
  }

  forget(id: string): void {
    void this.stopHost(id, 'removed');
    this.hosts.delete(id);
  }

  /** Settings → Tools after a change: tell the renderer (coalesced: one event for a burst of changes). */
  changed(): void {
    if (this.emitQueued || this.closed) return;
    this.emitQueued = true;
    queueMicrotask(() => {
      this.emitQueued = false;
      if (!this.closed) this.deps.emit('mcp:changed', { servers: this.list() });
    });
  }

  /** Stops every server; resolves once their processes are gone (each is killed after a short grace). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.hosts.values()].map((h) => h.stop()));
  }

  private sessionConfig(id: string): SessionConfig {
    const s = this.store.get(id);
    if (!s) throw new Error('This server is no longer configured.');
    return {
      transport: s.transport,
      command: s.command,
      args: s.args,
      cwd: s.cwd ?? this.deps.defaultCwd ?? homedir(),
      // Only what the user configured, on top of what any program needs to start (added by the session; never
      // Firebrand's own secrets).
      env: this.store.env(s),
      url: s.url,
      headers: this.store.headers(s),
      timeoutMs: this.deps.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS,
    };
  }

  /** Offered names by server id and tool, as the model sees them next to the built-in tools. */
  private offeredNames(): Map<string, string> {
    return new Map(this.offered(this.deps.reservedNames ?? []).map((o) => [`${o.server.id}\u0000${o.def.name}`, o.name]));
  }

  /** The enabled tools of enabled servers, with the names they are offered under. */
  private offered(taken: readonly string[]): { server: StoredMcpServer; def: CachedTool; name: string }[] {
    const entries = this.store.list().flatMap((server) => (server.enabled ? (server.tools ?? []).filter((t) => !server.disabledTools.includes(t.name)).map((def) => ({ server, def })) : []));
    const names = offeredNames(taken, entries.map((e) => ({ server: e.server.name, tool: e.def.name })));
    return entries.map((e, i) => ({ ...e, name: names[i] ?? e.def.name }));
  }

  private tool(server: StoredMcpServer, def: CachedTool, offeredAs: string): Tool {
    const store = this.store;
    return {
      schema: { name: offeredAs, description: def.description.slice(0, MAX_DESCRIPTION), parameters: def.inputSchema },
      // Read at the moment of the call: "always allow" chosen on an earlier card counts at once.
      get needsApproval() {
        return !(store.get(server.id)?.alwaysAllow.includes(def.name) ?? false);
      },
      server: server.name,
      approvalKey: mcpApprovalKey(server.id, def.name),
      describeCall: (args) => describeArgs(def.name, offeredAs, args),
      allowAlways: () => void this.setTool(server.id, def.name, { alwaysAllow: true }),
      run: async (args, ctx) => {
        // The call may have waited for approval while the user removed its server: it said "could not start" and
        // left a host behind for the deleted id (tools audit #4).
        if (!store.get(server.id)) throw new ToolFailure(`${server.name} was removed in Settings → Tools, so ${def.name} did not run. Add the server again to use its tools.`);
        // The host's reasons name the server and the tool, and keep the server's own words: shown as they are.
        const result = await this.host(server.id)
          .call(def.name, isObject(args) ? args : {}, { signal: ctx.signal, ...(ctx.onProgress ? { onProgress: ctx.onProgress } : {}) })
          .catch((err: unknown) => {
            throw new ToolFailure(err instanceof Error ? err.message : String(err));
          });
        return toolOutcome(result, offeredAs, ctx.storeImage ?? this.deps.storeImage);
      },
    };
  }

  setTool(id: string, tool: string, change: { enabled?: boolean; alwaysAllow?: boolean }): StoredMcpServer | undefined {
    const s = this.store.get(id);
    if (!s) return undefined;
    const toggle = (list: string[], on: boolean | undefined) => (on === undefined ? list : on ? [...new Set([...list, tool])] : list.filter((t) => t !== tool));
    const next = this.store.update(id, {
      disabledTools: change.enabled === undefined ? s.disabledTools : toggle(s.disabledTools, !change.enabled),
      alwaysAllow: toggle(s.alwaysAllow, change.alwaysAllow),
    });
    this.changed();
    return next;
  }
}

/** Characters of one text argument the approval card shows; the rest is counted. */
const ARG_SHOWN_CHARS = 300;
/** Items of one list argument the card shows. */
const ARG_SHOWN_ITEMS = 20;
/** A backstop for a call of very many arguments; each one is short by then. */
const CALL_SHOWN_CHARS = 8000;

/**
 * What the approval card shows of a call: the server's own tool name when offered under another, and the arguments,
 * every one of them by name. Each long value is shortened on its own: the model writes the arguments in any order,
 * and cutting the whole call at 2000 characters let a long text in front push the file a write goes to off the card.
 */
function describeArgs(tool: string, offeredAs: string, args: JsonValue): string {
  const json = JSON.stringify(shortened(args));
  const shown = json.length > CALL_SHOWN_CHARS ? `${json.slice(0, CALL_SHOWN_CHARS)}…` : json;
  return tool === offeredAs ? shown : `${tool} ${shown}`;
}

function shortened(value: JsonValue): JsonValue {
  if (typeof value === 'string') return value.length > ARG_SHOWN_CHARS ? `${value.slice(0, ARG_SHOWN_CHARS)}… (${value.length - ARG_SHOWN_CHARS} more characters)` : value;
  if (Array.isArray(value)) {
    const items = value.slice(0, ARG_SHOWN_ITEMS).map(shortened);
    return value.length > ARG_SHOWN_ITEMS ? [...items, `… (${value.length - ARG_SHOWN_ITEMS} more items)`] : items;
  }
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shortened(v)]));
  return value;
}

function cached(t: McpToolDef): CachedTool {
  const { $schema: _dialect, ...schema } = t.inputSchema as JsonObject & { $schema?: unknown };
  return { name: t.name, description: t.description ?? t.title ?? '', inputSchema: { ...schema, type: 'object' } };
}

function isObject(v: JsonValue): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The key an MCP tool's approvals are kept under: by server id and the server's own name for the tool. */
export function mcpApprovalKey(serverId: string, tool: string): string {
  return `mcp\u0000${serverId}\u0000${tool}`;
}

/** Whether an approval key is one of this server's tools. */
export function isServersApprovalKey(serverId: string, key: string): boolean {
  return key.startsWith(`mcp\u0000${serverId}\u0000`);
}
