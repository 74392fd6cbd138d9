/**
 * The files added in the edit of a sent message, held by main for the edit the renderer keeps (migration 0024,
 * DraftStore.holdEditFiles): an edit kept across a reload came back without them, and a file older than the
 * collector's hour of grace was swept at the next start. They go with the message.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BlobStore } from '../../../src/main/blobs/blob-store';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { DraftStore } from '../../../src/main/db/draft-store';
import { makeTurn, memoryDb, migrateTo, tempDir, text, tick } from './helpers';
import { PNG, PNG2 } from '../blobs/fixtures';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

const HOUR = 60 * 60 * 1000;

function setup(version?: number) {
  const { dir, cleanup } = tempDir('firebrand-edit-files-');
  cleanups.push(cleanup);
  const db = memoryDb(version);
  return { db, drafts: new DraftStore(db), blobs: new BlobStore(db, dir), store: new ConversationStore(db) };
}

describe('files added in an edit of a sent message', () => {
  it("are held past the collector's hour of grace while the edit is kept, and go once it is let go", async () => {
    const { drafts, blobs, store } = setup();
    store.createConversation('c1', 'One', null, tick());
    store.appendTurn(makeTurn({ id: 'u1', conversationId: 'c1', role: 'user', blocks: text('Look at this') }), tick());
    const put = Date.now();
    const added = await blobs.put(PNG, { name: 'screenshot.png', mime: 'image/png' }, put);
    const has = (d: string) => blobs.has(d);
    expect(drafts.holdEditFiles([{ turnId: 'u1', attachments: [added] }], has)).toEqual([{ turnId: 'u1', gone: false, missing: [] }]);
    // The next start's sweep, a day later: the edit's file stays.
    expect((await blobs.gc({ now: put + 24 * HOUR })).removed).toEqual([]);
    // Sent or discarded: let go, and the next sweep takes it.
    drafts.holdEditFiles([{ turnId: 'u1', attachments: [] }], has);
    expect((await blobs.gc({ now: put + 25 * HOUR })).removed).toEqual([added.id]);
  });

  it('says which files are no longer stored, and that a message deleted with its chat took its edit and its files', async () => {
    const { drafts, blobs, store } = setup();
    store.createConversation('c1', 'One', null, tick());
    store.appendTurn(makeTurn({ id: 'u1', conversationId: 'c1', role: 'user', blocks: text('Look at this') }), tick());
    const put = Date.now();
    const added = await blobs.put(PNG, { name: 'screenshot.png', mime: 'image/png' }, put);
    const swept = await blobs.put(PNG2, { name: 'other.png', mime: 'image/png' }, put);
    expect((await blobs.gc({ now: put + 2 * HOUR, released: { digests: [swept.id], before: put + 2 * HOUR } })).removed).toEqual([swept.id]);
    const has = (d: string) => blobs.has(d);
    expect(drafts.holdEditFiles([{ turnId: 'u1', attachments: [added, swept] }], has)).toEqual([{ turnId: 'u1', gone: false, missing: [swept.id] }]);
    store.deleteConversation('c1');
    expect(drafts.holdEditFiles([{ turnId: 'u1', attachments: [added] }], has)).toEqual([{ turnId: 'u1', gone: true, missing: [] }]);
    expect((await blobs.gc({ now: put + 24 * HOUR })).removed).toEqual([added.id]);
  });
});

describe('0024 edit draft files', () => {
  it("lets an edit's files go when its message is deleted, and leaves a conversation's draft alone", () => {
    const db = memoryDb(23);
    db.exec(`INSERT INTO conversations (id, title, model, active_leaf_id, created_at, updated_at) VALUES ('c', 'Old', 'm', 'u', 1, 5)`);
    db.exec(`INSERT INTO turns (id, conversation_id, parent_id, role, blocks, text, meta, status, created_at) VALUES ('u', 'c', NULL, 'user', '[]', '', '{}', 'done', 1)`);
    db.exec(`INSERT INTO draft_attachments (key, digest) VALUES ('edit:u', 'd1'), ('c', 'd2')`);
    migrateTo(db, 24);
    db.exec(`DELETE FROM turns WHERE id = 'u'`);
    expect(db.prepare('SELECT key, digest FROM draft_attachments').all()).toEqual([{ key: 'c', digest: 'd2' }]);
  });
});
