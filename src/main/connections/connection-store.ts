import type { Database } from 'better-sqlite3';
import { BUILTIN_CONNECTION_ID, CONNECTION_KINDS, kindConnectionName, unusedName, type ConnectionInfo, type ConnectionInput, type ServerKind } from '../../shared/connections';
import { UserFacingError } from '../errors';
import type { SecretStore } from '../secrets/secret-store';
import { authHeaders } from './auth';
import { serverUrlProblem } from './server-url';

export const DEFAULT_CONNECTION_ID = 'ollama';
/** The default Ollama connection's name (it cannot be renamed): what its failures call it, as for any connection. */
export const DEFAULT_CONNECTION_LABEL = 'Ollama';
const KEY = 'engine.connections';

interface StoredConnection {
  id: string;
  kind: ServerKind;
  label: string;
  baseUrl: string;
  /** The origin the saved key was entered for: the key is sent there and nowhere else (issue 15). */
  keyOrigin?: string;
}

/**
 * Connections, kept as one JSON value in the settings table (no migration: the list is small and read whole).
 * The default Ollama connection is not stored: its address IS the `ollamaUrl` setting, so the existing setting
 * and `--ollama` flag keep working. Neither is the built-in engine (`builtin`): always listed, its address is the
 * models folder. Keys live in the secret store under `connection:<id>`.
 */
export class ConnectionStore {
  constructor(
    private readonly db: Database,
    private readonly secrets: SecretStore,
    private readonly ollamaUrl: () => string,
    private readonly newId: () => string,
    /** The models folder the built-in engine reads (shown as its address). */
    private readonly modelsDir: () => string = () => '',
  ) {}

  list(): ConnectionInfo[] {
    const builtIn: ConnectionInfo = {
      id: DEFAULT_CONNECTION_ID,
      kind: 'ollama',
      label: DEFAULT_CONNECTION_LABEL,
      baseUrl: this.ollamaUrl(),
      hasApiKey: false,
      builtIn: true,
    };
    const engine: ConnectionInfo = {
      id: BUILTIN_CONNECTION_ID,
      kind: 'builtin',
      label: 'Built-in (llama.cpp)',
      baseUrl: this.modelsDir(),
      hasApiKey: false,
      builtIn: true,
    };
    return [builtIn, engine, ...this.stored().map(({ keyOrigin: _bound, ...c }) => ({ ...c, hasApiKey: this.keyFor(c.id, c.baseUrl) !== undefined }))];
  }

  get(id: string): ConnectionInfo | undefined {
    return this.list().find((c) => c.id === id);
  }

  save(input: ConnectionInput): ConnectionInfo {
    if (!CONNECTION_KINDS.includes(input.kind)) throw new UserFacingError('invalid-payload', `Unknown server kind ${input.kind}.`);
    const urlProblem = serverUrlProblem(input.baseUrl);
    if (urlProblem) throw new UserFacingError('invalid-payload', urlProblem);
    if (input.id === DEFAULT_CONNECTION_ID) throw new UserFacingError('invalid-payload', 'Change the Ollama address in Settings.');
    if (input.id === BUILTIN_CONNECTION_ID) throw new UserFacingError('invalid-payload', 'The built-in engine has no address; change the models folder in Settings.');
    const all = this.stored();
    const id = input.id ?? this.newId();
    const previous = all.find((c) => c.id === id);
    if (input.id !== undefined && !previous) throw new UserFacingError('not-found', 'That connection no longer exists.');
    const baseUrl = withoutApiSuffix(input.kind, input.baseUrl);
    // Two entries for one server were told apart only by their order in the picker and in messages (settings audit #5).
    const twin = this.list().find((c) => c.id !== id && c.kind === input.kind && sameAddress(c.baseUrl, baseUrl));
    if (twin) throw new UserFacingError('conflict', `"${twin.label}" already connects to ${twin.baseUrl} as ${twin.kind}: edit that one instead.`);
    const origin = originOf(baseUrl);
    // A key belongs to the origin it was entered for: a new origin needs the key entered again, never the old
    // key sent to a new host (issue 15).
    const keyMoves = input.apiKey === undefined && previous !== undefined && boundOrigin(previous) !== origin;
    if (input.apiKey === '' || keyMoves) this.secrets.delete(secretName(id));
    else if (input.apiKey !== undefined) this.secrets.set(secretName(id), input.apiKey);
    // A name left empty is the kind's, as the user knows it ("llama.cpp server", not the id "llama-server"), made
    // unique here, where every window's connection is saved, so each window shows the same name (settings polish #1).
    const label = input.label.trim() || previous?.label || unusedName(kindConnectionName(input.kind), this.list().filter((c) => c.id !== id).map((c) => c.label));
    const entry: StoredConnection = { id, kind: input.kind, label, baseUrl, keyOrigin: origin };
    this.write([...all.filter((c) => c.id !== id), entry]);
    const saved = this.get(id);
    if (!saved) throw new Error('connection vanished while saving');
    return saved;
  }

  delete(id: string): boolean {
    const all = this.stored();
    if (!all.some((c) => c.id === id)) return false;
    this.write(all.filter((c) => c.id !== id));
    this.secrets.delete(secretName(id));
    return true;
  }

  /**
   * Auth headers for the leg; the key is read from the secret store at request time, and only for the origin it
   * was entered for, so it goes nowhere else.
   */
  headersFor(id: string): Record<string, string> {
    const c = this.get(id);
    if (!c) return {};
    return authHeaders(c.kind, c.builtIn ? undefined : this.keyFor(id, c.baseUrl));
  }

  /** The saved key, when the connection still points at the origin it was saved for. */
  private keyFor(id: string, baseUrl: string): string | undefined {
    const stored = this.stored().find((c) => c.id === id);
    if (!stored || boundOrigin(stored) !== originOf(baseUrl)) return undefined;
    return this.secrets.get(secretName(id));
  }

  private stored(): StoredConnection[] {
    const row = this.db.prepare('SELECT value FROM settings WHERE key = ?').get(KEY) as { value: string } | undefined;
    if (!row) return [];
    const parsed: unknown = JSON.parse(row.value);
    // Saved before /v1 was stripped at save: read as it is saved now (the origin, and so the key's binding, is the same).
    return Array.isArray(parsed) ? parsed.filter(isStored).map((c) => ({ ...c, baseUrl: withoutApiSuffix(c.kind, c.baseUrl) })) : [];
  }

  private write(list: StoredConnection[]): void {
    this.db
      .prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value')
      .run(KEY, JSON.stringify(list));
  }
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** One server, however its address was typed (host case, default port, trailing slash). */
function sameAddress(a: string, b: string): boolean {
  const norm = (u: string) => {
    try {
      return new URL(u).href.replace(/\/+$/, '');
    } catch {
      return u.replace(/\/+$/, '');
    }
  };
  return norm(a) === norm(b);
}

/** Entries saved before keys were bound carry no origin: theirs is the address they were saved with. */
function boundOrigin(c: StoredConnection): string {
  return c.keyOrigin ?? originOf(c.baseUrl);
}

function secretName(id: string): string {
  return `connection:${id}`;
}

function isStored(v: unknown): v is StoredConnection {
  if (!v || typeof v !== 'object') return false;
  const o = v as Record<string, unknown>;
  return (
    typeof o['id'] === 'string' &&
    typeof o['label'] === 'string' &&
    typeof o['baseUrl'] === 'string' &&
    (o['keyOrigin'] === undefined || typeof o['keyOrigin'] === 'string') &&
    CONNECTION_KINDS.includes(o['kind'] as ServerKind)
  );
}

/**
 * The address as Firebrand joins paths onto it: without trailing slashes and, for the servers it asks at
 * `/v1/...` itself, without a trailing `/v1` (LM Studio and vLLM print their address with it; kept, every
 * request went to /v1/v1/... and failed with a 404; models audit #7).
 */
export function withoutApiSuffix(kind: string, baseUrl: string): string {
  const trimmed = baseUrl.trim().replace(/\/+$/, '');
  return kind === 'ollama' || kind === 'builtin' ? trimmed : trimmed.replace(/\/v1$/i, '');
}
