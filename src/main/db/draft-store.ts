/**
 * What the user typed and attached but has not sent, per conversation (migration 0018): kept across a reload, a
 * closed window and a quit. `null` is a new chat's draft (no conversation yet).
 */
import type { Database } from 'better-sqlite3';
import type { SavedDraft } from '../../shared/ipc';
import type { AttachmentBlock } from '../../shared/turn';
import { readOnlyReason } from './read-only-copy';

const NEW_CHAT = '';
const keyOf = (conversationId: string | null) => conversationId ?? NEW_CHAT;

export class DraftStore {
  constructor(private readonly db: Database) {}

  list(): SavedDraft[] {
    const rows = this.db.prepare('SELECT key, text, attachments FROM drafts ORDER BY updated_at').all() as { key: string; text: string; attachments: string }[];
    return rows.map((r) => ({ conversationId: r.key === NEW_CHAT ? null : r.key, text: r.text, attachments: parseAttachments(r.attachments) }));
  }

  /**
   * Keeps a draft, or drops it when empty. One for a conversation that no longer exists (deleted in another tab as
   * this one saved) is not kept: nothing would ever remove it. False when nothing was kept: the chats are open
   * read-only (db/read-only-copy.ts), or the conversation is gone.
   */
  save(conversationId: string | null, text: string, attachments: readonly AttachmentBlock[], now: number): boolean {
    if (readOnlyReason(this.db)) return false;
    const key = keyOf(conversationId);
    return this.db.transaction(() => {
      this.db.prepare('DELETE FROM draft_attachments WHERE key = ?').run(key);
      if (text === '' && attachments.length === 0) {
        this.db.prepare('DELETE FROM drafts WHERE key = ?').run(key);
        return true;
      }
      if (conversationId !== null && !this.db.prepare('SELECT 1 FROM conversations WHERE id = ?').get(conversationId)) {
        this.db.prepare('DELETE FROM drafts WHERE key = ?').run(key);
        return false;
      }
      this.db
        .prepare('INSERT INTO drafts (key, text, attachments, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT(key) DO UPDATE SET text = excluded.text, attachments = excluded.attachments, updated_at = excluded.updated_at')
        .run(key, text, JSON.stringify(attachments), now);
      const link = this.db.prepare('INSERT OR IGNORE INTO draft_attachments (key, digest) VALUES (?, ?)');
      for (const a of attachments) link.run(key, a.id);
      return true;
    })();
  }

  /** The draft a message was sent from is spent. */
  clear(conversationId: string | null): void {
    this.save(conversationId, '', [], 0);
  }
}

function parseAttachments(json: string): AttachmentBlock[] {
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? (parsed as AttachmentBlock[]) : [];
  } catch {
    return [];
  }
}
