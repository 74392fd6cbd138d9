/**
 * Deleting a chat on a full disk (durability audit, round 7): the one way a user can make room from inside
 * Firebrand failed with "The disk is full, so this was not saved", because a delete writes the pages it changes to
 * the -wal file first. Now a delete that fails for want of room gives it the reserve (./disk-reserve.ts) and is
 * tried again; a chat larger than that room is deleted a batch of turns at a time, the -wal file copied into the
 * database between batches so that each batch reuses the same room.
 *
 * A batched delete is many transactions: a crash or power cut between two of them left the chat with its older turns,
 * back in the list at the next start (round 8). So it first writes its intent, one small row (migration 0016): the
 * chat is hidden at once (./delete-intent.ts), and the next start finishes the delete.
 */
import type { Database, Statement } from 'better-sqlite3';
import { isDiskFull, type DiskReserve } from './disk-reserve';

/** Turns per batch: a few hundred kB of -wal frames for turns of a few kB (a 1,000-turn chat's delete: 7.4 MB). */
export const DELETE_BATCH_TURNS = 64;

/** How a delete went: `tight` when the disk was full and it needed the room kept back or the batches. */
export interface DeleteOutcome {
  deleted: boolean;
  tight: boolean;
}

/**
 * Runs `deleteWhole` (one transaction); when the disk is full, releases the reserve and tries again, whole, then in
 * batches. Throws the disk-full error when even a batch finds no room (the user's next delete tries again).
 */
export function deleteMakingRoom(db: Database, conversationId: string, deleteWhole: () => boolean, reserve: DiskReserve | undefined): DeleteOutcome {
  try {
    return { deleted: deleteWhole(), tight: false };
  } catch (err) {
    if (!isDiskFull(err)) throw err;
  }
  reserve?.release();
  // The failed try's frames are not counted in the -wal file; starting it over gives their room to the next try.
  startWalOver(db);
  try {
    return { deleted: deleteWhole(), tight: true };
  } catch (err) {
    if (!isDiskFull(err)) throw err;
  }
  startWalOver(db);
  return { deleted: new BatchDelete(db).run(conversationId), tight: true };
}

/**
 * Deletes a conversation with its turns and steps in one transaction (cascade); false when there was none.
 * A turn's parent link cascades too: deleting the root took the branch one nested cascade per turn, which SQLite
 * refuses past 1,000 levels ("too many levels of trigger recursion": a chat of 1,000 turns could not be deleted)
 * and which took 2.5 s for 999. Unlinked first, every turn goes by the conversation's cascade.
 */
export function deleteWhole(db: Database, conversationId: string): boolean {
  return db.transaction(() => {
    db.prepare('UPDATE turns SET parent_id = NULL WHERE conversation_id = ? AND parent_id IS NOT NULL').run(conversationId);
    return db.prepare('DELETE FROM conversations WHERE id = ?').run(conversationId).changes > 0;
  })();
}

/**
 * A conversation's turns deleted newest first, a batch per transaction, then the conversation itself, the delete's
 * intent written before the first batch and removed with the conversation (cascade).
 */
class BatchDelete {
  private readonly mark: Statement;
  private readonly unmark: Statement;
  private readonly batch: Statement;
  private readonly unlink: Statement;
  private readonly deleteTurns: Statement;
  private readonly deleteConversation: Statement;

  constructor(private readonly db: Database) {
    this.mark = db.prepare('INSERT OR IGNORE INTO conversation_deletes (conversation_id) SELECT id FROM conversations WHERE id = ?');
    this.unmark = db.prepare('DELETE FROM conversation_deletes WHERE conversation_id = ?');
    this.batch = db.prepare('SELECT id FROM turns WHERE conversation_id = ? ORDER BY created_at DESC, id DESC LIMIT ?').pluck();
    // Unlinked first, as in deleteWhole: a parent's cascade would reach every descendant.
    this.unlink = db.prepare('UPDATE turns SET parent_id = NULL WHERE parent_id IN (SELECT value FROM json_each(?))');
    this.deleteTurns = db.prepare('DELETE FROM turns WHERE id IN (SELECT value FROM json_each(?))');
    this.deleteConversation = db.prepare('DELETE FROM conversations WHERE id = ?');
  }

  run(conversationId: string): boolean {
    const deleteBatch = this.db.transaction((ids: string[]) => {
      const json = JSON.stringify(ids);
      this.unlink.run(json);
      this.deleteTurns.run(json);
    });
    // Its own transaction, committed before any turn goes: the chat is hidden from here on, whatever happens next.
    this.mark.run(conversationId);
    for (let done = 0; ; done++) {
      const ids = this.batch.all(conversationId, DELETE_BATCH_TURNS) as string[];
      if (ids.length === 0) break;
      try {
        deleteBatch(ids);
      } catch (err) {
        if (!isDiskFull(err)) throw err;
        // No room even for a batch. Before the first one nothing was deleted: the chat comes back as it was, and the
        // user is told the disk is full. After it, the chat has lost turns: it stays hidden, and the rest is deleted
        // once there is room again, or at the next start (./delete-intent.ts); for the user it is deleted.
        if (done > 0) return true;
        this.forget(conversationId);
        throw err;
      }
      // Copied in now, the next batch writes its frames over this one's instead of after them.
      copyIn(this.db);
    }
    let deleted: boolean;
    try {
      deleted = this.deleteConversation.run(conversationId).changes > 0;
    } catch (err) {
      // Its turns are gone: as for a batch after the first, the next start deletes the (hidden) rest.
      if (isDiskFull(err)) return true;
      throw err;
    }
    copyIn(this.db);
    return deleted;
  }

  private forget(conversationId: string): void {
    try {
      this.unmark.run(conversationId);
    } catch {
      // No room to take the intent back either: the chat stays hidden, and the next start deletes it.
    }
  }
}

function copyIn(db: Database): void {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // The next batch then grows the -wal file; it fails with "full" if there is no room for that.
  }
}

function startWalOver(db: Database): void {
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
  } catch {
    // As above.
  }
}
