/**
 * A chat's delete as one intent (durability audit, round 8). A chat deleted a batch of turns at a time on a full disk
 * (./delete-making-room.ts) is many transactions; a crash or power cut between two of them left it with its older
 * turns, listed again at the next start: a chat the user thought deleted. The delete now first writes a row in
 * conversation_deletes (migration 0016); from then on the chat is not listed, found or opened, and the next start
 * finishes the delete (finishMarkedDeletes), before anything reads the chats.
 */
import type { Database } from 'better-sqlite3';
import { deleteMakingRoom, deleteWhole } from './delete-making-room';
import type { DiskReserve } from './disk-reserve';
import { releaseFreePages } from './free-space';
import { mergeSearchIndexes } from './search-merge';

/** SQL: the conversation whose id is `idColumn` has no delete under way (a primary-key look-up). */
export function notBeingDeleted(idColumn: string): string {
  return `NOT EXISTS (SELECT 1 FROM conversation_deletes WHERE conversation_deletes.conversation_id = ${idColumn})`;
}

/** The same, for a query on `conversations` without an alias. */
export const NOT_BEING_DELETED = notBeingDeleted('conversations.id');

/**
 * `sql` as `db` can run it: a database migrated only part-way (a migration's test writing the rows of its time) has
 * no conversation_deletes yet, so no chat of it can be being deleted, and the filter is dropped.
 */
export function withDeletesOf(db: Database, sql: string): string {
  const has = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'conversation_deletes'").get() !== undefined;
  return has ? sql : sql.replace(/NOT EXISTS \(SELECT 1 FROM conversation_deletes WHERE [^)]*\)/g, '1');
}

/**
 * After a delete: the pages it freed go back to the disk (./free-space.ts), and the chat's words leave the search
 * indexes' files once their segments merge (./search-merge.ts). Not at once after a delete that needed the room kept
 * back (`tight`): a merge writes its new segment before it drops the old ones, and would take the room just made;
 * then only once the pages given back leave room for the reserve again (./disk-reserve.ts).
 */
export function tidyAfterDelete(db: Database, reserve: DiskReserve | undefined, tight: boolean): void {
  releaseFreePages(db, () => {
    void reserve?.restore().then((held) => {
      if (held && tight && db.open) mergeSearchIndexes(db);
    });
  });
  if (!tight) mergeSearchIndexes(db);
}

/**
 * Finishes every delete a crash cut short; returns how many chats it deleted. Never throws: a delete that fails
 * (the disk still full) stays marked, its chat hidden, for the next start.
 */
export function finishMarkedDeletes(db: Database, reserve: DiskReserve | undefined, log?: (message: string) => void): number {
  let finished = 0;
  let tightest = false;
  let ids: string[];
  try {
    ids = db.prepare('SELECT conversation_id FROM conversation_deletes').pluck().all() as string[];
  } catch {
    return 0;
  }
  for (const id of ids) {
    try {
      const { tight } = deleteMakingRoom(db, id, () => deleteWhole(db, id), reserve);
      tightest ||= tight;
      finished++;
    } catch (err) {
      log?.(`storage: a chat deleted before the last stop could not be deleted yet (${err instanceof Error ? err.message : String(err)}); it stays hidden and is tried again at the next start`);
    }
  }
  if (finished > 0) {
    log?.(`storage: finished deleting ${finished} chat(s) whose delete was cut short (by a stop, or for want of room)`);
    tidyAfterDelete(db, reserve, tightest);
  }
  return finished;
}
