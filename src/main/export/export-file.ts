import type { Database } from 'better-sqlite3';
import type { BlobStore } from '../blobs/blob-store';
import { conversationView } from '../chat/conversation-view';
import type { ConversationStore } from '../db/conversation-store';
import { exportConversation, serializeConversationFile } from './conversation-io';
import { branchToMarkdown } from './markdown';

/** The file a user saves: the whole conversation (JSON, re-importable) or its active branch as Markdown. */
export function exportFile(
  deps: { db: Database; store: ConversationStore; blobs: BlobStore },
  conversationId: string,
  format: 'json' | 'markdown',
): { fileName: string; mime: string; text: string } {
  const view = conversationView(deps.store, conversationId);
  const base = safeFileName(view.conversation.title);
  if (format === 'markdown') {
    return { fileName: `${base}.md`, mime: 'text/markdown', text: branchToMarkdown(view.conversation.title, view.turns) };
  }
  const file = exportConversation(deps, conversationId, Date.now());
  return { fileName: `${base}.firebrand.json`, mime: 'application/json', text: serializeConversationFile(file) };
}

/** A title as a file name on any system: no separators, control or reserved characters, not too long. */
export function safeFileName(title: string): string {
  const cleaned = title.replace(/[\u0000-\u001f\u007f<>:"/\\|?*\u202a-\u202e\u2066-\u2069]+/g, ' ').replace(/\s+/g, ' ').replace(/^[.\s]+/, '').trim();
  return (cleaned || 'conversation').slice(0, 80);
}
