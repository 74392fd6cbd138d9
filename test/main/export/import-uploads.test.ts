/** An export too large for one IPC payload or serve frame comes in chunks, and export refuses what import could not read. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { BlobStore } from '../../../src/main/blobs/blob-store';
import { exportConversation, serializeConversationFile } from '../../../src/main/export/conversation-io';
import { ImportUploads } from '../../../src/main/export/import-uploads';
import { UserFacingError } from '../../../src/main/errors';
import { CONVERSATION_FILE_MAX_BYTES } from '../../../src/shared/file-limits';
import { makeTurn, memoryDb, tempDir, text, tick } from '../db/helpers';

const cleanups: (() => void)[] = [];
afterEach(() => {
  cleanups.splice(0).forEach((c) => c());
  vi.useRealTimers();
});

function uploads(options: Partial<ConstructorParameters<typeof ImportUploads>[0]> = {}) {
  let n = 0;
  return new ImportUploads({ newId: () => `up-${++n}`, ...options });
}

describe('import uploads', () => {
  it('puts a file back together from its chunks, in order, and forgets it once taken', () => {
    const u = uploads();
    const bytes = Buffer.from('{"format":"firebrand.conversation","title":"Привет 東京"}', 'utf8');
    const { uploadId } = u.begin(bytes.byteLength);
    // A cut inside a multi-byte character: the chunks are bytes, decoded only whole.
    const cut = bytes.indexOf(Buffer.from('東')) + 1;
    expect(u.append(uploadId, 0, bytes.subarray(0, cut))).toEqual({ received: cut });
    expect(u.append(uploadId, cut, bytes.subarray(cut))).toEqual({ received: bytes.byteLength });
    expect(u.take(uploadId)).toEqual({ text: bytes.toString('utf8'), name: undefined });
    expect(u.stagedBytes()).toBe(0);
    expect(() => u.take(uploadId)).toThrow(/interrupted.*Import the file again/);
  });

  it('refuses a file over the limit, naming both sizes, and an empty one, before any byte is sent', () => {
    const u = uploads();
    expect(() => u.begin(CONVERSATION_FILE_MAX_BYTES + 1, 'big.firebrand.json')).toThrow(
      '“big.firebrand.json” is 100.0 MiB; Firebrand can import a conversation file of at most 100.0 MiB. Nothing was imported.',
    );
    expect(() => u.begin(150 * 1024 * 1024, 'big.json')).toThrow(/“big\.json” is 150\.0 MiB; .* at most 100\.0 MiB/);
    expect(() => u.begin(0, 'empty.json')).toThrow('“empty.json” is empty; there is nothing to import.');
  });

  it('drops an upload whose chunks come out of order, overrun its size, or stop short', () => {
    const u = uploads();
    const a = u.begin(10).uploadId;
    u.append(a, 0, Buffer.alloc(4));
    expect(() => u.append(a, 8, Buffer.alloc(2))).toThrow(/out of order/);
    expect(() => u.append(a, 4, Buffer.alloc(2))).toThrow(/interrupted/);
    const b = u.begin(10).uploadId;
    expect(() => u.append(b, 0, Buffer.alloc(11))).toThrow(UserFacingError);
    const c = u.begin(10).uploadId;
    u.append(c, 0, Buffer.alloc(4));
    expect(() => u.take(c)).toThrow('Only 4 bytes of 10 bytes of this file arrived, so nothing was imported. Import it again.');
    expect(u.stagedBytes()).toBe(0);
  });

  // Import words pass: these said "this file" though the page had sent its name.
  it('names the file in a refusal on the way in, and hands its name on with its text', () => {
    const u = uploads({ maxStagedBytes: 12 });
    const a = u.begin(10, 'tea.firebrand.json').uploadId;
    expect(() => u.begin(5, 'coffee.firebrand.json')).toThrow('Other imports (10 bytes) are still on their way in. Wait for them to finish, then import “coffee.firebrand.json” again.');
    u.append(a, 0, Buffer.alloc(4));
    expect(() => u.take(a)).toThrow('Only 4 bytes of 10 bytes of “tea.firebrand.json” arrived, so nothing was imported. Import it again.');
    const b = u.begin(3, 'tea.firebrand.json').uploadId;
    expect(() => u.append(b, 1, Buffer.alloc(1))).toThrow('“tea.firebrand.json” changed or arrived out of order while it was being imported, so nothing was imported. Import it again.');
    const c = u.begin(2, 'tea.firebrand.json').uploadId;
    u.append(c, 0, Buffer.from('{}'));
    expect(u.take(c)).toEqual({ text: '{}', name: 'tea.firebrand.json' });
  });

  // "This import was interrupted" did not say which file, with several imported one after another.
  it('names the file whose import was interrupted: dropped after waiting too long, or after a chunk out of order', () => {
    vi.useFakeTimers();
    const u = uploads({ idleMs: 60_000 });
    const a = u.begin(10, 'tea.firebrand.json').uploadId;
    u.append(a, 0, Buffer.alloc(4));
    vi.advanceTimersByTime(60_001);
    expect(() => u.append(a, 4, Buffer.alloc(6))).toThrow(
      'The import of “tea.firebrand.json” was interrupted (it waited too long or failed), so nothing was imported. Import it again.',
    );
    const b = u.begin(10, 'coffee.firebrand.json').uploadId;
    expect(() => u.append(b, 2, Buffer.alloc(2))).toThrow(/out of order/);
    expect(() => u.take(b)).toThrow('The import of “coffee.firebrand.json” was interrupted (it waited too long or failed), so nothing was imported. Import it again.');
    // An upload never begun here, or one without a name, keeps the words with no name.
    expect(() => u.take('up-unknown')).toThrow('This import was interrupted (it waited too long or failed), so nothing was imported. Import the file again.');
  });

  it('discards an upload that hears nothing for a while, and bounds what is staged at once', () => {
    vi.useFakeTimers();
    const u = uploads({ idleMs: 60_000, maxStagedBytes: 100 });
    const a = u.begin(60).uploadId;
    u.append(a, 0, Buffer.alloc(30));
    expect(() => u.begin(50)).toThrow(/Other imports \(60 bytes\) are still on their way in/);
    vi.advanceTimersByTime(59_000);
    u.append(a, 30, Buffer.alloc(10)); // a chunk restarts the wait
    vi.advanceTimersByTime(59_000);
    expect(u.stagedBytes()).toBe(40);
    vi.advanceTimersByTime(2_000);
    expect(u.stagedBytes()).toBe(0);
    expect(() => u.append(a, 40, Buffer.alloc(10))).toThrow(/interrupted/);
    expect(u.begin(50).uploadId).toBeTruthy();
    expect(u.cancel('up-2')).toBe(true);
    expect(u.cancel('up-2')).toBe(false);
  });
});

describe('the export size limit', () => {
  function app() {
    const { dir, cleanup } = tempDir('firebrand-export-limit-');
    cleanups.push(cleanup);
    const db = memoryDb();
    return { db, store: new ConversationStore(db), blobs: new BlobStore(db, dir) };
  }

  it('refuses a conversation whose attachments pass the limit before reading them, naming the size', () => {
    const a = app();
    a.store.createConversation('c', 'Scans', 'llava', tick());
    const scan = (i: number) => ({ type: 'attachment' as const, id: String(i).repeat(64), kind: 'image' as const, name: `scan${i}.png`, mime: 'image/png', size: 20 * 1024 * 1024 });
    // Five 20 MiB images: ~133 MiB of base64. Their bytes are not even on disk: the refusal comes first.
    a.store.appendTurn(makeTurn({ id: 'u1', conversationId: 'c', blocks: [...text('Look'), ...[1, 2, 3, 4, 5].map(scan)] }), tick());
    expect(() => exportConversation(a, 'c', tick())).toThrow(
      /^This conversation would be about 133\.3 MiB as a file; Firebrand exports and imports conversation files of at most 100\.0 MiB, so it was not exported\./,
    );
  });

  it('refuses a file whose text alone passes the limit, counting UTF-8 bytes', () => {
    const a = app();
    a.store.createConversation('c', 'Long', 'm', tick());
    a.store.appendTurn(makeTurn({ id: 'u1', conversationId: 'c', blocks: text('short') }), tick());
    const file = exportConversation(a, 'c', tick());
    expect(() => serializeConversationFile(file)).not.toThrow();
    // 35 million '€' (3 bytes each): 105 MB of UTF-8 in a string of 35 million characters.
    const long = { ...file, turns: file.turns.map((t) => ({ ...t, blocks: text('€'.repeat(35_000_000)) })) };
    expect(() => serializeConversationFile(long)).toThrow(/would be 100\.1 MiB as a file; .* at most 100\.0 MiB/);
  });
});
