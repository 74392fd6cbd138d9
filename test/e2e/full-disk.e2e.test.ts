/**
 * A full disk end to end (round 9): serve mode with its data folder on a real 40 MB tmpfs, filled to 0 bytes free
 * by a filler file, driven from Chromium as a user would, against the stand-in Ollama. Rounds 6-8 fixed each piece
 * (the reserve, deleting on a full disk, the read-only start) with simulated full disks in unit tests; this checks
 * that together, on a disk whose write() really says ENOSPC, the user (a) sees a send fail plainly with their text
 * kept, (b) can delete a chat and then chat again, (d) sees an answer the disk filled under end saying so, shown
 * ended after a reload and saved once there is room, (c) after a restart with no room and no reserve left, still
 * reads and searches their chats, with a banner saying why they are read-only, and a send or delete is refused
 * without losing anything. Round 10: (e) a file attached on the full disk is named in the message and attached
 * again by Retry; (f) a folder left untidy (its -wal and -shm files) opens read-only on the full disk, as in (c).
 * Round 11: (g) a model download that would take the room kept free for the chats is refused, saying why; a rename
 * refused keeps its field open with what was typed; several files refused at once are each named; Retry repeats the
 * latest failure, not the one before it.
 *
 * Mounting a tmpfs needs root: where it cannot be done this prints why and does not run (test/support/small-disk.ts).
 */
import BetterSqlite3 from 'better-sqlite3';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReplayServer, type ReplayServer } from '../replay-server/replay-server';
import { generateScriptedModel } from '../support/scripted-gguf/generate';
import { SCRIPTS } from '../support/scripted-gguf/scripts';
import { mountSmallDisk, smallDiskUnavailable, type SmallDisk } from '../support/small-disk';
import { launchChromium, openPage } from './helpers/browser';
import { shootAtBothWidths, SHOTS_DIR } from './helpers/screenshots';
import { startServeProcess, type ServeProcess } from './helpers/serve-process';
import { ASSISTANT, chatRoutes, modelOption, ollamaLines, send, USER, waitIdle } from './helpers/ui-session';

const RESERVE = 'firebrand.db-reserve';
const unavailable = smallDiskUnavailable();
if (unavailable) console.log(`Full-disk end-to-end tests not run: ${unavailable}.`);

/** Each chat's title (the title lane's request carries its first message), so the list tells them apart. */
const TITLES = [
  ['Wombats', 'Wombat burrows'],
  ['Quokkas', 'Quokka smiles'],
].map(([word, title]) => ({
  ...chatRoutes(ollamaLines([{ content: title! }]), 1)[2]!,
  when: (body: string) => body.includes('Write a title') && body.includes(word!),
}));

let disk: SmallDisk | undefined;
let browser: Browser | undefined;
let replay: ReplayServer | undefined;
let serve: ServeProcess | undefined;
let page: Page | undefined;
let dataDir = '';

async function startServe(): Promise<Page> {
  serve = await startServeProcess({ dataDir, ollamaUrl: replay!.url });
  await page?.close().catch(() => undefined);
  page = await openPage(browser!, { viewport: { width: 1280, height: 800 } });
  await page.goto(serve.url);
  await modelOption(page, 'llama3.2:3b').waitFor({ state: 'attached' });
  return page;
}

/** The status the database holds for the answer to `question` (read from a copy: serve mode has it open). */
function savedStatus(question: string): string | undefined {
  const db = new BetterSqlite3(join(dataDir, 'firebrand.db'), { readonly: true });
  try {
    const row = db
      .prepare("SELECT a.status FROM turns a JOIN turns q ON a.parent_id = q.id WHERE q.text LIKE ? AND a.role = 'assistant'")
      .get(`%${question}%`) as { status: string } | undefined;
    return row?.status;
  } finally {
    db.close();
  }
}

/** The chat list's titles, once it shows `n` chats. */
async function chatTitles(p: Page, n: number): Promise<string[]> {
  await expect.poll(() => p.getByTestId('conversation-item').count()).toBe(n);
  return p.getByTestId('conversation-item').allTextContents();
}

describe.runIf(unavailable === undefined)('a full disk, end to end', () => {
  beforeAll(async () => {
    disk = mountSmallDisk(40);
    dataDir = join(disk.dir, 'data');
    mkdirSync(dataDir);
    browser = await launchChromium();
    replay = await startReplayServer([...TITLES, ...chatRoutes(ollamaLines([{ content: 'Noted.' }]), 1)]);
    const p = await startServe();
    // Two chats, written while there is room.
    await send(p, 'Wombats dig burrows');
    await waitIdle(p);
    await p.getByTestId('new-chat').click();
    await send(p, 'Quokkas smile');
    await waitIdle(p);
  });

  afterAll(async () => {
    await page?.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await serve?.stop().catch(() => undefined);
    await replay?.close().catch(() => undefined);
    disk?.unmount();
  });

  it('a send fails with a message that says the disk is full, and the typed text stays in the composer', async () => {
    const p = page!;
    // The reserve is written 10 s after the start (disk-reserve.ts): the delete below needs it.
    await expect.poll(() => (existsSync(join(dataDir, RESERVE)) ? statSync(join(dataDir, RESERVE)).size : 0)).toBeGreaterThan(0);
    disk!.fill();
    expect(disk!.free()).toBe(0);
    const before = await p.locator(USER).count();
    await p.getByTestId('composer-input').fill('Echidnas lay eggs');
    await p.getByTestId('composer-send').click();
    await expect.poll(() => p.getByTestId('notice').locator('.banner-text').textContent().catch(() => '')).toContain('disk is full');
    expect(await p.getByTestId('composer-input').inputValue()).toBe('Echidnas lay eggs');
    expect(await p.locator(USER).count()).toBe(before);
  });

  it('deleting a chat works on the full disk, and the next message is saved', async () => {
    const p = page!;
    await p.getByTestId('notice').getByTestId('banner-close').click();
    expect(await chatTitles(p, 2)).toEqual(['Quokka smiles', 'Wombat burrows']);
    const wombats = p.locator('.conversation-row').filter({ hasText: 'Wombat burrows' });
    await wombats.hover();
    await wombats.getByTestId('conversation-delete').click();
    // Committed once its undo window (5 s) is over, through the reserve.
    await expect.poll(() => p.evaluate(() => window.firebrand.conversations.list({}).then((list) => list.map((c) => c.title)))).toEqual(['Quokka smiles']);

    // The text is still in the composer: sent again, now it saves, and the answer with it.
    await p.getByTestId('conversation-item').first().click();
    await expect.poll(() => p.locator(USER).count()).toBe(1);
    await expect.poll(() => p.getByTestId('composer-send').isDisabled()).toBe(false);
    await p.getByTestId('composer-send').click();
    await p.waitForFunction(() => (document.querySelector('[data-testid="composer-input"]') as HTMLTextAreaElement).value === '');
    await waitIdle(p);
    await p.reload();
    await p.getByTestId('conversation-item').first().click();
    await expect.poll(() => p.locator(USER).allTextContents()).toEqual(['Quokkas smile', 'Echidnas lay eggs']);
  });

  it('the disk filling while an answer streams: the answer ends saying so, a reload shows it ended with all that arrived, and it is saved once there is room', async () => {
    const p = page!;
    const answer = ollamaLines([{ content: 'Bilbies are small. ' }, { content: 'They dig. '.repeat(400) }, { content: 'The end.' }]);
    replay!.setRoutes([...TITLES, ...chatRoutes(answer, 1, 1)]);
    await send(p, 'Tell me about bilbies');
    await expect.poll(() => replay!.held).toBe(1);
    disk!.fill();
    replay!.release();
    const last = p.locator(ASSISTANT).last();
    await expect.poll(() => last.getAttribute('data-status')).toBe('error');
    expect(await last.textContent()).toContain('Disk full: what arrived so far is kept');
    const arrived = await last.locator('[data-run="answer"]').textContent();
    expect(arrived).toContain('The end.');

    // Reloaded while its end is not saved yet: it shows ended, with what arrived, and nothing says it still streams.
    await p.reload();
    await p.getByTestId('conversation-item').first().click();
    await expect.poll(() => last.getAttribute('data-status')).toBe('error');
    expect(await last.locator('[data-run="answer"]').textContent()).toBe(arrived);
    expect(await p.getByTestId('composer-stop').count()).toBe(0);

    // Room made outside Firebrand: the end is saved on its own, and a reload shows the same.
    disk!.empty();
    await expect.poll(() => savedStatus('Tell me about bilbies')).toBe('error');
    await p.reload();
    await p.getByTestId('conversation-item').first().click();
    await expect.poll(() => last.getAttribute('data-status')).toBe('error');
    expect(await last.locator('[data-run="answer"]').textContent()).toBe(arrived);
  });

  it('a file attached on the full disk: the message names it, and Retry attaches it again once there is room', async () => {
    const p = page!;
        disk!.fill();
    expect(disk!.free()).toBe(0);
    const notes = { name: 'bilby-notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Bilbies have big ears.\n'.repeat(500)) };
    await p.getByTestId('attach-input').setInputFiles(notes);
    const unattached = '“bilby-notes.txt” was not attached: the disk is full. Free some space, then press Retry to attach it again.';
    await expect.poll(() => p.getByTestId('notice').locator('.banner-text').textContent().catch(() => '')).toBe(unattached);
    expect(await p.getByTestId('pending-attachments').count()).toBe(0);
    // Still full: Retry says so again (the file is still held for the next one).
    await p.getByTestId('notice').getByTestId('banner-retry').click();
    await expect.poll(() => p.getByTestId('notice').locator('.banner-text').textContent().catch(() => '')).toBe(unattached);

    // Room made outside Firebrand: Retry attaches the same file, without picking it again.
    disk!.empty();
    await p.getByTestId('notice').getByTestId('banner-retry').click();
    await expect.poll(() => p.getByTestId('pending-attachments').getByTestId('attachment-open').allTextContents()).toEqual(['bilby-notes.txt']);
    expect(await p.getByTestId('notice').count()).toBe(0);
    // Taken out again unsent: the restart below expects the chat as case (d) left it.
    await p.getByRole('button', { name: 'Remove bilby-notes.txt' }).click();
    await expect.poll(() => p.getByTestId('pending-attachments').count()).toBe(0);
  });

  it('a model download that would leave less than the chats\' margin free is refused before its first byte, saying what it needs and what is free (round 11)', async () => {
    const p = page!;
    // A 2.5 MiB GGUF on a 40 MB disk with room for it: the download alone would fit, but not with the 256 MiB
    // kept free for the chats.
    const model = readFileSync(generateScriptedModel(SCRIPTS.plain));
    const gets: (string | undefined)[] = [];
    const files = createServer((req, res) => {
      if (req.method !== 'HEAD') gets.push(req.headers.range);
      res.writeHead(200, { 'accept-ranges': 'bytes', 'content-length': String(model.length) }).end(req.method === 'HEAD' ? undefined : model);
    });
    await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
    try {
      const a = files.address();
      expect(disk!.free()).toBeGreaterThan(model.length);
      await p.getByTestId('models-open').click();
      await p.getByTestId('library-download-url').fill(`http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}/models/scripted-plain.gguf`);
      await p.getByTestId('library-download-start').click();
      const error = p.getByTestId('library-download-error');
      await expect.poll(() => error.textContent().catch(() => '')).toMatch(
        /^Not enough free disk space for scripted-plain\.gguf: it needs 2\.5 MiB more, plus 256 MiB kept free so your chats can still be saved, and [\d.]+ MiB is free in .*\/data\/models\.$/,
      );
      expect(gets).toEqual([]);
      await shootAtBothWidths(p, 'download-refused-chats-margin', '[data-testid="library-download-error"]');
      // Taken away, and Models closed: the restart below expects the folder as case (e) left it.
      await p.getByTestId('library-download-cancel').click();
      await expect.poll(() => p.getByTestId('library-download-progress').count()).toBe(0);
      await p.getByTestId('models-close').click();
    } finally {
      await new Promise<void>((r) => files.close(() => r()));
    }
  });

  // Round 11: a rename refused on the full disk closed the title field, and what was typed was gone.
  it('a rename refused on the full disk keeps the field open with the typed title and says why; Enter saves it once there is room', async () => {
    const p = page!;
    disk!.fill();
    expect(disk!.free()).toBe(0);
    const row = p.locator('.conversation-row').filter({ hasText: 'Quokka smiles' });
    const conversationId = (await row.getByTestId('conversation-item').getAttribute('data-conversation-id'))!;
    await row.hover();
    await row.getByTestId('conversation-rename').click();
    const input = p.getByTestId('conversation-rename-input');
    await input.fill('Quokkas at dusk');
    await input.press('Enter');
    await expect.poll(() => p.getByTestId('rename-refused').textContent().catch(() => '')).toContain('The disk is full, so this was not saved.');
    expect(await input.inputValue()).toBe('Quokkas at dusk');
    await shootAtBothWidths(p, 'rename-refused-full-disk', '[data-testid="conversation-rename-input"]');
    // On a phone the list is a drawer: the field, open still, as it shows there.
    await p.setViewportSize({ width: 390, height: 844 });
    await p.getByTestId('sidebar-toggle').click();
    await p.waitForFunction(() => document.getAnimations().length === 0);
    await p.screenshot({ path: `${SHOTS_DIR}/rename-refused-full-disk-drawer-390.png` });
    expect(await input.inputValue()).toBe('Quokkas at dusk');
    // Grown again, the drawer gives way to the column (App.tsx).
    await p.setViewportSize({ width: 1280, height: 800 });
    // The list shows the title as saved, not the one that was refused.
    expect(await p.evaluate(() => window.firebrand.conversations.list({}).then((list) => list.map((c) => c.title)))).toEqual(['Quokka smiles']);

    disk!.empty();
    await input.press('Enter');
    await expect.poll(() => chatTitles(p, 1)).toEqual(['Quokkas at dusk']);
    expect(await p.getByTestId('rename-refused').count()).toBe(0);
    // Back as it was: the restart below expects the chat as case (d) left it.
    await p.evaluate((id) => window.firebrand.conversations.rename({ conversationId: id, title: 'Quokka smiles' }), conversationId);
    await expect.poll(() => chatTitles(p, 1)).toEqual(['Quokka smiles']);
  });

  // Round 11: of several files refused at once only the last was named.
  it('several files attached on the full disk: the message names each, and Retry attaches them all once there is room', async () => {
    const p = page!;
    disk!.fill();
    expect(disk!.free()).toBe(0);
    await p.getByTestId('attach-input').setInputFiles([
      { name: 'bilby-ears.txt', mimeType: 'text/plain', buffer: Buffer.from('Bilbies have big ears.\n'.repeat(500)) },
      { name: 'bilby-tail.txt', mimeType: 'text/plain', buffer: Buffer.from('Bilbies have black and white tails.\n'.repeat(500)) },
    ]);
    const why = 'was not attached: the disk is full. Free some space, then press Retry to attach it again.';
    await expect.poll(() => p.getByTestId('notice').locator('.banner-text').textContent().catch(() => '')).toBe(
      `2 files were not attached:\n“bilby-ears.txt” ${why}\n“bilby-tail.txt” ${why}`,
    );
    // One to a line, as drawn.
    expect(await p.getByTestId('notice').locator('.banner-text').innerText()).toBe(`2 files were not attached:\n“bilby-ears.txt” ${why}\n“bilby-tail.txt” ${why}`);
    await shootAtBothWidths(p, 'files-refused-full-disk');
    disk!.empty();
    await p.getByTestId('notice').getByTestId('banner-retry').click();
    await expect.poll(() => p.getByTestId('pending-attachments').getByTestId('attachment-open').allTextContents()).toEqual(['bilby-ears.txt', 'bilby-tail.txt']);
    for (const name of ['bilby-ears.txt', 'bilby-tail.txt']) await p.getByRole('button', { name: `Remove ${name}` }).click();
    await expect.poll(() => p.getByTestId('pending-attachments').count()).toBe(0);
  });

  // Round 11: a notice set after another kept the other's Retry: the chat settings refused on the full disk after a
  // file was, and Retry attached the file instead of saving the settings.
  it('Retry on a later failure repeats that one, not the failure before it', async () => {
    const p = page!;
    disk!.fill();
    expect(disk!.free()).toBe(0);
    await p.getByTestId('attach-input').setInputFiles({ name: 'bilby-diet.txt', mimeType: 'text/plain', buffer: Buffer.from('Bilbies eat insects.\n'.repeat(500)) });
    await expect.poll(() => p.getByTestId('notice').locator('.banner-text').textContent().catch(() => '')).toContain('“bilby-diet.txt” was not attached');
    await p.getByTestId('conversation-settings-open').click();
    await p.getByTestId('conversation-system-prompt').fill('Answer as a bilby keeper.');
    await p.getByTestId('conversation-settings-save').click();
    await expect.poll(() => p.getByTestId('notice').locator('.banner-text').textContent().catch(() => '')).toBe('The disk is full, so this was not saved. Free some space, then try again.');

    disk!.empty();
    await p.getByTestId('notice').getByTestId('banner-retry').click();
    await p.getByTestId('notice').waitFor({ state: 'detached' });
    const conversationId = (await p.getByTestId('conversation-item').first().getAttribute('data-conversation-id'))!;
    await expect.poll(() => p.evaluate((id) => window.firebrand.conversations.getSettings({ conversationId: id }).then((v) => v.systemPrompt), conversationId)).toBe('Answer as a bilby keeper.');
    expect(await p.getByTestId('pending-attachments').count()).toBe(0);
  });

  it('restarted on the full disk with no reserve left, the chats open read-only: a banner says why, they read and search; a send or a delete is refused, losing nothing', async () => {
    await serve!.stop();
    // What the delete gave back, and any reserve written since, taken by the rest of the disk.
    rmSync(join(dataDir, RESERVE), { force: true });
    // Closed cleanly (there was room to copy the -wal file in): the next start must make its -shm file again.
    expect(existsSync(join(dataDir, 'firebrand.db-shm'))).toBe(false);
    disk!.fill();
    expect(disk!.free()).toBe(0);
    const p = await startServe();
    await expect.poll(() => p.getByTestId('read-only').locator('.banner-text').textContent().catch(() => '')).toContain('open read-only');
    expect(await chatTitles(p, 1)).toEqual(['Quokka smiles']);
    await p.getByTestId('conversation-item').first().click();
    // The end of the chat as saved once there was room (the list is virtualized: the earlier turns are found below).
    await expect.poll(() => p.locator(USER).last().textContent()).toBe('Tell me about bilbies');
    await expect.poll(() => p.locator(ASSISTANT).last().locator('[data-run="answer"]').textContent()).toContain('The end.');
    await p.getByTestId('new-chat').click();
    await p.getByTestId('search-input').fill('echidnas');
    await expect.poll(() => p.getByTestId('search-result').count()).toBe(1);
    await p.getByTestId('search-result').first().click();
    await expect.poll(() => p.locator('[data-testid="turn"][data-search-hit]').getByTestId('user-text').textContent()).toBe('Echidnas lay eggs');

    const refused = 'The disk is full, so your chats are open read-only and this was not saved. Free some space on that disk, then start Firebrand again.';
    await p.getByTestId('composer-input').fill('Numbats eat termites');
    await p.getByTestId('composer-send').click();
    await expect.poll(() => p.getByTestId('notice').locator('.banner-text').textContent().catch(() => '')).toBe(refused);
    expect(await p.getByTestId('composer-input').inputValue()).toBe('Numbats eat termites');
    // A file is refused naming it, and saying that only a start with room can attach it.
    await p.getByTestId('notice').getByTestId('banner-close').click();
    await p.getByTestId('attach-input').setInputFiles({ name: 'numbat.txt', mimeType: 'text/plain', buffer: Buffer.from('Numbats are striped.') });
    await expect.poll(() => p.getByTestId('notice').locator('.banner-text').textContent().catch(() => '')).toBe(
      '“numbat.txt” was not attached: the disk is full, so your chats are open read-only. Free some space on that disk, then start Firebrand again.',
    );
    expect(await p.getByTestId('pending-attachments').count()).toBe(0);
    await p.getByTestId('notice').getByTestId('banner-close').click();
    await p.getByTestId('search-input').fill('');
    // A delete is hidden for its undo window, then refused: the chat comes back, with the same words.
    const row = p.locator('.conversation-row').first();
    await row.hover();
    await row.getByTestId('conversation-delete').click();
    await expect.poll(() => p.getByTestId('notice').locator('.banner-text').textContent().catch(() => '')).toBe(refused);
    expect(await chatTitles(p, 1)).toEqual(['Quokka smiles']);
  });

  it('a folder whose last run stopped with no room to tidy up (-wal and -shm left) opens read-only on a full disk too, with the banner, and shows the latest message', async () => {
    await serve!.stop();
    disk!.empty();
    replay!.setRoutes([...TITLES, ...chatRoutes(ollamaLines([{ content: 'Striped.' }]), 1)]);
    let p = await startServe();
    await p.getByTestId('conversation-item').first().click();
    // Open before sending: until the chat is read (on a busy machine, seconds) Send sends in the chat on screen.
    await expect.poll(() => p.getByTestId('conversation-item').first().getAttribute('aria-current')).toBe('true');
    await send(p, 'Numbats have stripes');
    await waitIdle(p);
    // Stopped with no chance to tidy up (as when the close finds no room to copy the -wal file in).
    await serve!.stop('SIGKILL');
    expect(existsSync(join(dataDir, 'firebrand.db-shm'))).toBe(true);
    expect(existsSync(join(dataDir, 'firebrand.db-wal'))).toBe(true);
    rmSync(join(dataDir, RESERVE), { force: true });
    disk!.fill();
    expect(disk!.free()).toBe(0);

    p = await startServe();
    await expect.poll(() => p.getByTestId('read-only').locator('.banner-text').textContent().catch(() => '')).toContain('open read-only');
    await p.getByTestId('conversation-item').first().click();
    await expect.poll(() => p.locator(USER).last().textContent()).toBe('Numbats have stripes');
    await expect.poll(() => p.locator(ASSISTANT).last().locator('[data-run="answer"]').textContent()).toContain('Striped.');
  });
});
