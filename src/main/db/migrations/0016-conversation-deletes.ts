import type { Migration } from './types';

/**
 * Chats being deleted (durability audit, round 8). A chat too large for the room on a full disk is deleted a batch of
 * turns at a time (src/main/db/delete-making-room.ts); a crash or power cut between two batches left it with its older
 * turns, back in the list at the next start: a chat the user thought deleted. A row here is the delete's intent,
 * written first in one small transaction: the chat is hidden from the list, search and open at once, and the next
 * start finishes the delete (src/main/db/delete-intent.ts). The conversation's own delete removes the row (cascade).
 */
export const migration0016: Migration = {
  version: 16,
  name: 'conversation-deletes',
  up(db) {
    db.exec(`
      CREATE TABLE conversation_deletes (
        conversation_id TEXT PRIMARY KEY REFERENCES conversations (id) ON DELETE CASCADE
      ) STRICT, WITHOUT ROWID;
    `);
  },
};
