/**
 * What the user typed and attached but has not sent, per conversation (migration 0018): kept across a reload, a
 * closed window and a quit. `null` is a new chat's draft (no conversation yet), which also holds the Chat settings
 * chosen for that chat (0019): they come back with it, and its first message takes both.
 */
import type { Database } from 'better-sqlite3';
import type { ConversationSettings, EditFiles, EditFilesHeld, KeptDraft } from '../../shared/ipc';
import type { AttachmentBlock } from '../../shared/turn';
import { THINK_MODES, type ThinkMode } from '../../shared/connections';
import { isBlankSettings } from '../../shared/conversation-settings';
import { readOnlyReason } from './read-only-copy';

const NEW_CHAT = '';
/** draft_attachments' key for the files of an edit of a sent message (migration 0024): never a conversation's id. */
const EDIT_KEY = 'edit:';
const keyOf = (conversationId: string | null) => conversationId ?? NEW_CHAT;

export class DraftStore {
  constructor(private readonly db: Database) {}

  list(): KeptDraft[] {
    const rows = this.db.prepare('SELECT key, text, attachments, settings FROM drafts ORDER BY updated_at').all() as { key: string; text: string; attachments: string; settings: string | null }[];
    return rows.map((r) => {
      const settings = r.key === NEW_CHAT && r.settings !== null ? parseSettings(r.settings) : undefined;
      return { conversationId: r.key === NEW_CHAT ? null : r.key, text: r.text, attachments: parseAttachments(r.attachments), ...(settings ? { settings } : {}) };
    });
  }

  /**
   * Keeps a draft, or drops it when empty (a new chat's settings stay: emptying the box does not undo them). One for
   * a conversation that no longer exists (deleted in another tab as this one saved) is not kept: nothing would ever
   * remove it. False when nothing was kept: the chats are open read-only (db/read-only-copy.ts), or the conversation
   * is gone.
   */
  save(conversationId: string | null, text: string, attachments: readonly AttachmentBlock[], now: number): boolean {
    if (readOnlyReason(this.db)) return false;
    const key = keyOf(conversationId);
    return this.db.transaction(() => {
      this.db.prepare('DELETE FROM draft_attachments WHERE key = ?').run(key);
      if (text === '' && attachments.length === 0) {
        this.db.prepare('DELETE FROM drafts WHERE key = ? AND settings IS NULL').run(key);
        this.db.prepare("UPDATE drafts SET text = '', attachments = '[]', updated_at = ? WHERE key = ?").run(now, key);
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

  /**
   * Keeps the Chat settings chosen for the new chat with its draft, or forgets them when blank (the row goes when no
   * draft is left either). The draft's text and files are left as they are. False when the chats are read-only.
   */
  saveNewChatSettings(settings: ConversationSettings, now: number): boolean {
    if (readOnlyReason(this.db)) return false;
    this.db.transaction(() => {
      if (isBlankSettings(settings)) {
        this.db.prepare('UPDATE drafts SET settings = NULL WHERE key = ?').run(NEW_CHAT);
        this.db.prepare("DELETE FROM drafts WHERE key = ? AND text = '' AND attachments = '[]'").run(NEW_CHAT);
        return;
      }
      this.db
        .prepare("INSERT INTO drafts (key, text, attachments, settings, updated_at) VALUES (?, '', '[]', ?, ?) ON CONFLICT(key) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at")
        .run(NEW_CHAT, JSON.stringify(settings), now);
    })();
    return true;
  }

  /**
   * Holds the files added in each edit of a sent message that the renderer keeps (edit-drafts.ts) against the blob
   * collector, as a draft's files are held, in place of what was held for that edit (none: let go, the edit sent or
   * discarded). Says of each edit whether its message is gone (nothing held: the edit can be forgotten) and which of
   * its files are no longer stored (`has`), so the edit can say so rather than fail at Send. Read-only chats: answered,
   * nothing written.
   */
  holdEditFiles(edits: readonly EditFiles[], has: (digest: string) => boolean): EditFilesHeld[] {
    const writable = !readOnlyReason(this.db);
    const exists = this.db.prepare('SELECT 1 FROM turns WHERE id = ?');
    const release = this.db.prepare('DELETE FROM draft_attachments WHERE key = ?');
    const link = this.db.prepare('INSERT OR IGNORE INTO draft_attachments (key, digest) VALUES (?, ?)');
    return this.db.transaction(() =>
      edits.map(({ turnId, attachments }) => {
        const key = `${EDIT_KEY}${turnId}`;
        const gone = exists.get(turnId) === undefined;
        const missing = gone ? [] : attachments.filter((a) => !has(a.id)).map((a) => a.id);
        if (writable) {
          release.run(key);
          if (!gone) for (const a of attachments) if (!missing.includes(a.id)) link.run(key, a.id);
        }
        return { turnId, gone, missing };
      }),
    )();
  }

  /** The draft a message was sent from is spent; a new chat's settings went with its first message. */
  clear(conversationId: string | null): void {
    if (readOnlyReason(this.db)) return;
    const key = keyOf(conversationId);
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM draft_attachments WHERE key = ?').run(key);
      this.db.prepare('DELETE FROM drafts WHERE key = ?').run(key);
    })();
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

/** Settings as kept, each field checked (a hand-edited or damaged row gives the default for that field). */
function parseSettings(json: string): ConversationSettings | undefined {
  try {
    const parsed: unknown = JSON.parse(json);
    if (parsed === null || typeof parsed !== 'object') return undefined;
    const { systemPrompt, think, tools } = parsed as Record<string, unknown>;
    return {
      systemPrompt: typeof systemPrompt === 'string' ? systemPrompt : '',
      think: THINK_MODES.find((m): m is ThinkMode => m === think) ?? null,
      tools: typeof tools === 'boolean' ? tools : true,
    };
  } catch {
    return undefined;
  }
}
