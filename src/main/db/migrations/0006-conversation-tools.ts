import type { Migration } from './types';

/**
 * Tools on or off per conversation (issue 19): small models do worse with tool schemas in their context, so a
 * conversation may send none. 1 (the default, and every existing conversation): the enabled tools are offered.
 */
export const migration0006: Migration = {
  version: 6,
  name: 'conversation-tools',
  up(db) {
    db.exec(`ALTER TABLE conversations ADD COLUMN tools INTEGER NOT NULL DEFAULT 1 CHECK (tools IN (0, 1));`);
  },
};
