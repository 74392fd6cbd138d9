import type { Migration } from './types';

/**
 * A request body goes with the last step that used it (issue 20). The blob GC removed the bodies no step used by
 * reading the whole request_bodies table, in the same transaction on main's thread: with 100,000 stored requests
 * that took 270-310 ms (measured), and a real history's requests are as many as its answers. A trigger now removes
 * a body when its last step is deleted (a deleted turn or conversation takes its steps with it), and its
 * request_body_blobs go with it by their foreign key; this migration sweeps once what earlier deletes left.
 */
export const migration0011: Migration = {
  version: 11,
  name: 'request-bodies-follow-steps',
  up(db) {
    db.exec(`
      DELETE FROM request_bodies WHERE NOT EXISTS (SELECT 1 FROM steps WHERE steps.request_digest = request_bodies.digest);
      CREATE TRIGGER request_bodies_follow_steps AFTER DELETE ON steps
      WHEN NOT EXISTS (SELECT 1 FROM steps WHERE request_digest = old.request_digest) BEGIN
        DELETE FROM request_bodies WHERE digest = old.request_digest;
      END;
    `);
  },
};
