/**
 * Round 10: a data folder whose last run stopped with no room to tidy up (its -wal not copied in, so firebrand.db-wal
 * and firebrand.db-shm were left beside the database) opened writable on a full disk: it needs no new -shm file, so
 * the open worked, nothing said the disk was full, and each change then failed with the disk-full notice. Now it is
 * the same start as a folder without those files: the chats read-only with the banner saying why, or, where room was
 * kept back, that room given up for them. On a real full disk (a tmpfs filled to 0 bytes free: mounting needs root,
 * so without it this prints why and does not run).
 */
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { RESERVE_FILE } from '../../../src/main/db/disk-reserve';
import { lockDataFolder, openLockedDatabase } from '../../../src/main/db/folder-lock';
import { openDatabase } from '../../../src/main/db/open-database';
import { readOnlyReason } from '../../../src/main/db/read-only-copy';
import { mountSmallDisk, smallDiskUnavailable } from '../../support/small-disk';
import { tempDir } from './helpers';

const unavailable = smallDiskUnavailable();
if (unavailable) console.log(`Full-disk untidy-folder tests not run: ${unavailable}.`);

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

const FILES = ['firebrand.db', 'firebrand.db-wal', 'firebrand.db-shm'];

/** A data folder on a 4 MB tmpfs as a run leaves it that stopped with no room to copy its -wal file in. */
function untidyFolderOnSmallDisk() {
  const disk = mountSmallDisk(4);
  cleanups.push(() => disk.unmount());
  const dataDir = join(disk.dir, 'data');
  mkdirSync(dataDir);
  // The lock file as any Firebrand since round 4 leaves it (the folder lock on a full disk is lock-on-full-disk's).
  lockDataFolder(dataDir).release();
  const { dir, cleanup } = tempDir('firebrand-untidy-');
  cleanups.push(cleanup);
  const db = openDatabase(join(dir, 'firebrand.db'));
  db.pragma('wal_autocheckpoint = 0');
  const store = new ConversationStore(db);
  store.createConversation('c', 'Wombats', 'm', 1);
  store.appendTurn({ id: 't', conversationId: 'c', parentId: null, role: 'user', blocks: [{ type: 'text', text: 'How deep do wombats dig?' }], meta: {}, status: 'done', createdAt: 2 }, 2);
  // Copied while the connection is open: the chat is only in the -wal file, and the -shm file is there.
  for (const name of FILES) copyFileSync(join(dir, name), join(dataDir, name));
  db.close();
  return { disk, dataDir };
}

function open(dataDir: string) {
  const opened = openLockedDatabase(dataDir, { log: () => {} });
  cleanups.unshift(() => {
    opened.db.close();
    opened.lock.release();
  });
  return opened;
}

describe.runIf(unavailable === undefined)('a data folder left untidy, on a full disk', () => {
  it('opens read-only with the banner saying the disk is full, showing what only the -wal file held', () => {
    const { disk, dataDir } = untidyFolderOnSmallDisk();
    for (const name of FILES) expect(existsSync(join(dataDir, name))).toBe(true);
    disk.fill();
    expect(disk.free()).toBe(0);

    const { db } = open(dataDir);
    expect(readOnlyReason(db)).toContain('is full, so your chats are open read-only');
    const store = new ConversationStore(db);
    expect(store.listConversations().map((c) => c.title)).toEqual(['Wombats']);
    expect(store.getTurn('t')?.blocks).toEqual([{ type: 'text', text: 'How deep do wombats dig?' }]);
  });

  it('with room kept back, gives it up and opens writable, so a change is saved', () => {
    const { disk, dataDir } = untidyFolderOnSmallDisk();
    writeFileSync(join(dataDir, RESERVE_FILE), Buffer.alloc(512 * 1024, 1));
    disk.fill();
    expect(disk.free()).toBe(0);

    const { db } = open(dataDir);
    expect(readOnlyReason(db)).toBeUndefined();
    expect(existsSync(join(dataDir, RESERVE_FILE))).toBe(false);
    new ConversationStore(db).renameConversation('c', 'Wombat burrows');
    expect(new ConversationStore(db).listConversations().map((c) => c.title)).toEqual(['Wombat burrows']);
  });
});
