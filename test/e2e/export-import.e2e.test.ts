/**
 * Export and import from the conversation list: a user saves a conversation (all branches and attachments) and
 * its Markdown, imports the file back as a second conversation, and is told clearly when a file is refused.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { BlobStore } from '../../src/main/blobs/blob-store';
import { ConversationSettingsStore } from '../../src/main/db/conversation-settings';
import { SHOTS_DIR } from './helpers/screenshots';
import { startSeededUi } from './helpers/seeded-ui';
import { ASSISTANT, chatRoutes, ollamaLines, send, startUi, stopUi, waitIdle, type UiSession } from './helpers/ui-session';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

describe('export and import', () => {
  it('exports a conversation as a file and as Markdown, and imports the file back', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ thinking: 'Plan the reply.' }, { content: 'Tea is best at **80 °C**.' }])));
    const { page } = s;
    await send(page, 'How hot should green tea be?');
    await waitIdle(page);
    const item = page.getByTestId('conversation-item');
    await expect.poll(() => item.count()).toBe(1);

    await item.hover();
    const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('conversation-export').click()]);
    expect(json.suggestedFilename()).toMatch(/\.firebrand\.json$/);
    // saveAs, not path(): the tests' Chromium is shared and connected to remotely, where path() is not available.
    const saved = mkdtempSync(join(tmpdir(), 'firebrand-e2e-export-'));
    onTestFinished(() => rmSync(saved, { recursive: true, force: true }));
    const jsonPath = join(saved, json.suggestedFilename());
    await json.saveAs(jsonPath);
    const file = JSON.parse(readFileSync(jsonPath, 'utf8')) as { format: string; version: number; turns: unknown[]; conversation: { title: string } };
    expect(file.format).toBe('firebrand.conversation');
    expect(file.turns.length).toBeGreaterThanOrEqual(2);
    // The export says it happened, under the chat's title and the file's name (nothing was said: a user could not
    // tell an export that worked from one that did nothing).
    // Its title as exported (a title made from the answer may come in between: each export names the one it holds).
    const title = file.conversation.title;
    const notice = page.getByTestId('notice').locator('.banner-text');
    await expect.poll(() => notice.textContent().catch(() => null)).toBe(`Exported “${title}” as “${json.suggestedFilename()}”.`);

    await item.hover();
    const [md] = await Promise.all([page.waitForEvent('download'), page.getByTestId('conversation-export-md').click()]);
    expect(md.suggestedFilename()).toMatch(/\.md$/);
    const mdPath = join(saved, md.suggestedFilename());
    await md.saveAs(mdPath);
    const markdown = readFileSync(mdPath, 'utf8');
    expect(markdown).toContain('How hot should green tea be?');
    expect(markdown).toContain('Tea is best at **80 °C**.');
    await expect.poll(() => notice.textContent().catch(() => null)).toBe(`Exported “${markdown.split('\n')[0]!.slice(2)}” (current branch, as Markdown) as “${md.suggestedFilename()}”.`);

    // What the list showed while the file was on its way in (export audit #4: nothing, for seconds on a large file,
    // and Import could be used again meanwhile, importing the same file twice).
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { importSeen: string[] }).importSeen = seen;
      new MutationObserver(() => {
        const status = document.querySelector('[data-testid="import-progress"]');
        const input = document.querySelector<HTMLInputElement>('[data-testid="conversation-import-input"]');
        if (status) seen.push(`${status.textContent} ${input?.disabled ? 'disabled' : 'enabled'}`);
      }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    // Importing the same file again makes a second conversation (ids remapped), opened with its answer, marked as a
    // copy and said to be one (it came in under the same title, with nothing said).
    await page.getByTestId('conversation-import-input').setInputFiles(jsonPath);
    await expect.poll(() => item.count()).toBe(2);
    // Dated by its own last message, as the chat it copies is: listed beside it, and open.
    await expect.poll(() => item.allTextContents().then((t) => t.sort())).toEqual([title, `${title} (imported copy)`]);
    await expect.poll(() => page.locator('[data-testid="conversation-item"][aria-current="true"]').textContent()).toBe(`${title} (imported copy)`);
    await expect.poll(() => notice.textContent().catch(() => null)).toBe(`This conversation was already here, so it came in as a copy: “${title} (imported copy)”.`);
    await expect.poll(() => page.locator(ASSISTANT).first().locator('[data-run="answer"]').textContent()).toContain('Tea is best at');
    await page.getByTestId('import-progress').waitFor({ state: 'detached' });
    const seen = await page.evaluate(() => (window as unknown as { importSeen: string[] }).importSeen);
    expect(seen).toContain(`Importing “${json.suggestedFilename()}”… disabled`);
    expect(await page.getByTestId('conversation-import-input').isDisabled()).toBe(false);
  });

  it('imports a conversation saved while a tool call waited for approval as one that can go on', async () => {
    const base = chatRoutes('').filter((r) => r.path !== '/api/chat');
    const show = { method: 'POST', path: '/api/show', body: JSON.stringify({ capabilities: ['completion', 'tools'] }) };
    const chat = (body: string) => ({ method: 'POST', path: '/api/chat', body, chunk: 'lines' as const, headers: { 'content-type': 'application/x-ndjson' } });
    const plan = [ollamaLines([{ content: 'Let me look.' }, { tool_calls: [{ function: { name: 'fetch_url', arguments: { url: 'https://example.com/' } } }] }])];
    s = await startUi([...base, show, chat(plan[0]!)]);
    const { page, replay } = s;
    replay.setOnRequest((req) => {
      if (req.path !== '/api/chat') return;
      const title = req.body.includes('Write a title');
      replay.setRoutes([...base, show, chat(title ? ollamaLines([{ content: 'Fetching' }]) : (plan.shift() ?? ollamaLines([{ content: 'Carried on.' }])))]);
    });
    await send(page, 'Fetch example.com');
    await page.getByTestId('tool-allow-once').waitFor();
    // Saved while the card waits (the export button is there all along), then denied here.
    const item = page.getByTestId('conversation-item');
    await item.hover();
    const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('conversation-export').click()]);
    const saved = mkdtempSync(join(tmpdir(), 'firebrand-e2e-export-'));
    onTestFinished(() => rmSync(saved, { recursive: true, force: true }));
    const jsonPath = join(saved, json.suggestedFilename());
    await json.saveAs(jsonPath);
    await page.getByTestId('tool-deny').click();
    await waitIdle(page);
    await expect.poll(() => page.getByTestId('tool-allow-once').count()).toBe(0);

    await page.getByTestId('conversation-import-input').setInputFiles(jsonPath);
    await expect.poll(() => item.count()).toBe(2);
    await expect.poll(() => page.locator('[data-card="tool-approval"]').count()).toBe(1);
    const card = page.locator('[data-card="tool-approval"]');
    // No run waits behind the imported card: no buttons that do nothing, no Stop, and the chat takes a message.
    expect(await card.getByTestId('tool-allow-once').count()).toBe(0);
    expect(await card.textContent()).not.toContain('Waiting for you');
    expect(await page.getByTestId('composer-stop').count()).toBe(0);
    expect(await page.locator('[data-card="tool-call"]').first().getAttribute('data-result')).toBe('not-run');
    await send(page, 'Go on without it');
    await expect.poll(() => page.locator(ASSISTANT).last().locator('[data-run="answer"]').textContent()).toContain('Carried on.');
  });

  // Export audit #1 and #2: a chat older than the list's first page (50 chats) was imported and opened, but the list
  // neither showed nor marked it; and in a narrow window the drawer stayed open over it, so nothing seemed to happen.
  it('lists an imported old chat by its last message, in sight and marked open far down the list, and at 390 px closes the drawer over it or over why it was refused', async () => {
    const seeded = await startSeededUi((store) => {
      for (let i = 0; i < 60; i++) {
        const id = `recent-${i}`;
        const at = 1_700_000_000_000 + i;
        const turn = { conversationId: id, meta: {}, status: 'done' as const, createdAt: at };
        store.restoreConversation({ id, title: `Recent chat ${i}`, model: 'llama3.2:3b', activeLeafId: `${id}-a`, createdAt: at, updatedAt: at }, [
          { ...turn, id: `${id}-u`, parentId: null, role: 'user', blocks: [{ type: 'text', text: `Question ${i}` }] },
          { ...turn, id: `${id}-a`, parentId: `${id}-u`, role: 'assistant', blocks: [{ type: 'text', text: `Answer ${i}` }] },
        ]);
      }
    });
    onTestFinished(() => seeded.close());
    const { page } = seeded;
    await page.setViewportSize({ width: 390, height: 800 });
    const turn = { conversationId: 'old', meta: {}, status: 'done' as const, createdAt: 1_400_000_000_000 };
    const file = {
      format: 'firebrand.conversation',
      version: 1,
      exportedAt: 1_400_000_000_000,
      conversation: { id: 'old', title: 'Old trip plan', model: 'llama3.2:3b', activeLeafId: 'oa', createdAt: turn.createdAt, updatedAt: turn.createdAt },
      turns: [
        { ...turn, id: 'ou', parentId: null, role: 'user', blocks: [{ type: 'text', text: 'Plan my trip' }] },
        { ...turn, id: 'oa', parentId: 'ou', role: 'assistant', blocks: [{ type: 'text', text: 'Go to Lisbon.' }] },
      ],
      blobs: {},
    };
    // A refused file: the drawer closes on the notice that says why, which is what the user reads, not a covered one.
    await page.getByTestId('sidebar-toggle').click();
    await page.locator('.app.drawer-open').waitFor();
    await page.getByTestId('conversation-import-input').setInputFiles({ name: 'trip.firebrand.json', mimeType: 'application/json', buffer: Buffer.from('{"format":') });
    await page.getByTestId('notice').waitFor();
    await page.locator('.app.drawer-open').waitFor({ state: 'detached' });
    const notice = await page.getByTestId('notice').boundingBox();
    expect(await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('[data-testid="notice"]') !== null, { x: notice!.x + notice!.width / 2, y: notice!.y + notice!.height / 2 })).toBe(true);
    await page.getByTestId('notice').getByTestId('banner-close').click();

    await page.getByTestId('sidebar-toggle').click();
    await page.locator('.app.drawer-open').waitFor();
    await page.getByTestId('conversation-import-input').setInputFiles({ name: 'trip.firebrand.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(file)) });
    await page.getByText('Go to Lisbon.').waitFor();
    await page.locator('.app.drawer-open').waitFor({ state: 'detached' });
    expect(await page.getByText('Go to Lisbon.').isVisible()).toBe(true);

    // Below the 60 chats written since (it was listed on top, as new, above all of them), past the list's first
    // page (50), read that far and scrolled to, so the open chat is in sight in the list and marked.
    await page.getByTestId('sidebar-toggle').click();
    await page.locator('.app.drawer-open').waitFor();
    const items = page.getByTestId('conversation-item');
    await expect.poll(() => items.count()).toBe(61);
    expect(await items.nth(0).textContent()).toBe('Recent chat 59');
    const open = items.nth(60);
    expect(await open.textContent()).toBe('Old trip plan');
    expect(await open.getAttribute('aria-current')).toBe('true');
    const inSight = () =>
      open.evaluate((row) => {
        const list = row.closest('[data-testid="conversation-list"]')!.getBoundingClientRect();
        const at = row.getBoundingClientRect();
        return at.top >= list.top - 1 && at.bottom <= list.bottom + 1;
      });
    await expect.poll(inSight).toBe(true);
    mkdirSync(SHOTS_DIR, { recursive: true });
    await page.waitForFunction(() => document.getAnimations().length === 0);
    await page.screenshot({ path: `${SHOTS_DIR}/import-old-chat-listed-by-date-390.png` });
    // At the desktop's width too, where the list is always there.
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect.poll(inSight).toBe(true);
    await page.screenshot({ path: `${SHOTS_DIR}/import-old-chat-listed-by-date-1280.png` });
  });

  it('refuses a file that is not a Firebrand export, saying so with Close only, and imports nothing', async () => {
    s = await startUi();
    const { page } = s;
    await page.getByTestId('conversation-import-input').setInputFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"hello":"world"}') });
    await expect.poll(() => page.getByTestId('notice').textContent()).toContain('cannot be imported');
    expect(await page.getByTestId('conversation-item').count()).toBe(0);
    // Close only: Retry imported the same file again, and it was refused again.
    expect(await page.getByTestId('notice').getByTestId('banner-retry').count()).toBe(0);

    // Closed, then the same failure again: it shows again (the audit's files #4: a closed notice's text was never
    // shown again, so a repeated failure was silent).
    const message = await page.getByTestId('notice').locator('.banner-text').textContent();
    await page.getByTestId('notice').getByTestId('banner-close').click();
    await page.getByTestId('notice').waitFor({ state: 'detached' });
    await page.getByTestId('conversation-import-input').setInputFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"hello":"again"}') });
    await expect.poll(() => page.getByTestId('notice').locator('.banner-text').textContent().catch(() => null)).toBe(message);
    // An empty file is named as empty (it said "Invalid request for conversations:import.").
    await page.getByTestId('conversation-import-input').setInputFiles({ name: 'empty.json', mimeType: 'application/json', buffer: Buffer.alloc(0) });
    await expect.poll(() => page.getByTestId('notice').textContent()).toContain('“empty.json” is empty; there is nothing to import.');
    expect(await page.getByTestId('conversation-item').count()).toBe(0);
    expect(await page.getByTestId('notice').getByTestId('banner-retry').count()).toBe(0);
  });

  // Issue (files #1): an export over 64 MiB could not be imported back (one socket frame of 64 MiB at most; the
  // app only said "Lost the connection… Reconnecting…"). It now travels in chunks, whatever its size up to the
  // one limit export and import share. And (#2) the chat's own settings ride along.
  it('exports a 72 MB conversation whole with its settings, and imports that export back', async () => {
    const settings = { systemPrompt: 'You are a pirate. Answer like one.', think: 'off' as const, tools: false };
    const digests: string[] = [];
    // Written before serve mode starts: three text attachments of 18 MB each (under the 20 MiB limit), 72 MB of base64.
    const seeded = await startSeededUi((store, db) => {
      const blobs = new BlobStore(db, dirname(db.name));
      const blocks = [0, 1, 2].map((i) => {
        const bytes = Buffer.alloc(18_000_000, `log line ${i}: all quiet\n`);
        const id = createHash('sha256').update(bytes).digest('hex');
        mkdirSync(dirname(blobs.pathOf(id)), { recursive: true });
        writeFileSync(blobs.pathOf(id), bytes);
        blobs.recordRow(id, bytes.byteLength, 'text/plain', 1);
        digests.push(id);
        return { type: 'attachment' as const, id, kind: 'text' as const, name: `night-${i}.log`, mime: 'text/plain', size: bytes.byteLength };
      });
      const turn = { conversationId: 'big', meta: {}, status: 'done' as const, createdAt: 2 };
      store.restoreConversation({ id: 'big', title: 'Three nights of logs', model: 'llama3.2:3b', activeLeafId: 'a1', createdAt: 1, updatedAt: 3 }, [
        { ...turn, id: 'u1', parentId: null, role: 'user', blocks: [{ type: 'text', text: 'Anything odd in these?' }, ...blocks] },
        { ...turn, id: 'a1', parentId: 'u1', role: 'assistant', blocks: [{ type: 'text', text: 'Arr, all quiet on every night.' }] },
      ]);
      new ConversationSettingsStore(db).update('big', settings);
    });
    onTestFinished(() => seeded.close());
    const { page } = seeded;
    const dir = mkdtempSync(join(tmpdir(), 'firebrand-e2e-big-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const item = page.getByTestId('conversation-item');
    await expect.poll(() => item.count()).toBe(1);

    await item.hover();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('conversation-export').click()]);
    const exportedPath = join(dir, download.suggestedFilename());
    await download.saveAs(exportedPath);
    expect(statSync(exportedPath).size).toBeGreaterThan(72_000_000);
    const exported = JSON.parse(readFileSync(exportedPath, 'utf8')) as { settings: unknown; blobs: Record<string, unknown> };
    expect(exported.settings).toEqual(settings);
    expect(Object.keys(exported.blobs).sort()).toEqual([...digests].sort());

    // The export goes back in as a second conversation: every byte arrived and was checked against its digest.
    await page.getByTestId('conversation-import-input').setInputFiles(exportedPath);
    // 72 MB read, checked and stored: alone it takes seconds; beside other jobs (load 16) it ran past a minute.
    await expect.poll(() => item.count(), { timeout: 180_000 }).toBe(2);
    await expect.poll(() => page.locator(ASSISTANT).first().textContent()).toContain('all quiet on every night');
    // No failure: the one thing said is that it came in as a copy of the chat beside it.
    await expect
      .poll(() => page.getByTestId('notice').locator('.banner-text').textContent().catch(() => null))
      .toBe('This conversation was already here, so it came in as a copy: “Three nights of logs (imported copy)”.');
  });

  // The Markdown export named attachments without them: a reader could not see what the model was given.
  it('exports as Markdown with a text attachment’s text under its name and an image named as not included', async () => {
    const notes = Buffer.from('The kettle is set to 80 °C.\nSteep for 2 minutes.\n');
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    const seeded = await startSeededUi((store, db) => {
      const blobs = new BlobStore(db, dirname(db.name));
      const block = (bytes: Buffer, name: string, mime: string, kind: 'text' | 'image') => {
        const id = createHash('sha256').update(bytes).digest('hex');
        mkdirSync(dirname(blobs.pathOf(id)), { recursive: true });
        writeFileSync(blobs.pathOf(id), bytes);
        blobs.recordRow(id, bytes.byteLength, mime, 1);
        return { type: 'attachment' as const, id, kind, name, mime, size: bytes.byteLength };
      };
      const turn = { conversationId: 'tea', meta: {}, status: 'done' as const, createdAt: 2 };
      store.restoreConversation({ id: 'tea', title: 'Tea notes', model: 'llama3.2:3b', activeLeafId: 'a1', createdAt: 1, updatedAt: 3 }, [
        { ...turn, id: 'u1', parentId: null, role: 'user', blocks: [{ type: 'text', text: 'Read these.' }, block(notes, 'notes.txt', 'text/plain', 'text'), block(png, 'dot.png', 'image/png', 'image')] },
        { ...turn, id: 'a1', parentId: 'u1', role: 'assistant', blocks: [{ type: 'text', text: 'Read them.' }] },
      ]);
    });
    onTestFinished(() => seeded.close());
    const { page } = seeded;
    const dir = mkdtempSync(join(tmpdir(), 'firebrand-e2e-md-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const item = page.getByTestId('conversation-item');
    await expect.poll(() => item.count()).toBe(1);
    await item.hover();
    const [md] = await Promise.all([page.waitForEvent('download'), page.getByTestId('conversation-export-md').click()]);
    const path = join(dir, md.suggestedFilename());
    await md.saveAs(path);
    const markdown = readFileSync(path, 'utf8');
    expect(markdown).toContain(`Attachment: \`notes.txt\` (text/plain, ${notes.byteLength} bytes):\n\n\`\`\`\nThe kettle is set to 80 °C.\nSteep for 2 minutes.\n\`\`\``);
    expect(markdown).toContain(`Image: \`dot.png\` (image/png, ${png.byteLength} bytes). The image itself is not included in this Markdown export.`);
  });

  // Export all (a backup, or a move to another machine): one file with every conversation, their settings and each
  // attachment's bytes once, read back whole into a fresh data folder, at a phone's 390 px.
  it('exports every conversation as one file and imports it into a fresh data folder, all listed, newest first', async () => {
    const notes = Buffer.from('shared notes: the kettle is at 80 °C\n');
    const other = Buffer.from('only in the second chat\n');
    const digests: string[] = [];
    const source = await startSeededUi((store, db) => {
      const blobs = new BlobStore(db, dirname(db.name));
      const block = (bytes: Buffer, name: string) => {
        const id = createHash('sha256').update(bytes).digest('hex');
        mkdirSync(dirname(blobs.pathOf(id)), { recursive: true });
        writeFileSync(blobs.pathOf(id), bytes);
        blobs.recordRow(id, bytes.byteLength, 'text/plain', 1);
        digests.push(id);
        return { type: 'attachment' as const, id, kind: 'text' as const, name, mime: 'text/plain', size: bytes.byteLength };
      };
      const shared = block(notes, 'notes.txt');
      const own = block(other, 'other.txt');
      const chats = [
        { id: 'tea', title: 'Green tea', attachments: [shared], updatedAt: 1_700_000_000_003 },
        { id: 'kettle', title: 'Kettle shopping', attachments: [shared, own], updatedAt: 1_700_000_000_002 },
        { id: 'plain', title: 'Plain talk', attachments: [], updatedAt: 1_700_000_000_001 },
      ];
      for (const chat of chats) {
        const turn = { conversationId: chat.id, meta: {}, status: 'done' as const, createdAt: chat.updatedAt };
        store.restoreConversation({ id: chat.id, title: chat.title, model: 'llama3.2:3b', activeLeafId: `${chat.id}-a`, createdAt: chat.updatedAt, updatedAt: chat.updatedAt }, [
          { ...turn, id: `${chat.id}-u`, parentId: null, role: 'user', blocks: [{ type: 'text', text: `About ${chat.title}` }, ...chat.attachments] },
          { ...turn, id: `${chat.id}-a`, parentId: `${chat.id}-u`, role: 'assistant', blocks: [{ type: 'text', text: `Answer on ${chat.title}` }] },
        ]);
      }
      new ConversationSettingsStore(db).update('kettle', { systemPrompt: 'Be brief.', think: 'off', tools: false });
    });
    onTestFinished(() => source.close());
    const dir = mkdtempSync(join(tmpdir(), 'firebrand-e2e-all-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const { page } = source;
    await page.setViewportSize({ width: 390, height: 800 });
    await page.getByTestId('sidebar-toggle').click();
    await page.locator('.app.drawer-open').waitFor();
    const exportAll = page.getByTestId('conversations-export-all');
    await expect.poll(() => page.getByTestId('conversation-item').count()).toBe(3);
    // Its whole name shows in the drawer, beside Import.
    expect(await exportAll.evaluate((b) => b.scrollWidth <= b.clientWidth && b.textContent)).toBe('Export all');
    const [download] = await Promise.all([page.waitForEvent('download'), exportAll.click()]);
    expect(download.suggestedFilename()).toMatch(/^Firebrand conversations .*\.firebrand\.json$/);
    await expect.poll(() => page.getByTestId('notice').locator('.banner-text').textContent().catch(() => null)).toBe(`Exported every conversation as “${download.suggestedFilename()}”.`);
    const path = join(dir, download.suggestedFilename());
    await download.saveAs(path);
    const file = JSON.parse(readFileSync(path, 'utf8')) as { format: string; conversations: { conversation: { title: string } }[]; blobs: Record<string, unknown> };
    expect(file.format).toBe('firebrand.conversations');
    expect(file.conversations.map((c) => c.conversation.title)).toEqual(['Green tea', 'Kettle shopping', 'Plain talk']);
    // notes.txt is in two chats and in the file once.
    expect(Object.keys(file.blobs).sort()).toEqual([...new Set(digests)].sort());

    const fresh = await startSeededUi(() => {});
    onTestFinished(() => fresh.close());
    const other2 = fresh.page;
    await other2.setViewportSize({ width: 390, height: 800 });
    await other2.getByTestId('sidebar-toggle').click();
    await other2.locator('.app.drawer-open').waitFor();
    // Nothing to export yet, and it says so.
    expect(await other2.getByTestId('conversations-export-all').isDisabled()).toBe(true);
    expect(await other2.getByTestId('conversations-export-all').getAttribute('title')).toBe('There are no conversations to export yet.');
    await other2.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { importSeen: string[] }).importSeen = seen;
      new MutationObserver(() => {
        const status = document.querySelector('[data-testid="import-progress"]');
        if (status?.textContent) seen.push(status.textContent);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await other2.getByTestId('conversation-import-input').setInputFiles(path);
    await expect.poll(() => other2.getByTestId('notice').locator('.banner-text').textContent().catch(() => null)).toBe('Imported 3 conversations.');
    // The newest opened, the drawer closed on it.
    await other2.getByText('Answer on Green tea').waitFor();
    expect(await other2.evaluate(() => (window as unknown as { importSeen: string[] }).importSeen)).toContain(`Importing “${download.suggestedFilename()}”…`);
    await other2.getByTestId('sidebar-toggle').click();
    await other2.locator('.app.drawer-open').waitFor();
    await expect.poll(() => other2.getByTestId('conversation-item').allTextContents()).toEqual(['Green tea', 'Kettle shopping', 'Plain talk']);
    expect(await other2.getByTestId('conversations-export-all').isDisabled()).toBe(false);
    // The chat with both attachments came with them.
    await other2.getByTestId('conversation-item').nth(1).click();
    await other2.getByText('Answer on Kettle shopping').waitFor();
    await expect.poll(() => other2.getByText('other.txt').count()).toBeGreaterThan(0);
  });
});
