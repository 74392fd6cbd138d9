import type { Migration } from './types';

/**
 * The conversation list is read a page at a time from where the last page ended (issue 20: a history of 10,000
 * conversations listed 500 of them, all rendered at start, and no more). A page ends between two conversations
 * updated in the same millisecond as often as not after an import, so the order needs a tie-break: the id, in the
 * index, so a page is still read in order from the index without a sort.
 */
export const migration0008: Migration = {
  version: 8,
  name: 'recency-with-id',
  up(db) {
    db.exec(`
      DROP INDEX conversations_by_recency;
      CREATE INDEX conversations_by_recency ON conversations (updated_at DESC, id DESC);
    `);
  },
};
