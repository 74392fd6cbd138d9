import type { Database } from 'better-sqlite3';
import type { BlobStore } from '../blobs/blob-store';
import { conversationView } from '../chat/conversation-view';
import type { ConversationStore } from '../db/conversation-store';
import { DISK_FULL_NOTE } from '../db/left-open';
import type { LiveTurns } from '../engine/live-turns';
import type { AttachmentBlock, Turn } from '../../shared/turn';
import { exportConversation, serializeConversationFile } from './conversation-io';
import { branchToMarkdown, type DocumentTextOf } from './markdown';

/**
 * The file a user saves: the whole conversation (JSON, re-importable) or its active branch as Markdown. `live`:
 * the answers the last run left open that a full disk kept from being saved as interrupted (db/left-open.ts) are
 * exported as the page shows them, interrupted (round 7: the Markdown carried no "interrupted" mark, and the JSON
 * said "streaming"). `documentText`: the attachments' texts, read beforehand (branchDocuments names them), that the
 * Markdown holds under their names.
 */
export function exportFile(
  deps: { db: Database; store: ConversationStore; blobs: BlobStore; live?: LiveTurns | undefined; documentText?: DocumentTextOf | undefined },
  conversationId: string,
  format: 'json' | 'markdown',
): { fileName: string; mime: string; text: string; title: string } {
  // An answer streaming now as far as it has streamed, not as last written (at most half a second older).
  const view = conversationView(deps.store, conversationId, undefined, undefined, deps.live ? { live: deps.live } : {});
  const base = safeFileName(view.conversation.title);
  const asShown = shownForExport(deps.live);
  if (format === 'markdown') {
    return { fileName: `${base}.md`, mime: 'text/markdown', text: branchToMarkdown(view.conversation.title, view.turns.map(asShown), deps.documentText), title: view.conversation.title };
  }
  const file = exportConversation(deps, conversationId, Date.now());
  return { fileName: `${base}.firebrand.json`, mime: 'application/json', text: serializeConversationFile({ ...file, turns: file.turns.map(asShown) }), title: view.conversation.title };
}

/** A turn as an export holds it: one the last run left open as the page shows it (interrupted), without the page's note. */
export function shownForExport(live: LiveTurns | undefined): (turn: Turn) => Turn {
  return (turn) => exported(live?.leftOpen?.shown(turn)) ?? turn;
}

/** The note that this computer's disk is full belongs on the page, not in the file. */
function exported(shown: Turn | undefined): Turn | undefined {
  if (shown?.error !== DISK_FULL_NOTE) return shown;
  const { error: _note, ...turn } = shown;
  return turn;
}

/** A title as a file name on any system: no separators, control or reserved characters, not too long. */
export function safeFileName(title: string): string {
  const cleaned = title.replace(/[\u0000-\u001f\u007f<>:"/\\|?*\u202a-\u202e\u2066-\u2069]+/g, ' ').replace(/\s+/g, ' ').replace(/^[.\s]+/, '').trim();
  return (cleaned || 'conversation').slice(0, 80);
}

/** The document and text attachments of a conversation's active branch, for a Markdown export to hold their text. */
export function branchDocuments(store: ConversationStore, conversationId: string): AttachmentBlock[] {
  const leaf = store.getConversationRecord(conversationId)?.activeLeafId;
  if (!leaf) return [];
  return store.branch(leaf).flatMap((t) => t.blocks.filter((b): b is AttachmentBlock => b.type === 'attachment' && b.kind !== 'image'));
}
