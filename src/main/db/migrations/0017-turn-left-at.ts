import type { Migration } from './types';

/**
 * When a leaf stopped being the version on screen (conversations audit D4). Going back to a message's other version
 * showed the newest answer under it, not the one the user had chosen and was reading there: the newest leaf is what
 * the user last saw only until they move between versions. The store stamps the active leaf as it leaves it
 * (conversation-store.ts), and a switch opens the leaf under the version chosen that was on screen last. Existing
 * leaves have none, and keep their creation time.
 */
export const migration0017: Migration = {
  version: 17,
  name: 'turn-left-at',
  up(db) {
    db.exec('ALTER TABLE turns ADD COLUMN left_at INTEGER');
  },
};
