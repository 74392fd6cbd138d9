/**
 * Round 9: a data folder from before the folder lock (round 4: no firebrand.db-lock beside the database) on a full
 * disk. Taking the lock made its file and wrote to it, and that write failed for want of room, so Firebrand said
 * the disk was full and quit: the read-only start (round 7), meant for exactly this disk, was never reached, and
 * the user could not read their chats. On a real full disk (a tmpfs filled to 0 bytes free: mounting needs root,
 * so without it this prints why and does not run).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { LOCK_FILE, lockDataFolder, openLockedDatabase } from '../../../src/main/db/folder-lock';
import { openDatabase } from '../../../src/main/db/open-database';
import { readOnlyReason } from '../../../src/main/db/read-only-copy';
import { mountSmallDisk, smallDiskUnavailable } from '../../support/small-disk';

const unavailable = smallDiskUnavailable();
if (unavailable) console.log(`Full-disk lock tests not run: ${unavailable}.`);

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

describe.runIf(unavailable === undefined)('the folder lock on a full disk', () => {
  it('opens an older data folder with no lock file read-only, and still keeps a second Firebrand out', () => {
    const disk = mountSmallDisk(4);
    cleanups.push(() => disk.unmount());
    const dataDir = join(disk.dir, 'data');
    mkdirSync(dataDir);
    // Written by a Firebrand from before the lock: the database alone, closed cleanly.
    const old = openDatabase(join(dataDir, 'firebrand.db'));
    const store = new ConversationStore(old);
    store.createConversation('c', 'Wombats', 'm', 1);
    store.appendTurn({ id: 't', conversationId: 'c', parentId: null, role: 'user', blocks: [{ type: 'text', text: 'How deep do wombats dig?' }], meta: {}, status: 'done', createdAt: 2 }, 2);
    old.close();
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
    disk.fill();
    expect(disk.free()).toBe(0);

    const { db, lock } = openLockedDatabase(dataDir, { log: () => {} });
    cleanups.unshift(() => {
      db.close();
      lock.release();
    });
    expect(readOnlyReason(db)).toContain('open read-only');
    expect(new ConversationStore(db).getTurn('t')?.blocks).toEqual([{ type: 'text', text: 'How deep do wombats dig?' }]);
    // The folder is still this process's: a second Firebrand is refused, as with room.
    expect(() => lockDataFolder(dataDir)).toThrow(/^Another Firebrand is already using the data folder/);
    lock.release();
    lockDataFolder(dataDir).release();
  });
});
