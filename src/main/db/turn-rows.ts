import type { JsonObject } from '../../shared/json';
import type { Turn, Usage } from '../../shared/turn';

/** A `turns` row as better-sqlite3 returns it. */
export interface TurnRow {
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

export const TURN_COLUMNS =
  'id, conversation_id, parent_id, role, blocks, text, source, meta, status, stop, wire_reason, usage, model, error, created_at';

/**
 * A row to a Turn. A row written before its system `source` kind existed has source NULL and reloads as a plain
 * text turn: the UI renders blocks, so nothing depends on a kind this build may not know.
 */
export function toTurn(row: TurnRow): Turn {
  const turn: Turn = {
    id: row.id,
    conversationId: row.conversation_id,
    parentId: row.parent_id,
    role: row.role,
    blocks: JSON.parse(row.blocks) as Turn['blocks'],
    meta: parseMeta(row.meta),
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

/** `meta` must be an object; anything else (an old row, a hand edit) reads as empty rather than breaking the load. */
function parseMeta(raw: string): JsonObject {
  try {
    const value: unknown = JSON.parse(raw);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : {};
  } catch {
    return {};
  }
}

/**
 * The text search indexes: the text runs, a line between them. Runs are what an answer's text was cut into by its
 * reasoning or tool calls, shown apart; joined end to end, the last word of one and the first of the next were one
 * word to the index ("checkThe"), and "check weather" found nothing (search audit).
 */
export function searchText(turn: Pick<Turn, 'blocks'>): string {
  return turn.blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
}

/** A Turn to named statement parameters; `text` is the plain answer text that search indexes (searchText). */
export function turnParams(turn: Turn) {
  return {
    id: turn.id,
    conversation_id: turn.conversationId,
    parent_id: turn.parentId,
    role: turn.role,
    blocks: JSON.stringify(turn.blocks),
    text: searchText(turn),
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
