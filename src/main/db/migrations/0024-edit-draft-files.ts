import type { Migration } from './types';

/**
 * Files added in the edit of a sent message, held for the blob collector (GC_CANDIDATES_SQL) as a draft's are (0018):
 * rows of draft_attachments under the key `edit:<turn id>` while the edit is kept (renderer, edit-drafts.ts). An edit
 * kept across a reload came back without them (its text and kept files only). The edit goes with its message: a
 * message deleted (with its conversation, for good, or by Make room) lets its edit's files go, which nothing else
 * would ever remove.
 */
export const migration0024: Migration = {
  version: 24,
  name: 'edit-draft-files',
  up(db) {
    db.exec(`
      CREATE TRIGGER edit_draft_files_go_with_turn AFTER DELETE ON turns BEGIN
        DELETE FROM draft_attachments WHERE key = 'edit:' || old.id;
      END;
    `);
  },
};
