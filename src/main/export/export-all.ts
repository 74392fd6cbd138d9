/**
 * Export all: every conversation with its settings, every branch, and each attachment's bytes once (by digest,
 * however many conversations use it), as one `.firebrand.json` file that Import reads back whole.
 */
import type { Database } from 'better-sqlite3';
import { CONVERSATION_PAGE_MAX, type ConversationCursor } from '../../shared/ipc';
import { base64Length, CONVERSATION_FILE_MAX_BYTES, formatSize } from '../../shared/file-limits';
import type { BlobStore } from '../blobs/blob-store';
import { ConversationSettingsStore } from '../db/conversation-settings';
import type { ConversationStore } from '../db/conversation-store';
import type { LiveTurns } from '../engine/live-turns';
import { UserFacingError } from '../errors';
import { shownForExport } from './export-file';
import { ALL_EXPORT_FORMAT, EXPORT_VERSION, type ConversationsFile } from './file-format';

export const NOTHING_TO_EXPORT = 'There are no conversations to export.';

export function exportAllTooLargeMessage(size: number, estimate: boolean): string {
  return (
    `All conversations together would be ${estimate ? 'about ' : ''}${formatSize(size)} as one file; Firebrand exports and imports files of at most ` +
    `${formatSize(CONVERSATION_FILE_MAX_BYTES)}, so nothing was exported. Export the largest conversations one at a time from the list instead.`
  );
}

/**
 * The file's text, written a conversation at a time: only the text grows (each conversation's turns are read,
 * written out and let go), and it is refused, before any attachment is read, when the attachments alone would
 * pass CONVERSATION_FILE_MAX_BYTES, and, as it grows, once the text does: every file it writes imports back.
 */
export function exportAllFile(
  deps: { db: Database; store: ConversationStore; blobs: BlobStore; live?: LiveTurns | undefined },
  now: number,
): { fileName: string; mime: string; text: string } {
  const ids = allConversationIds(deps.store);
  if (ids.length === 0) throw new UserFacingError('invalid-payload', NOTHING_TO_EXPORT);
  const settingsStore = new ConversationSettingsStore(deps.db);
  const asShown = shownForExport(deps.live);
  const parts: string[] = [];
  let bytes = 0;
  const add = (text: string) => {
    parts.push(text);
    bytes += Buffer.byteLength(text, 'utf8');
    if (bytes > CONVERSATION_FILE_MAX_BYTES) throw new UserFacingError('invalid-payload', exportAllTooLargeMessage(bytes, false));
  };
  const attachments = new Map<string, { name: string; mime: string; size: number }>();
  add(`{"format":${JSON.stringify(ALL_EXPORT_FORMAT satisfies ConversationsFile['format'])},"version":${EXPORT_VERSION},"exportedAt":${now},"conversations":[`);
  let written = 0;
  for (const id of ids) {
    const conversation = deps.store.getConversationRecord(id);
    const settings = settingsStore.get(id);
    // Deleted while this ran: the file holds the others.
    if (!conversation || !settings) continue;
    const turns = deps.store.listTurns(id).map(asShown);
    for (const turn of turns) for (const b of turn.blocks) if (b.type === 'attachment') attachments.set(b.id, b);
    const entry: ConversationsFile['conversations'][number] = { conversation, settings, turns };
    add(`${written > 0 ? ',' : ''}${JSON.stringify(entry)}`);
    written++;
  }
  if (written === 0) throw new UserFacingError('invalid-payload', NOTHING_TO_EXPORT);
  let estimate = bytes;
  for (const a of attachments.values()) estimate += base64Length(a.size);
  if (estimate > CONVERSATION_FILE_MAX_BYTES) throw new UserFacingError('invalid-payload', exportAllTooLargeMessage(estimate, true));
  add('],"blobs":{');
  let first = true;
  for (const [digest, block] of attachments) {
    const data = deps.blobs.read(digest);
    // A blob lost on disk cannot be exported; the block still says what it was, and import would refuse it.
    if (!data) throw new UserFacingError('not-found', `The attachment “${block.name}” is missing from disk, so the conversations cannot be exported whole.`);
    const blob = { mime: deps.blobs.mimeOf(digest) ?? block.mime, size: data.byteLength, base64: Buffer.from(data).toString('base64') };
    add(`${first ? '' : ','}${JSON.stringify(digest)}:${JSON.stringify(blob)}`);
    first = false;
  }
  add('}}');
  const day = new Date(now).toISOString().slice(0, 10);
  return { fileName: `Firebrand conversations ${day}.firebrand.json`, mime: 'application/json', text: parts.join('') };
}

/** Every conversation the list shows, the most recently updated first. */
function allConversationIds(store: ConversationStore): string[] {
  const ids: string[] = [];
  let before: ConversationCursor | undefined;
  for (;;) {
    const page = store.listConversations({ limit: CONVERSATION_PAGE_MAX, ...(before ? { before } : {}) });
    ids.push(...page.map((c) => c.id));
    const last = page.at(-1);
    if (page.length < CONVERSATION_PAGE_MAX || !last) return ids;
    before = { updatedAt: last.updatedAt, id: last.id };
  }
}
