import type { Migration } from './types';

/**
 * Every start looks for approval cards still pending (settle-interrupted.ts: the app closed while one waited).
 * Without an index that read every turn: 110-120 ms of main's start with 200,000 turns (issue 20), while the page
 * waited for its first answers. The index holds only pending cards, so it is empty but for the moment one waits.
 */
export const migration0009: Migration = {
  version: 9,
  name: 'pending-approvals',
  up(db) {
    db.exec(`CREATE INDEX turns_pending_approvals ON turns (conversation_id)
      WHERE source = 'tool-approval' AND json_extract(meta, '$.state') = 'pending';`);
  },
};
