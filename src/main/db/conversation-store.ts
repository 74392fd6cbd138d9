import type { Database, Statement } from 'better-sqlite3';
import type { ConversationSummary } from '../../shared/ipc';
import type { JsonObject } from '../../shared/json';
import { turnText, type Turn, type Usage } from '../../shared/turn';

interface TurnRow {
  id: string;
  conversation_id: string;
  parent_id: string | null;
  role: Turn['role'];
  blocks: string;
  source: string | null;
  meta: string;
  status: Turn['status'];
  stop: string | null;
  wire_reason: string | null;
  usage: string | null;
  model: string | null;
  error: string | null;
  created_at: number;
}

interface ConversationRow {
  id: string;
  title: string;
  model: string | null;
  updated_at: number;
}

function toSummary(row: ConversationRow): ConversationSummary {
  return { id: row.id, title: row.title, updatedAt: row.updated_at, model: row.model };
}

function toTurn(row: TurnRow): Turn {
  const turn: Turn = {
    id: row.id,
    conversationId: row.conversation_id,
    parentId: row.parent_id,
    role: row.role,
    blocks: JSON.parse(row.blocks) as Turn['blocks'],
    meta: JSON.parse(row.meta) as JsonObject,
    status: row.status,
    createdAt: row.created_at,
  };
  if (row.source !== null) turn.source = row.source;
  if (row.stop !== null) turn.stop = row.stop;
  if (row.wire_reason !== null) turn.wireReason = row.wire_reason;
  if (row.usage !== null) turn.usage = JSON.parse(row.usage) as Usage;
  if (row.model !== null) turn.model = row.model;
  if (row.error !== null) turn.error = row.error;
  return turn;
}

function turnParams(turn: Turn) {
  return {
    id: turn.id,
    conversation_id: turn.conversationId,
    parent_id: turn.parentId,
    role: turn.role,
    blocks: JSON.stringify(turn.blocks),
    text: turnText(turn),
    source: turn.source ?? null,
    meta: JSON.stringify(turn.meta),
    status: turn.status,
    stop: turn.stop ?? null,
    wire_reason: turn.wireReason ?? null,
    usage: turn.usage ? JSON.stringify(turn.usage) : null,
    model: turn.model ?? null,
    error: turn.error ?? null,
    created_at: turn.createdAt,
  };
}

/** Conversations and their turns: the source of truth the renderer only mirrors. */
export class ConversationStore {
  private readonly stmts: Record<string, Statement>;

  constructor(private readonly db: Database) {
    this.stmts = {
      insertConversation: db.prepare(
        'INSERT INTO conversations (id, title, model, active_leaf_id, created_at, updated_at) VALUES (@id, @title, @model, NULL, @now, @now)',
      ),
      list: db.prepare('SELECT id, title, model, updated_at FROM conversations ORDER BY updated_at DESC LIMIT 500'),
      get: db.prepare('SELECT id, title, model, updated_at, active_leaf_id FROM conversations WHERE id = ?'),
      delete: db.prepare('DELETE FROM conversations WHERE id = ?'),
      touch: db.prepare('UPDATE conversations SET updated_at = @now, active_leaf_id = @leaf, model = COALESCE(@model, model) WHERE id = @id'),
      insertTurn: db.prepare(
        `INSERT INTO turns (id, conversation_id, parent_id, role, blocks, text, source, meta, status, stop, wire_reason, usage, model, error, created_at)
         VALUES (@id, @conversation_id, @parent_id, @role, @blocks, @text, @source, @meta, @status, @stop, @wire_reason, @usage, @model, @error, @created_at)`,
      ),
      updateTurn: db.prepare(
        `UPDATE turns SET blocks = @blocks, text = @text, meta = @meta, status = @status, stop = @stop, wire_reason = @wire_reason,
         usage = @usage, model = @model, error = @error WHERE id = @id`,
      ),
      branch: db.prepare(
        `WITH RECURSIVE branch(id, depth) AS (
           SELECT ?, 0
           UNION ALL
           SELECT t.parent_id, b.depth + 1 FROM turns t JOIN branch b ON t.id = b.id WHERE t.parent_id IS NOT NULL
         )
         SELECT t.* FROM branch b JOIN turns t ON t.id = b.id ORDER BY b.depth DESC`,
      ),
      getTurn: db.prepare('SELECT * FROM turns WHERE id = ?'),
      interrupt: db.prepare("UPDATE turns SET status = 'interrupted' WHERE status = 'streaming'"),
    };
  }

  createConversation(id: string, title: string, model: string | null, now: number): ConversationSummary {
    this.stmts.insertConversation!.run({ id, title, model, now });
    return { id, title, model, updatedAt: now };
  }

  listConversations(): ConversationSummary[] {
    return (this.stmts.list!.all() as ConversationRow[]).map(toSummary);
  }

  getConversation(id: string): (ConversationSummary & { activeLeafId: string | null }) | undefined {
    const row = this.stmts.get!.get(id) as (ConversationRow & { active_leaf_id: string | null }) | undefined;
    return row ? { ...toSummary(row), activeLeafId: row.active_leaf_id } : undefined;
  }

  deleteConversation(id: string): boolean {
    return this.stmts.delete!.run(id).changes > 0;
  }

  /** Adds a turn and makes it the conversation's active leaf, in one transaction. */
  appendTurn(turn: Turn, now: number): void {
    this.db.transaction(() => {
      this.stmts.insertTurn!.run(turnParams(turn));
      this.stmts.touch!.run({ id: turn.conversationId, leaf: turn.id, model: turn.model ?? null, now });
    })();
  }

  updateTurn(turn: Turn): void {
    this.stmts.updateTurn!.run(turnParams(turn));
  }

  getTurn(id: string): Turn | undefined {
    const row = this.stmts.getTurn!.get(id) as TurnRow | undefined;
    return row ? toTurn(row) : undefined;
  }

  /** The turns from the root down to `leafId`. */
  branch(leafId: string): Turn[] {
    return (this.stmts.branch!.all(leafId) as TurnRow[]).map(toTurn);
  }

  /** A turn left `streaming` belongs to a run that died: it keeps its partial text and reloads as interrupted. */
  markInterrupted(): number {
    return this.stmts.interrupt!.run().changes;
  }
}
