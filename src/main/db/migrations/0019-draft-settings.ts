import type { Migration } from './types';

/**
 * A new chat's Chat settings (system prompt, think mode, Offer tools) kept with its draft: they lived in the tab's
 * sessionStorage while the draft came back from here (0018), so after a quit the draft came back without the
 * settings chosen for it, and it went out with tools offered again (context audit #8). JSON, on the new chat's row
 * (`key` ''); NULL: none set. A row may now hold settings and no text: the new chat's settings with nothing typed yet.
 */
export const migration0019: Migration = {
  version: 19,
  name: 'draft-settings',
  up(db) {
    db.exec('ALTER TABLE drafts ADD COLUMN settings TEXT');
  },
};
