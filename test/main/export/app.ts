/** An in-memory database with conversations and a blob folder: what the export tests read from and import into. */
import { afterEach } from 'vitest';
import { BlobStore } from '../../../src/main/blobs/blob-store';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { memoryDb, tempDir } from '../db/helpers';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

/** A fresh app's stores, removed after the test; `deps` is what import and export take (new ids: new-1, new-2…). */
export function exportApp(prefix: string) {
  const { dir, cleanup } = tempDir(prefix);
  cleanups.push(cleanup);
  const db = memoryDb();
  const store = new ConversationStore(db);
  const blobs = new BlobStore(db, dir);
  let n = 0;
  return { db, store, blobs, deps: { db, store, blobs, newId: () => `new-${++n}` } };
}
