import { createHash } from 'node:crypto';
import type { JsonObject } from '../../shared/json';
import { TURN_STATUSES, type Turn } from '../../shared/turn';
import type { ConversationRecord } from '../db/conversation-store';
import { UserFacingError } from '../errors';

export const EXPORT_FORMAT = 'firebrand.conversation';
/** Bump when a change would make an older Firebrand misread the file; older versions refuse newer files. */
export const EXPORT_VERSION = 1;

/** One conversation with every branch and the bytes of every attachment it uses. */
export interface ConversationFile {
  format: typeof EXPORT_FORMAT;
  version: number;
  exportedAt: number;
  conversation: ConversationRecord;
  /** Parents before children. */
  turns: Turn[];
  /** Attachment bytes by sha256, base64-encoded. */
  blobs: Record<string, { mime: string; size: number; base64: string }>;
}

const ROLES = new Set(['user', 'assistant', 'system', 'tool']);
const STATUSES = new Set<string>(TURN_STATUSES);
const BLOCK_TYPES = new Set(['text', 'reasoning', 'tool_call', 'tool_result', 'attachment']);

/**
 * Parses and checks an export file completely before anything is written, so a bad file is refused whole.
 * Returns the turns in parent-before-child order.
 */
export function parseConversationFile(text: string): ConversationFile {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw invalid('it is not valid JSON');
  }
  if (!isObject(data) || data.format !== EXPORT_FORMAT) throw invalid('it is not a Firebrand conversation export');
  if (typeof data.version !== 'number' || !Number.isInteger(data.version) || data.version < 1) throw invalid('its format version is missing');
  if (data.version > EXPORT_VERSION) {
    throw new UserFacingError(
      'invalid-payload',
      `This file was exported by a newer version of Firebrand (format ${data.version}; this app reads up to ${EXPORT_VERSION}). Update Firebrand to import it.`,
    );
  }
  const conversation = data.conversation;
  if (
    !isObject(conversation) ||
    typeof conversation.id !== 'string' ||
    typeof conversation.title !== 'string' ||
    !(conversation.model === null || typeof conversation.model === 'string') ||
    !(conversation.activeLeafId === null || typeof conversation.activeLeafId === 'string') ||
    typeof conversation.createdAt !== 'number' ||
    typeof conversation.updatedAt !== 'number'
  ) {
    throw invalid('its conversation header is malformed');
  }
  if (!Array.isArray(data.turns)) throw invalid('it has no turns list');
  const turns = data.turns.map((t: unknown, i: number) => checkTurn(t, i, conversation.id as string));
  const blobs = checkBlobs(data.blobs);
  for (const turn of turns) {
    for (const block of turn.blocks) {
      if (block.type === 'attachment' && !(block.id in blobs)) throw invalid(`the bytes of attachment “${block.name}” are missing`);
    }
  }
  const ordered = parentsFirst(turns);
  if (conversation.activeLeafId !== null && !turns.some((t) => t.id === conversation.activeLeafId)) {
    throw invalid('its active branch points at a message that is not in the file');
  }
  return {
    format: EXPORT_FORMAT,
    version: data.version,
    exportedAt: typeof data.exportedAt === 'number' ? data.exportedAt : 0,
    conversation: conversation as unknown as ConversationRecord,
    turns: ordered,
    blobs,
  };
}

function checkTurn(t: unknown, i: number, conversationId: string): Turn {
  const bad = (what: string) => invalid(`message ${i + 1} ${what}`);
  if (!isObject(t)) throw bad('is not an object');
  if (typeof t.id !== 'string' || t.id === '') throw bad('has no id');
  if (t.conversationId !== conversationId) throw bad('belongs to another conversation');
  if (!(t.parentId === null || typeof t.parentId === 'string')) throw bad('has a malformed parent');
  if (typeof t.role !== 'string' || !ROLES.has(t.role)) throw bad('has an unknown role');
  if (typeof t.status !== 'string' || !STATUSES.has(t.status)) throw bad('has an unknown status');
  if (typeof t.createdAt !== 'number') throw bad('has no time');
  if (!isObject(t.meta)) throw bad('has malformed meta');
  if (!Array.isArray(t.blocks) || !t.blocks.every((b) => isObject(b) && typeof b.type === 'string' && BLOCK_TYPES.has(b.type))) {
    throw bad('has malformed content');
  }
  for (const b of t.blocks as JsonObject[]) {
    if (b.type === 'attachment' && (typeof b.id !== 'string' || typeof b.name !== 'string')) throw bad('has a malformed attachment');
  }
  for (const key of ['source', 'stop', 'model', 'error'] as const) {
    if (t[key] !== undefined && typeof t[key] !== 'string') throw bad(`has a malformed ${key}`);
  }
  if (t.usage !== undefined && !isObject(t.usage)) throw bad('has malformed usage');
  return t as unknown as Turn;
}

function checkBlobs(value: unknown): ConversationFile['blobs'] {
  if (value === undefined) return {};
  if (!isObject(value)) throw invalid('its attachments are malformed');
  const out: ConversationFile['blobs'] = {};
  for (const [digest, blob] of Object.entries(value)) {
    if (!isObject(blob) || typeof blob.base64 !== 'string' || typeof blob.mime !== 'string') throw invalid('an attachment is malformed');
    const bytes = Buffer.from(blob.base64, 'base64');
    if (createHash('sha256').update(bytes).digest('hex') !== digest) throw invalid('an attachment’s bytes do not match its digest');
    out[digest] = { mime: blob.mime, size: bytes.byteLength, base64: blob.base64 };
  }
  return out;
}

/** Orders turns so each parent precedes its children; a parent outside the file or a cycle is refused. */
function parentsFirst(turns: Turn[]): Turn[] {
  const ids = new Set<string>();
  const children = new Map<string | null, Turn[]>();
  for (const t of turns) {
    if (ids.has(t.id)) throw invalid('two messages share an id');
    ids.add(t.id);
    const list = children.get(t.parentId) ?? [];
    list.push(t);
    children.set(t.parentId, list);
  }
  const out: Turn[] = [];
  const queue = [...(children.get(null) ?? [])];
  for (let i = 0; i < queue.length; i++) {
    const turn = queue[i]!;
    out.push(turn);
    queue.push(...(children.get(turn.id) ?? []));
  }
  if (out.length !== turns.length) throw invalid('some messages reply to messages that are not in the file');
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function invalid(why: string): UserFacingError {
  return new UserFacingError('invalid-payload', `This file cannot be imported: ${why}. Nothing was imported.`);
}
