/**
 * Issue 16: on `chat:send` main trusts nothing the renderer says about an attachment but its digest (and the
 * name, as text). The kind, media type and size in the stored turn are what main reads from the bytes it keeps.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IpcResult, SendResult } from '../../../src/shared/ipc';
import type { AttachmentBlock } from '../../../src/shared/turn';
import { createServices, type Services } from '../../../src/main/services';
import { PNG } from '../blobs/fixtures';

let dir: string;
let services: Services;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'firebrand-send-attach-'));
  // Nothing listens on port 9: the answer fails fast; only the stored user turn matters here.
  services = createServices({ dataDir: dir, ollamaUrl: 'http://127.0.0.1:9', log: () => {}, chat: { titles: false, retryDelayMs: 0 } });
});
afterEach(async () => {
  await expect.poll(() => services.chat.activeCount, { timeout: 10_000 }).toBe(0);
  services.close();
  rmSync(dir, { recursive: true, force: true });
});

async function add(name: string, mime: string, bytes: Uint8Array): Promise<AttachmentBlock> {
  const r = (await services.dispatcher.dispatch('attachments:add', { name, mime, dataBase64: Buffer.from(bytes).toString('base64') })) as IpcResult<AttachmentBlock>;
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}
const send = (attachments: AttachmentBlock[]) =>
  services.dispatcher.dispatch('chat:send', { conversationId: null, text: 'Look', model: 'm', attachments }) as Promise<IpcResult<SendResult>>;

describe('attachments on send', () => {
  it("stores main's own kind, media type and size, whatever the renderer claimed", async () => {
    const png = await add('cat.png', 'image/png', PNG);
    const text = await add('notes.txt', 'text/plain', Buffer.from('hello'));
    const sent = await send([
      { ...png, kind: 'text', mime: 'text/plain', size: 1, name: 'cat\u202Egnp.png' },
      { ...text, kind: 'image', mime: 'image/png', size: 999_999_999 },
    ]);
    if (!sent.ok) throw new Error(sent.error.message);
    const want = [
      { type: 'attachment', id: png.id, kind: 'image', mime: 'image/png', size: PNG.length, name: 'cat_gnp.png' },
      { type: 'attachment', id: text.id, kind: 'text', mime: 'text/plain', size: 5, name: 'notes.txt' },
    ];
    expect(sent.value.userTurn.blocks.filter((b) => b.type === 'attachment')).toEqual(want);
    const view = await services.handlers['conversations:open']({ conversationId: sent.value.conversationId });
    expect(view.turns[0]?.blocks.filter((b) => b.type === 'attachment')).toEqual(want);
  });

  it('refuses an attachment main does not hold, saying which, and writes nothing', async () => {
    const sent = await send([{ type: 'attachment', id: 'a'.repeat(64), kind: 'image', mime: 'image/png', size: 10, name: 'ghost.png' }]);
    expect(sent.ok).toBe(false);
    if (sent.ok) return;
    expect(sent.error.message).toMatch(/“ghost\.png” is no longer stored/);
    expect(await services.handlers['conversations:list']({})).toEqual([]);
  });
});
