import { describe, expect, it } from 'vitest';
import { exportConversation, importConversation, serializeConversationFile } from '../../../src/main/export/conversation-io';
import { ConversationSettingsStore } from '../../../src/main/db/conversation-settings';
import { EXPORT_VERSION, IMPORTED_TITLE } from '../../../src/main/export/file-format';
import { UserFacingError } from '../../../src/main/errors';
import type { Turn } from '../../../src/shared/turn';
import { JPEG, PNG } from '../blobs/fixtures';
import { makeTurn, text, tick } from '../db/helpers';
import { exportApp } from './app';

const app = () => exportApp('firebrand-export-');

/** A branched conversation with two images: u1 -> (a1 | a2 regenerated) ; a2 -> u2 (with image) -> a3. */
async function seed(a: ReturnType<typeof app>) {
  const png = await a.blobs.put(PNG, { name: 'chart.png', mime: 'image/png' }, tick());
  const jpg = await a.blobs.put(JPEG, { name: 'photo.jpg', mime: 'image/jpeg' }, tick());
  a.store.createConversation('c', 'Branched', 'llava', tick());
  a.store.appendTurn(makeTurn({ id: 'u1', conversationId: 'c', blocks: [...text('What is in the chart?'), png] }), tick());
  a.store.appendTurn(makeTurn({ id: 'a1', conversationId: 'c', parentId: 'u1', role: 'assistant', model: 'llava', blocks: text('A line.'), stop: 'end_turn', wireReason: 'stop', usage: { inputTokens: 3 } }), tick());
  a.store.regenerate('a1', { id: 'a2', createdAt: tick() }, tick());
  a.store.updateTurn({ ...a.store.getTurn('a2')!, status: 'done', blocks: [{ type: 'reasoning', text: 'Looking closely…', origin: 'inline' }, ...text('A rising line.')] });
  a.store.appendTurn(makeTurn({ id: 'u2', conversationId: 'c', parentId: 'a2', blocks: [...text('And this?'), jpg] }), tick());
  a.store.appendTurn(makeTurn({ id: 's1', conversationId: 'c', parentId: 'u2', role: 'system', source: 'model-switched', meta: { from: 'llava', to: 'qwen' }, blocks: text('Switched to qwen.') }), tick());
  a.store.appendTurn(makeTurn({ id: 'a3', conversationId: 'c', parentId: 's1', role: 'assistant', model: 'qwen', blocks: [{ type: 'reasoning', text: 'only thinking', origin: 'native' }, ...text('   ')] }), tick());
  return { png, jpg };
}

const byId = (turns: Turn[]) => [...turns].sort((x, y) => x.id.localeCompare(y.id));

describe('export and import', () => {
  it('round-trips a branched conversation with images byte for byte (same ids, same digests)', async () => {
    const src = app();
    const { png, jpg } = await seed(src);
    const json = serializeConversationFile(exportConversation(src, 'c', tick()));

    const dst = app();
    const importedAt = tick();
    const result = await importConversation(dst.deps, json, importedAt);
    expect(result).toEqual({ conversationId: 'c', title: 'Branched', remapped: false, copies: 0, imported: 1, all: false, listedAbove: 0 });
    // Dated by its own last message, not by the moment it came in.
    const lastMessage = Math.max(...src.store.listTurns('c').map((t) => t.createdAt));
    expect(lastMessage).toBeLessThan(importedAt);
    expect(dst.store.getConversationRecord('c')).toEqual({ ...src.store.getConversationRecord('c'), updatedAt: lastMessage });
    expect(byId(dst.store.listTurns('c'))).toEqual(byId(src.store.listTurns('c')));
    for (const blob of [png, jpg]) {
      expect(Buffer.from(dst.blobs.read(blob.id)!).equals(Buffer.from(src.blobs.read(blob.id)!))).toBe(true);
      expect(dst.blobs.mimeOf(blob.id)).toBe(blob.mime);
    }
    expect(dst.store.siblings('a2')).toEqual({ ids: ['a1', 'a2'], index: 1 });
    // Imported attachments are referenced, so GC keeps them.
    expect((await dst.blobs.gc({ now: tick() + 1, graceMs: 0 })).removed).toEqual([]);
  });

  it('remaps every id consistently when the conversation already exists', async () => {
    const a = app();
    await seed(a);
    const json = serializeConversationFile(exportConversation(a, 'c', tick()));
    const { conversationId, remapped } = await importConversation(a.deps, json, tick());
    expect(remapped).toBe(true);
    const copy = a.store.getConversationRecord(conversationId)!;
    const branch = a.store.branch(copy.activeLeafId!);
    expect(branch.map((t) => t.blocks)).toEqual(a.store.branch('a3').map((t) => t.blocks));
    expect(branch.every((t) => t.conversationId === conversationId && !['u1', 'a2', 'u2', 's1', 'a3'].includes(t.id))).toBe(true);
    expect(a.store.listTurns(conversationId)).toHaveLength(6);
  });

  // Importing the same export a second time made a copy listed under the same title, with nothing to tell them apart.
  it('marks a conversation imported again as a copy, numbered past the copies already here', async () => {
    const a = app();
    await seed(a);
    const json = serializeConversationFile(exportConversation(a, 'c', tick()));
    const first = await importConversation(a.deps, json, tick());
    expect(first).toMatchObject({ title: 'Branched (imported copy)', copies: 1, imported: 1 });
    expect(a.store.getConversationRecord(first.conversationId)?.title).toBe('Branched (imported copy)');
    const second = await importConversation(a.deps, json, tick());
    expect(second).toMatchObject({ title: 'Branched (imported copy 2)', copies: 1 });
    expect(a.store.getConversationRecord('c')?.title).toBe('Branched');
    // Into another data folder it is no copy: its title stays.
    const dst = app();
    expect(await importConversation(dst.deps, json, tick())).toMatchObject({ title: 'Branched', copies: 0 });
  });

  // An imported chat was listed, and dated, as updated the moment it came in: an old chat said it was the newest,
  // above every chat written here since. It goes where its own last message puts it, and the import says how far
  // down the list that is, so the page reads the list that far and shows it there (export audit #1: it opened, and
  // the list neither showed nor marked it).
  it('lists an imported old conversation by its own last message, and says how many are listed above it', async () => {
    const dst = app();
    dst.store.createConversation('older', 'Older here', null, tick());
    const src = app();
    await seed(src);
    const json = serializeConversationFile(exportConversation(src, 'c', tick()));
    for (let i = 0; i < 60; i++) dst.store.createConversation(`newer-${i}`, `Newer ${i}`, null, tick());
    const { conversationId, listedAbove } = await importConversation(dst.deps, json, tick());
    expect(listedAbove).toBe(60);
    const list = dst.store.listConversations({ limit: 100 });
    expect(list.slice(59).map((c) => c.title)).toEqual(['Newer 0', 'Branched', 'Older here']);
    expect(list[listedAbove]?.id).toBe(conversationId);
    // When it began, and when each message was written, are its own.
    expect(dst.store.getConversationRecord(conversationId)?.createdAt).toBe(src.store.getConversationRecord('c')?.createdAt);
    expect(byId(dst.store.listTurns(conversationId)).map((t) => t.createdAt)).toEqual(byId(src.store.listTurns('c')).map((t) => t.createdAt));
  });

  it('dates a file whose messages are dated ahead of this clock no later than now', async () => {
    const src = app();
    await seed(src);
    const file = exportConversation(src, 'c', tick());
    const importedAt = tick();
    const ahead = { ...file, turns: file.turns.map((t) => ({ ...t, createdAt: importedAt + 86_400_000 })) };
    const dst = app();
    await importConversation(dst.deps, serializeConversationFile(ahead), importedAt);
    expect(dst.store.getConversationRecord('c')?.updatedAt).toBe(importedAt);
  });

  // Export audit #3: an export saved again by an editor that writes a byte-order mark was "not valid JSON".
  it('imports an export that an editor saved again with a byte-order mark', async () => {
    const src = app();
    await seed(src);
    const json = serializeConversationFile(exportConversation(src, 'c', tick()));
    const dst = app();
    const { conversationId } = await importConversation(dst.deps, `\uFEFF${json}`, tick());
    expect(byId(dst.store.listTurns(conversationId))).toEqual(byId(src.store.listTurns('c')));
  });

  it('refuses a file from a newer Firebrand clearly', async () => {
    const a = app();
    await seed(a);
    const file = { ...exportConversation(a, 'c', tick()), version: EXPORT_VERSION + 1 };
    const b = app();
    // Saying, as every other refusal does, that nothing came in (documents and import pass: it alone did not).
    await expect(importConversation(b.deps, JSON.stringify(file), tick())).rejects.toThrow(
      `This file was exported by a newer version of Firebrand (format ${EXPORT_VERSION + 1}; this app reads up to ${EXPORT_VERSION}). Update Firebrand to import it. Nothing was imported.`,
    );
    expect(b.store.listConversations()).toEqual([]);
  });

  // Documents and import pass: ChatGPT's conversations.json and Open WebUI's export were refused as "not a Firebrand
  // conversation export", which did not say whether the file was damaged or would never be read.
  it('says a chat export from another app is one, and that Import reads only Firebrand’s own files', async () => {
    const b = app();
    const files: [string, unknown][] = [
      ['ChatGPT', [{ title: 'Tea', create_time: 1712345678.9, mapping: { root: { id: 'root', children: [] } }, current_node: 'root' }]],
      ['Claude', [{ uuid: 'u1', name: 'Tea', chat_messages: [{ sender: 'human', text: 'hi' }] }]],
      ['Open WebUI', [{ id: 'x', title: 'Tea', chat: { messages: [{ role: 'user', content: 'hi' }] } }]],
      ['another chat app', { name: 'Tea', messages: [{ role: 'user', content: 'hi' }] }],
    ];
    for (const [app, data] of files) {
      await expect(importConversation(b.deps, JSON.stringify(data), tick())).rejects.toThrow(
        `This file cannot be imported: it is a chat export from ${app}; Firebrand imports only its own .firebrand.json files, which Export and Export all save. Nothing was imported.`,
      );
    }
    // JSON of no chat's shape is still just not an export.
    await expect(importConversation(b.deps, '{"hello":"world"}', tick())).rejects.toThrow(
      'This file cannot be imported: it is not a conversation export; Firebrand imports the .firebrand.json files that Export and Export all save. Nothing was imported.',
    );
    expect(b.store.listConversations()).toEqual([]);
  });

  // Import words pass: a refusal said "This file cannot be imported…" without naming the file, and a picture picked
  // by mistake was "not valid JSON", jargon that did not say what Import reads.
  it('names the file in its refusal, and says a picture is not a conversation export and a JSON file cut short looks damaged', async () => {
    const a = app();
    await seed(a);
    const json = serializeConversationFile(exportConversation(a, 'c', tick()));
    const b = app();
    const refusal = (text: string, name: string) => importConversation(b.deps, text, tick(), name).catch((e: unknown) => (e instanceof Error ? e.message : String(e)));
    expect(await refusal('\u0089PNG\r\n\u001a\n\u0000\u0000\u0000\rIHDR', 'photo.png')).toBe(
      '“photo.png” cannot be imported: it is not a conversation export; Firebrand imports the .firebrand.json files that Export and Export all save. Nothing was imported.',
    );
    expect(await refusal('{"settings":{"theme":"dark","models":["llama3.2:3b"', 'settings.json')).toBe(
      '“settings.json” cannot be imported: it looks cut short or damaged (a download or copy that did not finish?), so it cannot be read. Nothing was imported.',
    );
    expect(await refusal('[{"role":"user","content":"hi"}, {"ro', 'chat.json')).toMatch(/^“chat\.json” cannot be imported: it looks cut short or damaged/);
    // Not cut short: broken in the middle is simply not an export.
    expect(await refusal('{"a" 1, "b": 2}', 'odd.json')).toMatch(/^“odd\.json” cannot be imported: it is not a conversation export;/);
    expect(await refusal(json.slice(0, -10), 'tea.firebrand.json')).toMatch(/^“tea\.firebrand\.json” cannot be imported: it starts as a Firebrand export but is cut short/);
    expect(await refusal(JSON.stringify({ ...JSON.parse(json), version: EXPORT_VERSION + 1 }), 'new.firebrand.json')).toMatch(
      /^“new\.firebrand\.json” was exported by a newer version of Firebrand .* Nothing was imported\.$/,
    );
    expect(await refusal(JSON.stringify([{ title: 'Tea', mapping: {}, create_time: 1 }]), 'conversations.json')).toMatch(/^“conversations\.json” cannot be imported: it is a chat export from ChatGPT;/);
    // An attachment refused as an upload would be: it said only "“chart.png” cannot be attached: …", in an import.
    const relabelled = JSON.parse(json) as { blobs: Record<string, { mime: string }> };
    for (const blob of Object.values(relabelled.blobs)) blob.mime = 'application/pdf';
    expect(await refusal(JSON.stringify(relabelled), 'tea.firebrand.json')).toMatch(
      /^“tea\.firebrand\.json” cannot be imported: one of its attachments is refused\. “[\w.]+” cannot be attached: .*\. Nothing was imported\.$/,
    );
    expect(b.store.listConversations()).toEqual([]);
  });

  it('refuses invalid files and writes nothing', async () => {
    const a = app();
    await seed(a);
    const good = exportConversation(a, 'c', tick());
    const [first, ...rest] = good.turns;
    const bad: string[] = [
      'not json',
      JSON.stringify({ format: 'something-else' }),
      JSON.stringify({ ...good, turns: [...good.turns, { ...first, id: 'orphan', parentId: 'nowhere' }] }),
      JSON.stringify({ ...good, turns: [{ ...first, status: 'weird' }, ...rest] }),
      JSON.stringify({ ...good, blobs: Object.fromEntries(Object.entries(good.blobs).map(([d, b]) => [d, { ...b, base64: Buffer.from('tampered').toString('base64') }])) }),
      JSON.stringify({ ...good, blobs: {} }),
      JSON.stringify({ ...good, turns: [...good.turns, first] }),
    ];
    const b = app();
    for (const text of bad) {
      await expect(importConversation(b.deps, text, tick())).rejects.toThrow(UserFacingError);
    }
    // A row that fails inside the transaction (here: the disk fills at the last turn) rolls everything back.
    const before = b.db.prepare('SELECT (SELECT count(*) FROM conversations) + (SELECT count(*) FROM turns) + (SELECT count(*) FROM blobs) AS n').get();
    b.db.exec('CREATE TEMP TRIGGER fail_import BEFORE INSERT ON turns WHEN new.id = \'a3\' BEGIN SELECT RAISE(ABORT, \'disk full\'); END;');
    await expect(importConversation(b.deps, JSON.stringify(good), tick())).rejects.toThrow('disk full');
    expect(b.db.prepare('SELECT (SELECT count(*) FROM conversations) + (SELECT count(*) FROM turns) + (SELECT count(*) FROM blobs) AS n').get()).toEqual(before);
  });

  it('carries the conversation’s own settings (system prompt, think mode, tools) and restores them, remapped or not', async () => {
    const src = app();
    await seed(src);
    const own = { systemPrompt: 'You are a pirate. Answer like one.', think: 'off' as const, tools: false };
    new ConversationSettingsStore(src.db).update('c', own);
    const file = exportConversation(src, 'c', tick());
    expect(file.settings).toEqual(own);
    const json = serializeConversationFile(file);

    const dst = app();
    await importConversation(dst.deps, json, tick());
    expect(new ConversationSettingsStore(dst.db).get('c')).toEqual(own);
    // Imported again into the same database: the copy gets them too, and the first keeps its own.
    const { conversationId } = await importConversation(dst.deps, json, tick());
    expect(new ConversationSettingsStore(dst.db).get(conversationId)).toEqual(own);
  });

  it('imports a file written before settings were exported with the defaults, and refuses malformed settings', async () => {
    const src = app();
    await seed(src);
    const { settings: _settings, ...older } = exportConversation(src, 'c', tick());
    const dst = app();
    await importConversation(dst.deps, JSON.stringify(older), tick());
    expect(new ConversationSettingsStore(dst.db).get('c')).toEqual({ systemPrompt: '', think: null, tools: true });

    const b = app();
    for (const settings of [{ systemPrompt: 1, think: null, tools: true }, { systemPrompt: '', think: 'maybe', tools: true }, { systemPrompt: '', think: null }, 'pirate']) {
      await expect(importConversation(b.deps, JSON.stringify({ ...older, settings }), tick())).rejects.toThrow(/chat settings .* are malformed/);
    }
    expect(b.store.listConversations()).toEqual([]);
  });

  it('settles an approval card that waited when the file was saved: stopped, its call answered as not run, remapped or not', async () => {
    const src = app();
    src.store.createConversation('c', 'Fetch', 'qwen', tick());
    src.store.appendTurn(makeTurn({ id: 'u1', conversationId: 'c', blocks: text('Fetch example.com') }), tick());
    const call = { type: 'tool_call' as const, id: 'call_0', name: 'fetch_url', state: 'complete' as const, argumentsRaw: '{"url":"https://example.com/"}', arguments: { url: 'https://example.com/' } };
    src.store.appendTurn(makeTurn({ id: 'a1', conversationId: 'c', parentId: 'u1', role: 'assistant', status: 'done', stop: 'tool_use', blocks: [...text('Let me look.'), call] }), tick());
    const meta = { toolCallId: 'call_0', turnId: 'a1', tool: 'fetch_url', call: 'https://example.com/', state: 'pending' };
    src.store.appendTurn(makeTurn({ id: 'card', conversationId: 'c', parentId: 'a1', role: 'system', source: 'tool-approval', meta, blocks: text('fetch_url wants to run: https://example.com/') }), tick());
    const json = serializeConversationFile(exportConversation(src, 'c', tick()));
    for (const dst of [app(), src]) {
      const { conversationId } = await importConversation(dst.deps, json, tick());
      const turns = dst.store.branch(dst.store.getConversationRecord(conversationId)!.activeLeafId!);
      const card = turns.find((t) => t.source === 'tool-approval')!;
      expect(card.meta).toMatchObject({ state: 'stopped' });
      expect(card.blocks).toEqual(text('Stopped before fetch_url ran: https://example.com/'));
      // Answered under the card, and the branch goes on from there (the next message follows the answer).
      expect(turns.at(-1)).toMatchObject({ role: 'tool', parentId: card.id, blocks: [{ type: 'tool_result', toolCallId: 'call_0', notRun: true, content: 'Not run: this conversation was saved while the call waited for approval.' }] });
    }
    // The original's card still waits for its run.
    expect(src.store.getTurn('card')?.meta).toMatchObject({ state: 'pending' });
    // A crafted file's "card" of another role (the page treats any pending one as a run that waits) is settled too.
    const file = JSON.parse(json) as { turns: Turn[] };
    const crafted = JSON.stringify({ ...file, turns: file.turns.map((t) => (t.id === 'card' ? { ...t, role: 'user' } : t)) });
    const dst = app();
    const { conversationId } = await importConversation(dst.deps, crafted, tick());
    expect(dst.store.listTurns(conversationId).filter((t) => t.source === 'tool-approval' && t.meta['state'] === 'pending')).toEqual([]);
  });

  it('lists a conversation imported with a blank title under a title, not as an empty row', async () => {
    const src = app();
    await seed(src);
    const file = exportConversation(src, 'c', tick());
    for (const title of ['', '   \n ']) {
      const dst = app();
      const { conversationId } = await importConversation(dst.deps, JSON.stringify({ ...file, conversation: { ...file.conversation, title } }), tick());
      expect(dst.store.getConversationRecord(conversationId)?.title).toBe(IMPORTED_TITLE);
    }
  });
});
