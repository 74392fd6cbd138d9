/**
 * The MCP servers the user configured, kept as one JSON value in the settings table (like connections: a small
 * list read whole, so no migration). Environment values and header values are secrets: they live in the secret
 * store (`mcp:<id>:env:<NAME>`, `mcp:<id>:header:<NAME>`) like API keys, are never returned to the renderer and
 * never enter a record or an export; the list keeps only their names.
 */
import { isAbsolute } from 'node:path';
import type { Database } from 'better-sqlite3';
import type { JsonObject } from '../../shared/json';
import { DEFAULT_MCP_TIMEOUT_SECONDS, type McpSecretEntry, type McpServerInfo, type McpServerInput } from '../../shared/mcp';
import { withAssumedScheme } from '../../shared/server-address';
import { UserFacingError } from '../errors';
import type { SecretStore } from '../secrets/secret-store';

const KEY = 'mcp.servers';

/** A tool as the server last listed it: kept, so a server need not start before its tools can be offered. */
export interface CachedTool {
  name: string;
  description: string;
  inputSchema: JsonObject;
}

/** A server as kept: its settings as the renderer sees them, plus what only main keeps. */
export interface StoredMcpServer
  extends Pick<McpServerInfo, 'id' | 'name' | 'transport' | 'command' | 'args' | 'cwd' | 'url' | 'envNames' | 'headerNames' | 'enabled' | 'startWithApp' | 'timeoutSeconds' | 'protocol'> {
  disabledTools: string[];
  alwaysAllow: string[];
  tools: CachedTool[] | null;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,199}$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,200}$/;

export class McpStore {
  constructor(
    private readonly db: Database,
    private readonly secrets: SecretStore,
  ) {}

  /** Read once, then kept: only this store writes the row, and a call reads it several times (bench/mcp). */
  private cache: readonly StoredMcpServer[] | undefined;

  list(): StoredMcpServer[] {
    this.cache ??= this.read();
    return [...this.cache];
  }

  private read(): StoredMcpServer[] {
    const row = this.db.prepare('SELECT value FROM settings WHERE key = ?').get(KEY) as { value: string } | undefined;
    if (!row) return [];
    let parsed: unknown;
    try {
      parsed = JSON.parse(row.value);
    } catch {
      return [];
    }
    return Array.isArray(parsed) ? parsed.flatMap((v) => (isStored(v) ? [normalize(v)] : [])) : [];
  }

  get(id: string): StoredMcpServer | undefined {
    return this.list().find((s) => s.id === id);
  }

  /** Creates or updates a server from the form or an import; checks everything before writing anything. */
  save(input: McpServerInput, newId: () => string): StoredMcpServer {
    const all = this.list();
    const previous = input.id !== undefined ? all.find((s) => s.id === input.id) : undefined;
    if (input.id !== undefined && !previous) throw new UserFacingError('not-found', 'That tool server no longer exists.');
    const name = input.name.trim();
    if (name === '' || name.length > 100) throw invalid('Give the server a name (at most 100 characters).');
    // Named as it is there: "Custom" clashed with "custom", and the message quoted "Custom" (tools audit #8).
    const clash = all.find((s) => s.id !== previous?.id && s.name.toLowerCase() === name.toLowerCase());
    if (clash) throw invalid(`There is a server named “${clash.name}” already (names are compared ignoring case); pick another name.`);
    const id = previous?.id ?? newId();
    const transport = input.transport;
    const command = (input.command ?? previous?.command ?? '').trim();
    // `localhost:3001/mcp` is http://localhost:3001/mcp, as a connection's address is (shared/server-address.ts).
    const url = withAssumedScheme(input.url ?? previous?.url ?? '');
    const cwd = input.cwd === undefined ? (previous?.cwd ?? null) : input.cwd === null || input.cwd.trim() === '' ? null : input.cwd.trim();
    if (transport === 'stdio' && command === '') throw invalid('Enter the command that starts the server (for example npx or uvx).');
    if (transport === 'http' && url === '') throw invalid('Enter the server’s address, for example http://localhost:3001/mcp.');
    if (transport === 'http' && !/^https?:\/\/\S+$/i.test(url)) {
      throw invalid(`“${url.slice(0, 200)}” is not an address Firebrand can reach: it starts with http:// or https://, or is a host and port (such as localhost:3001/mcp, taken as http://).`);
    }
    if (transport === 'http') {
      try {
        new URL(url);
      } catch {
        throw invalid(`“${url.slice(0, 200)}” is not an address.`);
      }
    }
    if (cwd !== null && !isAbsolute(cwd)) throw invalid(`The working folder must be a full path, not “${cwd.slice(0, 200)}”.`);
    const timeoutSeconds = input.timeoutSeconds ?? previous?.timeoutSeconds ?? DEFAULT_MCP_TIMEOUT_SECONDS;
    if (!Number.isInteger(timeoutSeconds) || timeoutSeconds < 1 || timeoutSeconds > 3600) throw invalid('The call timeout is a whole number of seconds from 1 to 3600.');
    const env = checkEntries(input.env, previous?.envNames ?? [], ENV_NAME, 'environment variable');
    const headers = checkEntries(input.headers, previous?.headerNames ?? [], HEADER_NAME, 'header');

    const args = input.args ?? previous?.args ?? [];
    const keepsTarget = previous !== undefined && sameTarget(previous, { transport, command, args, cwd, url });
    const entry: StoredMcpServer = {
      id,
      name,
      transport,
      command,
      args,
      cwd,
      url,
      envNames: env.names,
      headerNames: headers.names,
      enabled: input.enabled ?? previous?.enabled ?? true,
      startWithApp: input.startWithApp ?? previous?.startWithApp ?? false,
      timeoutSeconds,
      // A tool switched off stays off: that errs on the side of asking less of the model, not more.
      disabledTools: previous?.disabledTools ?? [],
      // "Run without asking" was given to what the server ran then (a folder, an account): it does not carry
      // over to another program, arguments, folder or address (tools audit #9).
      alwaysAllow: keepsTarget ? previous.alwaysAllow : [],
      // What it runs changed: the old tool list may not be this server's any more.
      tools: keepsTarget ? previous.tools : null,
      protocol: previous?.protocol ?? null,
    };
    this.writeSecrets(id, 'env', previous?.envNames ?? [], env);
    this.writeSecrets(id, 'header', previous?.headerNames ?? [], headers);
    this.write([...all.filter((s) => s.id !== id), entry].sort((a, b) => order(all, a.id) - order(all, b.id)));
    return entry;
  }

  /** Changes fields that hold no secret (switches, the tool cache). */
  update(id: string, patch: Partial<Omit<StoredMcpServer, 'id' | 'envNames' | 'headerNames'>>): StoredMcpServer | undefined {
    const all = this.list();
    const current = all.find((s) => s.id === id);
    if (!current) return undefined;
    const next = { ...current, ...patch };
    this.write(all.map((s) => (s.id === id ? next : s)));
    return next;
  }

  delete(id: string): boolean {
    const all = this.list();
    const gone = all.find((s) => s.id === id);
    if (!gone) return false;
    this.write(all.filter((s) => s.id !== id));
    for (const n of gone.envNames) this.secrets.delete(secretName(id, 'env', n));
    for (const n of gone.headerNames) this.secrets.delete(secretName(id, 'header', n));
    return true;
  }

  /** The saved values, read when a session starts; they live only in that session's memory. */
  env(server: StoredMcpServer): Record<string, string> {
    return this.values(server.id, 'env', server.envNames);
  }

  headers(server: StoredMcpServer): Record<string, string> {
    return this.values(server.id, 'header', server.headerNames);
  }

  private values(id: string, kind: 'env' | 'header', names: string[]): Record<string, string> {
    const out: Record<string, string> = {};
    for (const n of names) {
      const v = this.secrets.get(secretName(id, kind, n));
      if (v !== undefined) out[n] = v;
    }
    return out;
  }

  private writeSecrets(id: string, kind: 'env' | 'header', before: string[], next: CheckedEntries): void {
    try {
      for (const [n, v] of next.values) this.secrets.set(secretName(id, kind, n), v);
    } catch (err) {
      throw new UserFacingError('internal', `The server's ${kind === 'env' ? 'environment' : 'headers'} could not be saved: ${err instanceof Error ? err.message : String(err)}`);
    }
    for (const n of before) if (!next.names.includes(n)) this.secrets.delete(secretName(id, kind, n));
  }

  private write(list: StoredMcpServer[]): void {
    this.db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(KEY, JSON.stringify(list));
    this.cache = list;
  }
}

interface CheckedEntries {
  names: string[];
  values: [string, string][];
}

function checkEntries(entries: McpSecretEntry[] | undefined, saved: string[], pattern: RegExp, what: string): CheckedEntries {
  if (entries === undefined) return { names: saved, values: [] };
  const names: string[] = [];
  const values: [string, string][] = [];
  for (const e of entries) {
    const name = e.name.trim();
    if (!pattern.test(name)) throw invalid(`“${name.slice(0, 100)}” is not a valid ${what} name.`);
    if (names.includes(name)) throw invalid(`The ${what} ${name} is listed twice.`);
    if (e.value === undefined) {
      if (!saved.includes(name)) throw invalid(`Enter a value for the ${what} ${name}.`);
    } else {
      if (e.value.length > 16_000) throw invalid(`The value of ${name} is too long.`);
      if (what === 'header' && /[\r\n\0]/.test(e.value)) throw invalid(`The header ${name} cannot contain line breaks.`);
      values.push([name, e.value]);
    }
    names.push(name);
  }
  return { names, values };
}

type Target = Pick<StoredMcpServer, 'transport' | 'command' | 'args' | 'cwd' | 'url'>;

/** Whether an edit leaves the server running the same thing: the same program, arguments and folder, or address. */
function sameTarget(a: Target, b: Target): boolean {
  if (a.transport !== b.transport) return false;
  if (a.transport === 'http') return a.url === b.url;
  return a.command === b.command && a.cwd === b.cwd && JSON.stringify(a.args) === JSON.stringify(b.args);
}

function order(all: StoredMcpServer[], id: string): number {
  const i = all.findIndex((s) => s.id === id);
  return i === -1 ? all.length : i;
}

function secretName(id: string, kind: 'env' | 'header', name: string): string {
  return `mcp:${id}:${kind}:${name}`;
}

function invalid(message: string): UserFacingError {
  return new UserFacingError('invalid-payload', message);
}

const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

function isStored(v: unknown): v is StoredMcpServer {
  if (!v || typeof v !== 'object') return false;
  const o = v as Record<string, unknown>;
  return typeof o['id'] === 'string' && typeof o['name'] === 'string' && (o['transport'] === 'stdio' || o['transport'] === 'http');
}

/** Fills what an older or hand-edited entry lacks, so readers see whole entries. */
function normalize(s: StoredMcpServer): StoredMcpServer {
  const o = s as unknown as Record<string, unknown>;
  const tools = Array.isArray(o['tools']) ? (o['tools'] as unknown[]).flatMap((t) => (isCachedTool(t) ? [t] : [])) : null;
  const protocol = o['protocol'];
  return {
    id: s.id,
    name: s.name,
    transport: s.transport,
    command: typeof o['command'] === 'string' ? o['command'] : '',
    args: strings(o['args']) ? o['args'] : [],
    cwd: typeof o['cwd'] === 'string' ? o['cwd'] : null,
    url: typeof o['url'] === 'string' ? o['url'] : '',
    envNames: strings(o['envNames']) ? o['envNames'] : [],
    headerNames: strings(o['headerNames']) ? o['headerNames'] : [],
    enabled: o['enabled'] !== false,
    startWithApp: o['startWithApp'] === true,
    timeoutSeconds: typeof o['timeoutSeconds'] === 'number' && o['timeoutSeconds'] >= 1 ? o['timeoutSeconds'] : DEFAULT_MCP_TIMEOUT_SECONDS,
    disabledTools: strings(o['disabledTools']) ? o['disabledTools'] : [],
    alwaysAllow: strings(o['alwaysAllow']) ? o['alwaysAllow'] : [],
    tools,
    protocol: protocol === 'stdio' || protocol === 'streamable-http' || protocol === 'sse' ? protocol : null,
  };
}

function isCachedTool(t: unknown): t is CachedTool {
  if (!t || typeof t !== 'object') return false;
  const o = t as Record<string, unknown>;
  return typeof o['name'] === 'string' && typeof o['description'] === 'string' && !!o['inputSchema'] && typeof o['inputSchema'] === 'object' && !Array.isArray(o['inputSchema']);
}
