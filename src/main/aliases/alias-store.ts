/**
 * Aliases in SQLite (table model_aliases, migration 0004): named presets of connection, model, system prompt,
 * parameters, think mode and context window.
 */
import type { Database } from 'better-sqlite3';
import type { Alias, AliasInput, AliasParameters, AliasStatus, ThinkMode } from '../../shared/models';
import { DEFAULT_CONNECTION_ID } from '../connections/connection-store';
import { UserFacingError } from '../errors';
import { refuseAliasTwin } from './alias-names';

interface Row {
  id: string;
  name: string;
  connection_id: string;
  model: string;
  system_prompt: string;
  parameters: string;
  think_mode: ThinkMode;
  context_window: number | null;
  materialized_digest: string | null;
  status: AliasStatus;
  updated_at: number;
}

function toAlias(r: Row): Alias {
  return {
    id: r.id,
    name: r.name,
    // Aliases written before migration 0005 named the Ollama address here, not a connection id: that was the
    // default connection (a database copied in from an older build may still hold one).
    connectionId: /^https?:\/\//i.test(r.connection_id) ? DEFAULT_CONNECTION_ID : r.connection_id,
    model: r.model,
    systemPrompt: r.system_prompt,
    parameters: JSON.parse(r.parameters) as AliasParameters,
    thinkMode: r.think_mode,
    contextWindow: r.context_window,
    materializedDigest: r.materialized_digest,
    status: r.status,
    updatedAt: r.updated_at,
  };
}

export class AliasStore {
  constructor(
    private readonly db: Database,
    private readonly newId: () => string,
    private readonly now: () => number = Date.now,
  ) {}

  list(): Alias[] {
    return (this.db.prepare('SELECT * FROM model_aliases ORDER BY name').all() as Row[]).map(toAlias);
  }

  get(id: string): Alias | null {
    const row = this.db.prepare('SELECT * FROM model_aliases WHERE id = ?').get(id) as Row | undefined;
    return row ? toAlias(row) : null;
  }

  create(input: AliasInput): Alias {
    refuseAliasTwin(input.name, this.list());
    const id = this.newId();
    const at = this.now();
    try {
      this.db
        .prepare(
          `INSERT INTO model_aliases (id, name, connection_id, model, system_prompt, parameters, think_mode, context_window, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(id, input.name, input.connectionId, input.model, input.systemPrompt, JSON.stringify(input.parameters), input.thinkMode, input.contextWindow, at, at);
    } catch (err) {
      throw duplicate(err, input.name);
    }
    return this.get(id) as Alias;
  }

  /**
   * Saves edits; a materialized alias no longer matches its Ollama model until it is materialized again. `basedOn`:
   * the `updatedAt` the edit began from; where the alias was saved since (another window or tab), nothing is saved
   * and the refusal says so (round 7, engine #3: the last Save won, over what the other tab had saved).
   */
  update(id: string, input: AliasInput, basedOn?: number): Alias {
    const current = this.require(id);
    if (basedOn !== undefined && current.updatedAt !== basedOn) {
      throw new UserFacingError('conflict', `“${current.name}” was saved in another window or tab since you began editing it, so your edit was not saved: keep yours or take theirs.`);
    }
    // A name kept as it was is not refused: two such aliases saved before this check stay editable.
    if (input.name !== current.name) refuseAliasTwin(input.name, this.list().filter((a) => a.id !== id));
    const status: AliasStatus = current.materializedDigest === null ? 'not-materialized' : 'changed';
    try {
      this.db
        .prepare(
          `UPDATE model_aliases SET name = ?, connection_id = ?, model = ?, system_prompt = ?, parameters = ?, think_mode = ?,
           context_window = ?, status = ?, updated_at = ? WHERE id = ?`,
        )
        .run(input.name, input.connectionId, input.model, input.systemPrompt, JSON.stringify(input.parameters), input.thinkMode, input.contextWindow, status, this.nextVersion(current), id);
    } catch (err) {
      throw duplicate(err, input.name);
    }
    return this.require(id);
  }

  /** A model of a connection got a new name (a GGUF renamed in the models folder): its aliases follow it. */
  renameModel(connectionId: string, from: string, to: string): number {
    return this.db.prepare('UPDATE model_aliases SET model = ?, updated_at = MAX(?, updated_at + 1) WHERE connection_id = ? AND model = ?').run(to, this.now(), connectionId, from).changes;
  }

  /** `updatedAt` is the version a save is checked against: it moves on with every save, even two in one millisecond. */
  private nextVersion(current: Alias): number {
    return Math.max(this.now(), current.updatedAt + 1);
  }

  delete(id: string): boolean {
    return this.db.prepare('DELETE FROM model_aliases WHERE id = ?').run(id).changes > 0;
  }

  setMaterialized(id: string, digest: string | null, status: AliasStatus): Alias {
    this.db.prepare('UPDATE model_aliases SET materialized_digest = ?, status = ? WHERE id = ?').run(digest, status, id);
    return this.require(id);
  }

  setStatus(id: string, status: AliasStatus): void {
    this.db.prepare('UPDATE model_aliases SET status = ? WHERE id = ?').run(status, id);
  }

  require(id: string): Alias {
    const alias = this.get(id);
    if (!alias) throw new UserFacingError('not-found', 'That alias no longer exists.');
    return alias;
  }
}

function duplicate(err: unknown, name: string): unknown {
  if (err instanceof Error && /UNIQUE constraint failed: model_aliases.name/.test(err.message)) {
    return new UserFacingError('invalid-payload', `An alias named “${name}” already exists.`);
  }
  return err;
}
