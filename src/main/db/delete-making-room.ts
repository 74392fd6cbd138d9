/**
 * Deleting a chat on a full disk (durability audit, round 7): the one way a user can make room from inside
 * Firebrand failed with "The disk is full, so this was not saved", because a delete writes the pages it changes to
 * the -wal file first. Now a delete that fails for want of room gives it the reserve (./disk-reserve.ts) and is
 * tried again; a chat larger than that room is deleted a batch of turns at a time, the -wal file copied into the
 * database between batches so that each batch reuses the same room.
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

/** A conversation's turns deleted newest first, a batch per transaction, then the conversation itself. */
class BatchDelete {
  private readonly batch: Statement;
  private readonly unlink: Statement;
  private readonly deleteTurns: Statement;
  private readonly deleteConversation: Statement;

  constructor(private readonly db: Database) {
    this.batch = db.prepare('SELECT id FROM turns WHERE conversation_id = ? ORDER BY created_at DESC, id DESC LIMIT ?').pluck();
    // Unlinked first, as in ConversationStore.deleteConversation: a parent's cascade would reach every descendant.
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
    for (;;) {
      const ids = this.batch.all(conversationId, DELETE_BATCH_TURNS) as string[];
      if (ids.length === 0) break;
      deleteBatch(ids);
      // Copied in now, the next batch writes its frames over this one's instead of after them.
      copyIn(this.db);
    }
    const deleted = this.deleteConversation.run(conversationId).changes > 0;
    copyIn(this.db);
    return deleted;
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
