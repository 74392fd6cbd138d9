import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BlobStore } from '../../../src/main/blobs/blob-store';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { sha256Hex } from '../../../src/main/db/request-body';
import { StepStore } from '../../../src/main/db/step-store';
import { UserFacingError } from '../../../src/main/errors';
import type { Block } from '../../../src/shared/turn';
import { makeTurn, memoryDb, tempDir, tick } from '../db/helpers';
import { JPEG, PDF, PNG, PNG2 } from './fixtures';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function setup(maxBytes?: number) {
  const { dir, cleanup } = tempDir('firebrand-blobs-');
  cleanups.push(cleanup);
  const db = memoryDb();
  const blobs = new BlobStore(db, dir, maxBytes === undefined ? {} : { maxBytes });
  const store = new ConversationStore(db);
  return { dir, db, blobs, store };
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else out.push(relative(dir, join(d, e.name)));
    }
  };
  if (existsSync(dir)) walk(dir);
  return out.sort();
}

function useIn(store: ConversationStore, conversationId: string, block: Block) {
  store.createConversation(conversationId, 'x', null, tick());
  store.appendTurn(makeTurn({ id: `${conversationId}-u`, conversationId, blocks: [{ type: 'text', text: 'look' }, block] }), tick());
}

describe('BlobStore', () => {
  it('stores bytes under blobs/ab/cd/<sha256> and reads them back', async () => {
    const { dir, blobs, db } = setup();
    const block = await blobs.put(PNG, { name: 'a.png', mime: 'image/png' }, tick());
    const digest = sha256Hex(PNG);
    expect(block).toEqual({ type: 'attachment', id: digest, kind: 'image', name: 'a.png', mime: 'image/png', size: PNG.length });
    expect(filesUnder(join(dir, 'blobs'))).toEqual([join(digest.slice(0, 2), digest.slice(2, 4), digest)]);
    expect(Buffer.from(blobs.read(digest)!).equals(Buffer.from(PNG))).toBe(true);
    expect(db.prepare('SELECT digest, size, mime FROM blobs').all()).toEqual([{ digest, size: PNG.length, mime: 'image/png' }]);
    expect(blobs.read('f'.repeat(64))).toBeUndefined();
  });

  it('stores two attachments with the same bytes once', async () => {
    const { dir, blobs, db } = setup();
    const [a, b] = await Promise.all([
      blobs.put(PNG, { name: 'one.png', mime: 'image/png' }, tick()),
      blobs.put(PNG, { name: 'two.png', mime: 'image/png' }, tick()),
    ]);
    expect(a.id).toBe(b.id);
    expect(filesUnder(join(dir, 'blobs'))).toHaveLength(1);
    expect(db.prepare('SELECT count(*) AS n FROM blobs').get()).toEqual({ n: 1 });
  });

  it('refuses an attachment over the size limit with a message for the user', async () => {
    const { blobs } = setup(8);
    await expect(blobs.put(PNG, { name: 'big.png', mime: 'image/png' }, tick())).rejects.toThrow(UserFacingError);
    await expect(blobs.put(PNG, { name: 'big.png', mime: 'image/png' }, tick())).rejects.toThrow('“big.png” is 15 bytes; an attachment can be at most 8 bytes.');
  });

  it('sniffs the claimed type of images and PDFs and refuses mismatches clearly', async () => {
    const { blobs, dir } = setup();
    await expect(blobs.put(PDF, { name: 'fake.png', mime: 'image/png' }, tick())).rejects.toThrow('“fake.png” cannot be attached: its content is not a PNG file.');
    await expect(blobs.put(PNG, { name: 'x.pdf', mime: 'application/pdf' }, tick())).rejects.toThrow(/not a PDF file/);
    await expect(blobs.put(PNG, { name: 'x.svg', mime: 'image/svg+xml' }, tick())).rejects.toThrow(/not supported/);
    await expect(blobs.put(Uint8Array.from([0xc3, 0x28, 0x00]), { name: 'x.txt', mime: 'text/plain' }, tick())).rejects.toThrow('“x.txt” cannot be attached: it holds binary data, not text.');
    await expect(blobs.put(Uint8Array.from([0xd0, 0xcf, 0x11, 0xe0]), { name: 'old.doc', mime: 'application/msword' }, tick())).rejects.toThrow(/“old\.doc” cannot be attached: Firebrand cannot read \.doc files/);
    expect(filesUnder(join(dir, 'blobs'))).toEqual([]);
    expect((await blobs.put(JPEG, { name: 'p.jpg', mime: 'IMAGE/JPEG' }, tick())).mime).toBe('image/jpeg');
    expect((await blobs.put(PDF, { name: 'd.pdf', mime: 'application/pdf' }, tick())).kind).toBe('document');
    expect((await blobs.put(new TextEncoder().encode('héllo'), { name: 'n.txt', mime: 'text/plain' }, tick())).kind).toBe('text');
  });

  it('GC removes a blob only once the last conversation using it is deleted, and nothing else', async () => {
    const { blobs, store, dir } = setup();
    const shared = await blobs.put(PNG, { name: 'shared.png', mime: 'image/png' }, tick());
    const other = await blobs.put(JPEG, { name: 'other.jpg', mime: 'image/jpeg' }, tick());
    useIn(store, 'c1', shared);
    useIn(store, 'c2', { ...shared, name: 'same-bytes.png' });
    useIn(store, 'c3', other);
    const now = tick() + 10;
    store.deleteConversation('c1');
    expect(await blobs.gc({ now, graceMs: 0 })).toEqual({ removed: [] });
    store.deleteConversation('c2');
    expect(await blobs.gc({ now, graceMs: 0 })).toEqual({ removed: [shared.id] });
    expect(blobs.read(shared.id)).toBeUndefined();
    expect(blobs.read(other.id)).toBeDefined();
    expect(filesUnder(join(dir, 'blobs'))).toHaveLength(1);
  });

  it('GC follows edits: an attachment edited out of its only turn goes, one a later turn attaches again stays', async () => {
    const { blobs, store, db } = setup();
    const photo = await blobs.put(PNG, { name: 'photo.png', mime: 'image/png' }, tick());
    const scan = await blobs.put(PDF, { name: 'scan.pdf', mime: 'application/pdf' }, tick());
    useIn(store, 'c1', photo);
    useIn(store, 'c2', scan);
    db.prepare("UPDATE turns SET blocks = '[{\"type\":\"text\",\"text\":\"look\"}]' WHERE id IN ('c1-u', 'c2-u')").run();
    store.appendTurn(makeTurn({ id: 'c2-again', conversationId: 'c2', parentId: 'c2-u', blocks: [{ type: 'text', text: 'again' }, scan] }), tick());
    expect(await blobs.gc({ now: tick() + 10, graceMs: 0 })).toEqual({ removed: [photo.id] });
    expect(blobs.read(scan.id)).toBeDefined();
    // The text "attachment" in a message is not an attachment.
    store.appendTurn(makeTurn({ id: 'c2-words', conversationId: 'c2', parentId: 'c2-again', blocks: [{ type: 'text', text: '{"type":"attachment","id":"x"} "attachment"' }] }), tick());
    expect(db.prepare("SELECT turn_id, digest FROM turn_attachments ORDER BY turn_id").all()).toEqual([{ turn_id: 'c2-again', digest: scan.id }]);
    // A turn that takes an attachment while it streams keeps it from the GC once it ends, however it ends.
    const live = makeTurn({ id: 'c2-live', conversationId: 'c2', parentId: 'c2-words', role: 'assistant', status: 'streaming', blocks: [] });
    store.appendTurn(live, tick());
    store.updateTurn({ ...live, blocks: [{ type: 'text', text: 'here' }, scan] });
    store.updateTurn({ ...live, blocks: [{ type: 'text', text: 'here' }, scan], status: 'interrupted' });
    db.prepare("UPDATE turns SET blocks = '[]' WHERE id = 'c2-again'").run();
    expect(db.prepare("SELECT turn_id, digest FROM turn_attachments ORDER BY turn_id").all()).toEqual([{ turn_id: 'c2-live', digest: scan.id }]);
    expect(await blobs.gc({ now: tick() + 10, graceMs: 0 })).toEqual({ removed: [] });
  });

  it('GC keeps blobs inside the grace period (attached but not yet sent)', async () => {
    const { blobs } = setup();
    const put = tick();
    const block = await blobs.put(PNG, { name: 'draft.png', mime: 'image/png' }, put);
    expect(await blobs.gc({ now: put + 1000, graceMs: 60_000 })).toEqual({ removed: [] });
    expect(await blobs.gc({ now: put + 61_000, graceMs: 60_000 })).toEqual({ removed: [block.id] });
  });

  it('GC keeps blobs a stored request body references, until its step is gone', async () => {
    const { blobs, store, db } = setup();
    const image = await blobs.put(PNG2, { name: 'i.png', mime: 'image/png' }, tick());
    const steps = new StepStore(db, (d) => blobs.read(d));
    useIn(store, 'c1', image);
    const b64 = Buffer.from(PNG2).toString('base64');
    steps.begin({ id: 's', turnId: 'c1-u', conversationId: 'c1', stepIndex: 0, body: `{"images":["${b64}"]}`, attachments: [image.id], dialect: 'ollama', endpoint: 'http://h/api/chat', model: 'm', now: tick() });
    // The turn loses the attachment (edited away), but the request record still needs the bytes to replay.
    db.prepare("UPDATE turns SET blocks = '[]' WHERE id = 'c1-u'").run();
    expect((await blobs.gc({ now: tick() + 10, graceMs: 0 })).removed).toEqual([]);
    store.deleteConversation('c1');
    expect((await blobs.gc({ now: tick() + 10, graceMs: 0 })).removed).toEqual([image.id]);
    expect(db.prepare('SELECT count(*) AS n FROM request_bodies').get()).toEqual({ n: 0 });
  });
});

describe('describe: an attachment block as main measures it (issue 16)', () => {
  it('reads kind, type and size from its own record and the bytes, and sniffs bytes it has no row for', async () => {
    const { blobs } = setup();
    const pdf = await blobs.put(PDF, { name: 'doc.pdf', mime: 'application/pdf' }, tick());
    expect(blobs.describe({ id: pdf.id, name: 'renamed.pdf' })).toEqual({ ...pdf, name: 'renamed.pdf' });
    const { digest } = await blobs.writeFileOnly(PNG2);
    expect(blobs.describe({ id: digest, name: 'x' })).toEqual({ type: 'attachment', id: digest, kind: 'image', name: 'x', mime: 'image/png', size: PNG2.length });
    expect(() => blobs.describe({ id: 'f'.repeat(64), name: 'gone.png' })).toThrow(UserFacingError);
    expect(() => blobs.describe({ id: '../../etc/passwd', name: 'p' })).toThrow(/no longer stored/);
  });

  it("keeps a block's own type where the bytes hold as it, and no other (attachments audit #3)", async () => {
    const { blobs } = setup();
    const page = new TextEncoder().encode('<html><body><p>hi</p><script>go()</script></body></html>');
    const html = await blobs.put(page, { name: 'page.html', mime: 'text/html' }, tick());
    const text = await blobs.put(page, { name: 'page-source.txt', mime: 'text/plain' }, tick());
    expect(text.id).toBe(html.id);
    expect(blobs.describe(text)).toMatchObject({ name: 'page-source.txt', mime: 'text/plain', kind: 'text' });
    expect(blobs.describe(html)).toMatchObject({ name: 'page.html', mime: 'text/html', kind: 'text' });
    // A claim the bytes do not bear out is not taken: text said to be a PDF or an image reads as stored.
    expect(blobs.describe({ ...text, mime: 'application/pdf' })).toMatchObject({ mime: 'text/html' });
    expect(blobs.describe({ ...text, mime: 'image/png' })).toMatchObject({ mime: 'text/html', kind: 'text' });
    const png = await blobs.put(PNG, { name: 'a.png', mime: 'image/png' }, tick());
    expect(blobs.describe({ ...png, mime: 'text/plain' })).toMatchObject({ mime: 'image/png', kind: 'image' });
  });
});
