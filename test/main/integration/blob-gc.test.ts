/**
 * Gap 6: attachment bytes are collected after a conversation is deleted for good (its unique image goes, one
 * another conversation shares stays) and once at startup, off the startup path.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../../../src/main/services';
import { PNG, PNG2 } from '../blobs/fixtures';
import { startReplayServer, type ReplayServer } from '../../replay-server/replay-server';
import { ollama, settle, tempServices, GPU_12GB } from './helpers';

let replay: ReplayServer;
let cleanup: (() => void) | undefined;
beforeAll(async () => {
  replay = await startReplayServer(ollama());
});
afterAll(() => replay.close());
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

const blobPath = (dir: string, digest: string) => join(dir, 'blobs', digest.slice(0, 2), digest.slice(2, 4), digest);
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

describe('blob GC', () => {
  it("removes a deleted conversation's unique image and keeps one another conversation shares", async () => {
    const t = tempServices(replay);
    cleanup = t.cleanup;
    const h = t.services.handlers;
    const unique = await h['attachments:add']({ name: 'mine.png', mime: 'image/png', dataBase64: b64(PNG) });
    const shared = await h['attachments:add']({ name: 'both.png', mime: 'image/png', dataBase64: b64(PNG2) });
    const a = await h['chat:send']({ conversationId: null, text: 'Look', model: 'llama3.2:3b', attachments: [unique, shared] });
    await settle(t.services, a.conversationId);
    const b = await h['chat:send']({ conversationId: null, text: 'Also', model: 'llama3.2:3b', attachments: [shared] });
    await settle(t.services, b.conversationId);
    expect(existsSync(blobPath(t.dir, unique.id))).toBe(true);

    expect(await h['conversations:delete']({ conversationId: a.conversationId })).toEqual({ deleted: true });
    await expect.poll(() => existsSync(blobPath(t.dir, unique.id))).toBe(false);
    expect(existsSync(blobPath(t.dir, shared.id))).toBe(true);
    expect(t.services.db.prepare('SELECT digest FROM blobs').all()).toEqual([{ digest: shared.id }]);
  });

  it('keeps an image the composer holds again after the conversation last changed', async () => {
    const logs: string[] = [];
    const t = tempServices(replay, { log: (m) => logs.push(m) });
    cleanup = t.cleanup;
    const h = t.services.handlers;
    const image = await h['attachments:add']({ name: 'again.png', mime: 'image/png', dataBase64: b64(PNG) });
    // Sent with the same message and not held again: the collection that follows the delete removes it, which
    // shows that collection ran (and finished: it logs after the files are gone).
    const other = await h['attachments:add']({ name: 'once.png', mime: 'image/png', dataBase64: b64(PNG2) });
    const a = await h['chat:send']({ conversationId: null, text: 'Look', model: 'llama3.2:3b', attachments: [image, other] });
    await settle(t.services, a.conversationId);
    // "Again" means later than the conversation's last change, on the millisecond clock the rows use.
    const { updated_at: changed } = t.services.db.prepare('SELECT updated_at FROM conversations WHERE id = ?').get(a.conversationId) as { updated_at: number };
    while (Date.now() <= changed) await new Promise((r) => setImmediate(r));
    await h['attachments:add']({ name: 'again.png', mime: 'image/png', dataBase64: b64(PNG) });
    await h['conversations:delete']({ conversationId: a.conversationId });
    await expect.poll(() => logs.filter((l) => l.startsWith('blobs: removed'))).toEqual(['blobs: removed 1 attachment(s) no message uses any more']);
    expect(existsSync(blobPath(t.dir, other.id))).toBe(false);
    expect(existsSync(blobPath(t.dir, image.id))).toBe(true);
  });

  it("keeps a file waiting for hours in another chat's composer when a chat is deleted; it can still be sent", async () => {
    const logs: string[] = [];
    const t = tempServices(replay, { log: (m) => logs.push(m) });
    cleanup = t.cleanup;
    const h = t.services.handlers;
    const waiting = await h['attachments:add']({ name: 'screenshot.png', mime: 'image/png', dataBase64: b64(PNG2) });
    // Attached two hours ago and not sent yet: past the grace period, referenced by nothing stored.
    t.services.db.prepare('UPDATE blobs SET created_at = ? WHERE digest = ?').run(Date.now() - 2 * 3600_000, waiting.id);
    const sent = await h['attachments:add']({ name: 'sent.png', mime: 'image/png', dataBase64: b64(PNG) });
    const a = await h['chat:send']({ conversationId: null, text: 'Look', model: 'llama3.2:3b', attachments: [sent] });
    await settle(t.services, a.conversationId);
    await h['conversations:delete']({ conversationId: a.conversationId });
    // The collection that follows the delete ran (its log comes after the files are gone) and took only the sent one.
    await expect.poll(() => logs.filter((l) => l.startsWith('blobs: removed'))).toEqual(['blobs: removed 1 attachment(s) no message uses any more']);
    expect(existsSync(blobPath(t.dir, sent.id))).toBe(false);
    expect(existsSync(blobPath(t.dir, waiting.id))).toBe(true);
    const b = await h['chat:send']({ conversationId: null, text: 'And this one', model: 'llama3.2:3b', attachments: [waiting] });
    expect((await settle(t.services, b.conversationId))[0]?.blocks).toContainEqual(expect.objectContaining({ type: 'attachment', id: waiting.id }));
  });

  it('collects unreferenced blobs at startup, after the delay', async () => {
    const t = tempServices(replay);
    const orphan = await t.services.handlers['attachments:add']({ name: 'never-sent.png', mime: 'image/png', dataBase64: b64(PNG) });
    // Put two hours ago and never sent: past the grace period.
    t.services.db.prepare('UPDATE blobs SET created_at = ?').run(Date.now() - 2 * 3600_000);
    t.services.close();
    const again = createServices({ dataDir: t.dir, ollamaUrl: replay.url, log: () => {}, probeHost: GPU_12GB, startupGcDelayMs: 50 });
    cleanup = () => {
      again.close();
      t.cleanup();
    };
    expect(existsSync(blobPath(t.dir, orphan.id))).toBe(true);
    await expect.poll(() => existsSync(blobPath(t.dir, orphan.id))).toBe(false);
  });
});
