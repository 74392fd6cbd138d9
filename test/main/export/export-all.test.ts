/** Export all: every conversation in one file, each attachment's bytes once, read back whole or not at all. */
import { describe, expect, it } from 'vitest';
import { ConversationSettingsStore } from '../../../src/main/db/conversation-settings';
import { importConversation } from '../../../src/main/export/conversation-io';
import { exportAllFile, NOTHING_TO_EXPORT } from '../../../src/main/export/export-all';
import { UserFacingError } from '../../../src/main/errors';
import type { Turn } from '../../../src/shared/turn';
import { JPEG, PNG, PNG2 } from '../blobs/fixtures';
import { makeTurn, text, tick } from '../db/helpers';
import { exportApp } from './app';

const app = () => exportApp('firebrand-export-all-');

/**
 * Three conversations: "Charts" (a branch, and chart.png), "Photos" (chart.png again, photo.jpg, other.png and its
 * own settings), and "Plain" (text only), updated in that order, so "Plain" is listed first.
 */
async function seed(a: ReturnType<typeof app>) {
  const png = await a.blobs.put(PNG, { name: 'chart.png', mime: 'image/png' }, tick());
  const jpg = await a.blobs.put(JPEG, { name: 'photo.jpg', mime: 'image/jpeg' }, tick());
  const png2 = await a.blobs.put(PNG2, { name: 'other.png', mime: 'image/png' }, tick());
  a.store.createConversation('c1', 'Charts', 'llava', tick());
  a.store.appendTurn(makeTurn({ id: 'c1-u1', conversationId: 'c1', blocks: [...text('What is in the chart?'), png] }), tick());
  a.store.appendTurn(makeTurn({ id: 'c1-a1', conversationId: 'c1', parentId: 'c1-u1', role: 'assistant', blocks: text('A line.'), stop: 'end_turn' }), tick());
  a.store.regenerate('c1-a1', { id: 'c1-a2', createdAt: tick() }, tick());
  a.store.updateTurn({ ...a.store.getTurn('c1-a2')!, status: 'done', blocks: text('A rising line.') });
  a.store.createConversation('c2', 'Photos', 'llava', tick());
  a.store.appendTurn(makeTurn({ id: 'c2-u1', conversationId: 'c2', blocks: [...text('Compare these.'), png, jpg, png2] }), tick());
  a.store.appendTurn(makeTurn({ id: 'c2-a1', conversationId: 'c2', parentId: 'c2-u1', role: 'assistant', blocks: text('They differ.') }), tick());
  new ConversationSettingsStore(a.db).update('c2', { systemPrompt: 'Be brief.', think: 'off', tools: false });
  a.store.createConversation('c3', 'Plain', 'qwen', tick());
  a.store.appendTurn(makeTurn({ id: 'c3-u1', conversationId: 'c3', blocks: text('Hello') }), tick());
  return { png, jpg, png2 };
}

const byId = (turns: Turn[]) => [...turns].sort((x, y) => x.id.localeCompare(y.id));
const rows = (a: ReturnType<typeof app>) =>
  a.db.prepare('SELECT (SELECT count(*) FROM conversations) AS conversations, (SELECT count(*) FROM turns) AS turns, (SELECT count(*) FROM blobs) AS blobs').get();

describe('export all', () => {
  it('round-trips every conversation with its settings, and each attachment once however many use it', async () => {
    const dst = app();
    dst.store.createConversation('earlier', 'Earlier here', null, tick());
    const src = app();
    const { png, jpg, png2 } = await seed(src);
    const file = exportAllFile(src.deps, tick());
    expect(file.fileName).toMatch(/^Firebrand conversations \d{4}-\d{2}-\d{2}\.firebrand\.json$/);
    const parsed = JSON.parse(file.text) as { format: string; conversations: unknown[]; blobs: Record<string, { base64: string }> };
    expect(parsed.format).toBe('firebrand.conversations');
    expect(parsed.conversations).toHaveLength(3);
    expect(Object.keys(parsed.blobs).sort()).toEqual([png.id, jpg.id, png2.id].sort());
    // chart.png is in two conversations and its bytes are in the file once.
    expect(file.text.split(Buffer.from(PNG).toString('base64')).length - 1).toBe(1);

    dst.store.createConversation('later', 'Later here', null, tick());
    const result = await importConversation(dst.deps, file.text, tick() + 10);
    // The most recent of them opens, with one chat listed above it.
    expect(result).toMatchObject({ conversationId: 'c3', imported: 3, all: true, remapped: false, listedAbove: 1 });
    // Each where its own last message puts it among the chats here (a restored backup went above every chat
    // written here since), in the order they had.
    expect(dst.store.listConversations().map((c) => c.title)).toEqual(['Later here', 'Plain', 'Photos', 'Charts', 'Earlier here']);
    for (const id of ['c1', 'c2', 'c3']) {
      expect(byId(dst.store.listTurns(id))).toEqual(byId(src.store.listTurns(id)));
      expect(new ConversationSettingsStore(dst.db).get(id)).toEqual(new ConversationSettingsStore(src.db).get(id));
    }
    expect(new ConversationSettingsStore(dst.db).get('c2')).toEqual({ systemPrompt: 'Be brief.', think: 'off', tools: false });
    expect(dst.store.siblings('c1-a2')).toEqual({ ids: ['c1-a1', 'c1-a2'], index: 1 });
    for (const blob of [png, jpg, png2]) expect(Buffer.from(dst.blobs.read(blob.id)!).equals(Buffer.from(src.blobs.read(blob.id)!))).toBe(true);
    expect((await dst.blobs.gc({ now: tick() + 1, graceMs: 0 })).removed).toEqual([]);
  });

  it('imports into the same database as copies beside the originals', async () => {
    const a = app();
    await seed(a);
    const file = exportAllFile(a.deps, tick());
    const result = await importConversation(a.deps, file.text, tick() + 10);
    expect(result).toMatchObject({ imported: 3, all: true, remapped: true, copies: 3, listedAbove: 1 });
    const list = a.store.listConversations();
    // Each copy is dated by its own last message, as its original is: listed beside it.
    expect(list.map((c) => c.title)).toEqual(['Plain', 'Plain (imported copy)', 'Photos', 'Photos (imported copy)', 'Charts', 'Charts (imported copy)']);
    expect([1, 3, 5].every((i) => list[i]!.id.startsWith('new-'))).toBe(true);
    expect(a.store.listTurns(list[3]!.id).map((t) => t.blocks.filter((b) => b.type === 'text'))).toEqual(a.store.listTurns('c2').map((t) => t.blocks.filter((b) => b.type === 'text')));
  });

  it('refuses a file with one bad conversation and writes nothing, saying which', async () => {
    const src = app();
    await seed(src);
    const good = JSON.parse(exportAllFile(src.deps, tick()).text) as { conversations: { turns: Turn[] }[] };
    const broken = (i: number, turns: (t: Turn[]) => unknown[]) => JSON.stringify({ ...good, conversations: good.conversations.map((c, j) => (j === i ? { ...c, turns: turns(c.turns) } : c)) });
    const dst = app();
    dst.store.createConversation('mine', 'Mine', null, tick());
    const before = rows(dst);
    const bad: [string, RegExp][] = [
      [broken(1, (t) => [{ ...t[0], status: 'weird' }, ...t.slice(1)]), /conversation 2: message 1 has an unknown status/],
      [broken(2, (t) => [...t, { ...t[0], id: 'orphan', parentId: 'nowhere' }]), /conversation 3: some messages reply to messages that are not in the file/],
      [JSON.stringify({ ...good, conversations: [good.conversations[0], good.conversations[0]] }), /two conversations share an id/],
      [JSON.stringify({ ...good, blobs: {} }), /the bytes of attachment “chart.png” are missing/],
      [JSON.stringify({ ...good, conversations: [] }), /holds no conversations/],
      [JSON.stringify({ ...good, conversations: 'all' }), /no conversations list/],
    ];
    for (const [text, why] of bad) {
      await expect(importConversation(dst.deps, text, tick())).rejects.toThrow(why);
      await expect(importConversation(dst.deps, text, tick())).rejects.toThrow(/Nothing was imported\./);
    }
    // A row that fails inside the transaction, in the last conversation written, takes the others back with it.
    dst.db.exec(`CREATE TEMP TRIGGER fail_import BEFORE INSERT ON turns WHEN new.id = 'c1-a2' BEGIN SELECT RAISE(ABORT, 'disk full'); END;`);
    await expect(importConversation(dst.deps, JSON.stringify(good), tick())).rejects.toThrow('disk full');
    expect(rows(dst)).toEqual(before);
    expect(dst.store.listConversations().map((c) => c.id)).toEqual(['mine']);
  });

  it('refuses to export when there is nothing to export, or when the file would be too large to import', async () => {
    const a = app();
    expect(() => exportAllFile(a.deps, tick())).toThrow(NOTHING_TO_EXPORT);
    await seed(a);
    // A message naming a 120 MiB attachment: refused from the sizes, before a byte is read.
    const huge = { type: 'attachment' as const, id: 'f'.repeat(64), kind: 'image' as const, name: 'huge.png', mime: 'image/png', size: 120 * 1024 * 1024 };
    a.store.appendTurn(makeTurn({ id: 'c3-u2', conversationId: 'c3', parentId: 'c3-u1', blocks: [huge] }), tick());
    expect(() => exportAllFile(a.deps, tick())).toThrow(UserFacingError);
    expect(() => exportAllFile(a.deps, tick())).toThrow(/All conversations together would be about 1\d\d\.\d MiB.*at most 100\.0 MiB, so nothing was exported/);
  });
});
