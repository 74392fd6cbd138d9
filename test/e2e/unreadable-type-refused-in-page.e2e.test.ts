/**
 * A file of a type Firebrand cannot read (a .zip, a .doc, an .xlsx, a program) is refused by the page before it is
 * uploaded, in main's words: it went whole to main (a 15 MB .zip, base64 over the socket) only to be refused there.
 * Picked with the paperclip, dropped or pasted, in the message box and in a message's edit form; the upload requests
 * (`attachments:add` frames on the serve socket) are counted.
 */
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { unreadableTypeMessage } from '../../src/shared/readable-types';
import { shootAtBothWidths } from './helpers/screenshots';
import { chatRoutes, ollamaLines, send, startUi, stopUi, USER, waitIdle, type UiSession } from './helpers/ui-session';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

/** Starts the app, counting the upload requests the page sends main. */
async function startCounting(): Promise<{ session: UiSession; uploads: () => number }> {
  let uploads = 0;
  const session = await startUi(chatRoutes(ollamaLines([{ content: 'Noted.' }])), async (page) => {
    page.on('websocket', (ws) =>
      ws.on('framesent', (frame) => {
        if (typeof frame.payload === 'string' && frame.payload.includes('"channel":"attachments:add"')) uploads++;
      }),
    );
  });
  return { session, uploads: () => uploads };
}

/** A zip's first bytes (the signature a .docx shares), padded to `size` bytes. */
function zipBytes(size: number): Buffer {
  const bytes = Buffer.alloc(size, 0x41);
  Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 0x08, 0]).copy(bytes);
  return bytes;
}

/** A Windows program's first bytes: Chromium names a .exe application/octet-stream, so its bytes tell. */
const EXE = Buffer.from([0x4d, 0x5a, 0x90, 0, 0x03, 0, 0, 0, 0x04, 0, 0, 0, 0xff, 0xff, 0, 0]);

const noticeText = (page: Page) => page.getByTestId('notice').locator('.banner-text').textContent().catch(() => '');

/** Drops (or pastes) a file made in the page on `selector`. */
async function dropOrPaste(page: Page, selector: string, how: 'drop' | 'paste', file: { name: string; type: string; size: number }): Promise<void> {
  await page.evaluate(
    ({ selector, how, file }) => {
      const data = new DataTransfer();
      const bytes = new Uint8Array(file.size).fill(0x41);
      bytes.set([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 0x08, 0]);
      data.items.add(new File([bytes], file.name, { type: file.type }));
      const target = document.querySelector(selector)!;
      if (how === 'paste') {
        target.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
        return;
      }
      for (const type of ['dragenter', 'dragover', 'drop']) target.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
    },
    { selector, how, file },
  );
}

describe('a file of a type Firebrand cannot read', () => {
  it('is refused in the message box before it is uploaded, picked, dropped or pasted, and the draft stays', async () => {
    const { session, uploads } = await startCounting();
    s = session;
    const { page } = s;
    await page.getByTestId('composer-input').fill('Here are the photos');

    // Picked with the paperclip: a 5 MB .zip (under the size limit: it was uploaded whole) and a program.
    await page.getByTestId('attach-input').setInputFiles([
      { name: 'photos.zip', mimeType: 'application/zip', buffer: zipBytes(5 * 1024 * 1024) },
      { name: 'setup.exe', mimeType: 'application/octet-stream', buffer: EXE },
    ]);
    await expect.poll(() => noticeText(page)).toBe(
      ['2 files were not attached:', unreadableTypeMessage('photos.zip'), unreadableTypeMessage('setup.exe')].join('\n'),
    );
    expect(await noticeText(page)).toContain('It reads PDF, Word (.docx), HTML and text files, and PNG, JPEG, GIF and WebP images.');
    expect(await page.getByTestId('notice').getAttribute('role')).toBe('alert');
    await shootAtBothWidths(page, 'unreadable-type-refused');
    expect(uploads()).toBe(0);

    // Dropped on the window, and pasted into the message box.
    await page.getByTestId('banner-close').click();
    await dropOrPaste(page, '[data-testid="composer-input"]', 'drop', { name: 'budget.xlsx', type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', size: 2048 });
    await expect.poll(() => noticeText(page)).toBe(unreadableTypeMessage('budget.xlsx'));
    await page.getByTestId('banner-close').click();
    await dropOrPaste(page, '[data-testid="composer-input"]', 'paste', { name: 'archive.zip', type: 'application/zip', size: 2048 });
    await expect.poll(() => noticeText(page)).toBe(unreadableTypeMessage('archive.zip'));
    expect(uploads()).toBe(0);
    expect(await page.getByTestId('pending-attachments').count()).toBe(0);
    expect(await page.getByTestId('composer-input').inputValue()).toBe('Here are the photos');

    // A file Firebrand reads still goes to main (the count sees an upload).
    await page.getByTestId('attach-input').setInputFiles([{ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('the notes') }]);
    await expect.poll(() => page.getByTestId('pending-attachments').getByTestId('attachment-open').allTextContents()).toEqual(['notes.txt']);
    expect(uploads()).toBe(1);
  });

  it('is refused in a message’s edit form before it is uploaded, and the edit stays', async () => {
    const { session, uploads } = await startCounting();
    s = session;
    const { page } = s;
    await send(page, 'Read my letter');
    await waitIdle(page);
    await page.locator(USER).getByTestId('turn-edit').click();
    const form = page.getByTestId('turn-edit-form');
    await form.waitFor();
    await page.getByTestId('turn-edit-input').fill('Read my letter, attached');

    await page.getByTestId('turn-edit-attach-input').setInputFiles([{ name: 'lettre.doc', mimeType: 'application/msword', buffer: Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]) }]);
    await expect.poll(() => noticeText(page)).toBe(unreadableTypeMessage('lettre.doc'));
    await page.getByTestId('banner-close').click();
    await dropOrPaste(page, '[data-testid="turn-edit-input"]', 'drop', { name: 'photos.zip', type: 'application/zip', size: 4096 });
    await expect.poll(() => noticeText(page)).toBe(unreadableTypeMessage('photos.zip'));
    expect(uploads()).toBe(0);
    expect(await page.getByTestId('edit-attachments').count()).toBe(0);
    expect(await page.getByTestId('turn-edit-input').inputValue()).toBe('Read my letter, attached');
  });
});
