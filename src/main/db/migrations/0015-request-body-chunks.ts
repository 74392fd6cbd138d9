import type { Migration } from './types';

/**
 * Request bodies stored in shared chunks (durability audit). Every request of a chat carries its whole history, and
 * each body was stored whole (less its attachments): a 200-message chat's bodies took 17 MB for 0.3 MB of chat
 * (measured), the square of its length. A body's text is now cut into content-defined chunks
 * (src/main/db/content-chunks.ts), stored once here and named by id in the body's template (`{"c": id}`).
 *
 * A chunk counts the bodies that name it (`bodies`), kept by triggers from the template itself when a body is
 * stored or deleted (request bodies go with their last step, 0011): the chunk goes with the last body. A link
 * table (body digest, chunk id) would cost about 150 bytes a reference with its index, more than the chunks
 * themselves for a long chat. Templates written before this name no chunks (`instr` skips them unparsed): they
 * read as before, and are cut into chunks in the background after a start (src/main/db/rechunk-bodies.ts), a
 * template rewritten in place (the third trigger keeps the counts).
 */
export const migration0015: Migration = {
  version: 15,
  name: 'request-body-chunks',
  up(db) {
    db.exec(`
      CREATE TABLE body_chunks (
        id INTEGER PRIMARY KEY,
        digest BLOB NOT NULL UNIQUE CHECK (length(digest) = 32),
        bytes BLOB NOT NULL,
        bodies INTEGER NOT NULL DEFAULT 0 CHECK (bodies >= 0)
      ) STRICT;

      CREATE TRIGGER body_chunks_count_bodies AFTER INSERT ON request_bodies
      WHEN instr(new.template, '{"c":') > 0 BEGIN
        UPDATE body_chunks SET bodies = bodies + 1
        WHERE id IN (SELECT json_extract(value, '$.c') FROM json_each(new.template) WHERE type = 'object');
      END;

      CREATE TRIGGER body_chunks_follow_bodies AFTER DELETE ON request_bodies
      WHEN instr(old.template, '{"c":') > 0 BEGIN
        UPDATE body_chunks SET bodies = bodies - 1
        WHERE id IN (SELECT json_extract(value, '$.c') FROM json_each(old.template) WHERE type = 'object');
        DELETE FROM body_chunks WHERE bodies = 0
        AND id IN (SELECT json_extract(value, '$.c') FROM json_each(old.template) WHERE type = 'object');
      END;

      -- Where the background walk over bodies stored whole has got to (rowid); no row once it is done.
      CREATE TABLE body_rechunk_progress (after INTEGER NOT NULL) STRICT;
      INSERT INTO body_rechunk_progress (after) SELECT 0 WHERE EXISTS (SELECT 1 FROM request_bodies);

      CREATE TRIGGER body_chunks_follow_rewrites AFTER UPDATE OF template ON request_bodies
      WHEN instr(new.template, '{"c":') > 0 OR instr(old.template, '{"c":') > 0 BEGIN
        UPDATE body_chunks SET bodies = bodies + 1
        WHERE id IN (SELECT json_extract(value, '$.c') FROM json_each(new.template) WHERE type = 'object');
        UPDATE body_chunks SET bodies = bodies - 1
        WHERE id IN (SELECT json_extract(value, '$.c') FROM json_each(old.template) WHERE type = 'object');
        DELETE FROM body_chunks WHERE bodies = 0
        AND id IN (SELECT json_extract(value, '$.c') FROM json_each(old.template) WHERE type = 'object');
      END;
    `);
  },
};
