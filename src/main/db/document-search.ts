/**
 * The text of attached documents, put into the search index (migration 0022's documents_fts) by main, since it is
 * kept beside the original in the blob store, not in the database. The migration and a trigger list each document a
 * message holds as unread; this reads what is kept of its text (AttachmentContent.searchableText: nothing is
 * extracted on search's account) and indexes it once per content.
 */
import type { Database, Statement } from 'better-sqlite3';
import type { AttachmentBlock } from '../../shared/turn';
import { CJK } from '../../shared/cjk';
import { runInSlices } from './background-slices';

/** A document's text as kept: undefined while it has not been read (its send reads it), null where it never will be. */
export type SearchableText = (block: AttachmentBlock) => string | null | undefined;

/** Documents read per call of `catchUp` by default: a slice of background work, a few ms. */
export const DOCUMENTS_PER_SLICE = 8;

export class DocumentSearchIndex {
  private readonly unread: Statement;
  private readonly blockOf: Statement;
  private readonly index: Statement;
  private readonly markRead: Statement;
  /** Into migration 0023's trigram index, for a text with a CJK character; undefined on a database before 0023. */
  private readonly indexCjk: Statement | undefined;
  /** Unread documents whose text is not kept yet, skipped until `retry` (a send since may have read them). */
  private readonly waiting = new Set<number>();

  constructor(
    private readonly db: Database,
    private readonly textOf: SearchableText,
  ) {
    this.unread = db.prepare('SELECT seq, digest FROM document_search WHERE read = 0 AND seq > ? ORDER BY seq LIMIT ?');
    // The block of one message holding it: its name and type say how its bytes are read.
    this.blockOf = db
      .prepare(`SELECT j.value FROM turn_attachments a JOIN turns t ON t.id = a.turn_id, json_each(t.blocks) AS j
        WHERE a.digest = ? AND json_extract(j.value, '$.type') = 'attachment' AND json_extract(j.value, '$.id') = a.digest LIMIT 1`)
      .pluck();
    this.index = db.prepare('INSERT INTO documents_fts (rowid, text) VALUES (?, ?)');
    this.markRead = db.prepare('UPDATE document_search SET read = 1 WHERE seq = ?');
    const has0023 = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'documents_cjk'").get() !== undefined;
    // Two line breaks after the text, as 0012 pads: every character then starts a trigram (search-cjk.ts).
    this.indexCjk = has0023 ? db.prepare("INSERT INTO documents_cjk (rowid, text) VALUES (?, ? || char(10, 10))") : undefined;
  }

  /**
   * Indexes up to `max` unread documents whose text is kept; returns true once none is left but those still waiting
   * for their text. A document whose text never will be is marked read with nothing indexed.
   */
  catchUp(max = Number.POSITIVE_INFINITY): boolean {
    let after = 0;
    let done = 0;
    while (done < max) {
      const rows = this.unread.all(after, Math.min(64, max - done)) as { seq: number; digest: string }[];
      if (rows.length === 0) return true;
      for (const { seq, digest } of rows) {
        after = seq;
        if (this.waiting.has(seq)) continue;
        done++;
        const raw = this.blockOf.get(digest) as string | undefined;
        const text = raw === undefined ? null : this.textOf(JSON.parse(raw) as AttachmentBlock);
        if (text === undefined) {
          this.waiting.add(seq);
          continue;
        }
        this.db.transaction(() => {
          if (text !== null && text.trim() !== '') {
            this.index.run(seq, text);
            if (CJK.test(text)) this.indexCjk?.run(seq, text);
          }
          this.markRead.run(seq);
        })();
      }
    }
    return false;
  }

  /** Documents that were waiting for their text are read again at the next `catchUp` (a message was sent). */
  retry(): void {
    this.waiting.clear();
  }
}

/**
 * The documents of the messages written before 0022 (or while a search had not run since), indexed a slice at a time
 * after the start, so a search after an upgrade finds them without reading them all at once.
 */
export function indexDocumentsInBackground(db: Database, index: DocumentSearchIndex | undefined, log: (message: string) => void): void {
  if (!index) return;
  runInSlices(db, {
    slice: () => index.catchUp(DOCUMENTS_PER_SLICE),
    done: () => undefined,
    failed: (err) => log(`search: indexing attached documents stopped: ${err instanceof Error ? err.message : String(err)}`),
  });
}
