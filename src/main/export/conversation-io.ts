import type { Database } from 'better-sqlite3';
import { remapContextMeta } from '../../shared/context-edits';
import { base64Length, CONVERSATION_FILE_MAX_BYTES, exportTooLargeMessage } from '../../shared/file-limits';
import { toolApprovalMeta, toolApprovalText } from '../../shared/system-turns';
import type { Turn } from '../../shared/turn';
import type { BlobStore } from '../blobs/blob-store';
import { ConversationSettingsStore } from '../db/conversation-settings';
import { settleApprovalCard, type NotRunWords } from '../db/settle-interrupted';
import type { ConversationStore } from '../db/conversation-store';
import { UserFacingError } from '../errors';
import { runInWorker } from '../workers/run-in-worker';
import { EXPORT_FORMAT, EXPORT_VERSION, type CheckedConversation, type CheckedConversationFile, type ConversationFile } from './file-format';

export interface ConversationIoDeps {
  db: Database;
  store: ConversationStore;
  blobs: BlobStore;
  newId: () => string;
}

/** A conversation with its own settings, every branch and the bytes of every attachment, as one JSON document. */
export function exportConversation(deps: Pick<ConversationIoDeps, 'db' | 'store' | 'blobs'>, conversationId: string, now: number): ConversationFile {
  const conversation = deps.store.getConversationRecord(conversationId);
  const settings = new ConversationSettingsStore(deps.db).get(conversationId);
  if (!conversation || !settings) throw new UserFacingError('not-found', 'That conversation no longer exists.');
  const turns = deps.store.listTurns(conversationId);
  refuseOversized(turns);
  const blobs: ConversationFile['blobs'] = {};
  for (const turn of turns) {
    for (const block of turn.blocks) {
      if (block.type !== 'attachment' || block.id in blobs) continue;
      const bytes = deps.blobs.read(block.id);
      // A blob lost on disk cannot be exported; the block still says what it was, and import will refuse it.
      if (!bytes) throw new UserFacingError('not-found', `The attachment “${block.name}” is missing from disk, so this conversation cannot be exported whole.`);
      blobs[block.id] = { mime: deps.blobs.mimeOf(block.id) ?? block.mime, size: bytes.byteLength, base64: Buffer.from(bytes).toString('base64') };
    }
  }
  return { format: EXPORT_FORMAT, version: EXPORT_VERSION, exportedAt: now, conversation, settings, turns, blobs };
}

/**
 * Refuses, before any attachment is read or encoded, a conversation whose attachments alone (as base64) pass the
 * file limit: an export Firebrand could not import back (serializeConversationFile checks the exact size).
 */
function refuseOversized(turns: readonly Turn[]): void {
  const sizes = new Map<string, number>();
  for (const turn of turns) for (const b of turn.blocks) if (b.type === 'attachment') sizes.set(b.id, b.size);
  let estimate = 0;
  for (const size of sizes.values()) estimate += base64Length(size);
  if (estimate > CONVERSATION_FILE_MAX_BYTES) throw new UserFacingError('invalid-payload', exportTooLargeMessage(estimate, true));
}

/** The file's text; refused when it is over the size Firebrand imports (CONVERSATION_FILE_MAX_BYTES). */
export function serializeConversationFile(file: ConversationFile): string {
  const text = JSON.stringify(file);
  // UTF-8 is never shorter than the string: only a long one needs counting.
  if (text.length > CONVERSATION_FILE_MAX_BYTES / 3 && Buffer.byteLength(text, 'utf8') > CONVERSATION_FILE_MAX_BYTES) {
    throw new UserFacingError('invalid-payload', exportTooLargeMessage(Buffer.byteLength(text, 'utf8'), false));
  }
  return text;
}

/**
 * Imports an export file: one conversation, or every conversation of an Export all. The whole file is checked
 * first, in a worker thread (a large file must not stall the event loop), with the same checks an upload gets;
 * attachment files are then written, and every row of every conversation goes in one transaction: a bad file, or
 * one bad conversation in it, writes nothing. Each is listed by its own last message (lastActivity), among the
 * chats here as it was where it came from. Files this import wrote are removed again when the rows
 * fail; GC sweeps any a crash leaves. Ids are kept unless they already exist here (the same file imported twice),
 * in which case all of that conversation's are remapped together.
 */
export async function importConversation(deps: ConversationIoDeps, text: string, now: number, name?: string): Promise<ImportResult> {
  // Its refusals name the file (`name`, as picked), or say "This file" where no name came.
  const file = await runInWorker('check-conversation-file', { text, name });
  const created: string[] = [];
  try {
    for (const [digest, blob] of Object.entries(file.blobs)) {
      // The worker hashed these bytes and checked them against the digest: no second hash on this thread.
      const written = await deps.blobs.writeFileOnly(blob.bytes, digest);
      if (written.created) created.push(written.digest);
    }
    return restoreAll(deps, file, now);
  } catch (err) {
    for (const digest of created) await deps.blobs.removeIfUnrecorded(digest).catch(() => undefined);
    throw err;
  }
}

/** What an import did: `conversationId` is the one listed first (the most recently updated of an Export all). */
export interface ImportResult {
  conversationId: string;
  /** The title the first conversation is listed under (marked where it came in as a copy). */
  title: string;
  /** Some ids were taken here already and were remapped. */
  remapped: boolean;
  /** How many came in as copies of conversations already here (their titles marked COPY_MARK). */
  copies: number;
  /** How many conversations came in. */
  imported: number;
  /** How many conversations the list shows above the first one: the page reads the list that far to show it. */
  listedAbove: number;
  /** The file was an Export all. */
  all: boolean;
}

/** The results of calls that waited for approval when the file was saved (they never ran). */
const SAVED_WHILE_WAITING: NotRunWords = {
  waited: 'Not run: this conversation was saved while the call waited for approval.',
  before: 'No result: this conversation was saved before it was kept.',
};

/**
 * When a conversation was last written to, as its file tells: its newest message (or when it began, if it has
 * none), and never later than `now` (a file's clock may be ahead of this one). Not the file's `updatedAt`: an
 * import used to set that to the moment it came in, so a chat imported before carried that moment on.
 */
export function lastActivity(entry: CheckedConversation, now: number): number {
  let last = entry.conversation.createdAt;
  for (const turn of entry.turns) last = Math.max(last, turn.createdAt);
  return Math.min(last, now);
}

function restoreAll(deps: ConversationIoDeps, file: CheckedConversationFile, now: number): ImportResult {
  // Each is listed by its own last message, as it was where it came from: stamped with the moment of the import,
  // every chat of a restored backup went above the chats written here since, and an old chat said it was new.
  const dated = file.conversations.map((entry) => ({ entry, at: lastActivity(entry, now) })).sort((a, b) => b.at - a.at);
  const restored: { conversationId: string; title: string; remapped: boolean; at: number }[] = [];
  deps.db.transaction(() => {
    for (const [digest, blob] of Object.entries(file.blobs)) deps.blobs.recordRow(digest, blob.bytes.byteLength, blob.mime, now);
    for (const { entry, at } of dated) restored.push({ ...restore(deps, entry, at), at });
  })();
  // The most recent of them opens; ties in time are listed by id (the list's order), so it is the first listed.
  const first = restored.reduce((a, b) => (b.at > a.at || (b.at === a.at && b.conversationId > a.conversationId) ? b : a));
  const copies = restored.filter((r) => r.remapped).length;
  const listedAbove = deps.store.countListedAbove({ updatedAt: first.at, id: first.conversationId });
  return { conversationId: first.conversationId, title: first.title, remapped: copies > 0, copies, imported: restored.length, all: file.all, listedAbove };
}

/** What the title of a conversation imported a second time ends with: two chats listed under one title could not be told apart. */
export const COPY_MARK = '(imported copy)';

/** `title` marked as a copy, numbered past the marked titles already here ("Tea (imported copy 2)"). */
function copyTitle(db: Database, title: string): string {
  const taken = db.prepare('SELECT 1 FROM conversations WHERE title = ?');
  const base = title.endsWith(` ${COPY_MARK}`) ? title.slice(0, -COPY_MARK.length - 1) : title.replace(/ \(imported copy \d+\)$/, '');
  for (let n = 1; ; n++) {
    const next = `${base} ${n === 1 ? COPY_MARK : `(imported copy ${n})`}`;
    if (taken.get(next) === undefined) return next;
  }
}

/** One conversation's rows, listed as last written to at `at`; runs inside restoreAll's transaction. */
function restore(deps: ConversationIoDeps, file: CheckedConversation, at: number): { conversationId: string; title: string; remapped: boolean } {
  const taken =
    deps.store.getConversationRecord(file.conversation.id) !== undefined || file.turns.some((t) => deps.store.getTurn(t.id) !== undefined);
  const ids = new Map<string, string>();
  const map = (id: string) => {
    if (!taken) return id;
    let next = ids.get(id);
    if (next === undefined) ids.set(id, (next = deps.newId()));
    return next;
  };
  const conversationId = map(file.conversation.id);
  const turns: Turn[] = file.turns.map((t) => ({
    ...t,
    id: map(t.id),
    conversationId,
    parentId: t.parentId === null ? null : map(t.parentId),
    // A summary or a left-out card names turns by id: they point at the same turns under their new ids.
    meta: taken ? remapContextMeta(t.source, t.meta, map) : t.meta,
    // Nothing streams into an imported turn: a snapshot taken mid-answer is an interrupted one.
    status: t.status === 'streaming' ? 'interrupted' : t.status,
  }));
  const activeLeafId = file.conversation.activeLeafId === null ? null : map(file.conversation.activeLeafId);
  // The same file imported again: the copy says it is one, beside the chat it copies (it came in unmarked, and the
  // list showed two chats of one title with nothing to tell them apart).
  const title = taken ? copyTitle(deps.db, file.conversation.title) : file.conversation.title;
  // Listed by its own last message (the page reads the list as far as it: export audit #1, listedAbove).
  deps.store.restoreConversation({ ...file.conversation, id: conversationId, title, activeLeafId, updatedAt: at }, turns);
  // A file from before settings were exported keeps the defaults the row was created with.
  if (file.settings) new ConversationSettingsStore(deps.db).update(conversationId, file.settings);
  // A card that waited when the file was saved has no run behind it here: left pending, its buttons answered
  // nothing and the chat took no message ("waits for your answer"). It is settled as stopped, its calls not run;
  // whatever its role (a crafted file's), as the page treats any pending card as a run that waits. Dated with the
  // chat's last message, as the file left it: settling it is not new activity.
  for (const card of turns) {
    if (card.source !== 'tool-approval' || card.meta['state'] !== 'pending') continue;
    const meta = { ...card.meta, state: 'stopped' };
    const shown = toolApprovalMeta(meta);
    const blocks = shown ? [{ type: 'text' as const, text: toolApprovalText(shown) }] : card.blocks;
    settleApprovalCard(deps.store, card, { meta, blocks }, SAVED_WHILE_WAITING, deps.newId, at);
  }
  return { conversationId, title, remapped: taken };
}
