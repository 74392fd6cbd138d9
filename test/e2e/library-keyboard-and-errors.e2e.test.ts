/**
 * The built-in library as a demanding user meets it with only a GGUF file (library eyes): a refused action says why
 * beside the control that failed, on a phone too; starting a download leaves the focus in its box; Escape in a row's
 * question or name form answers it instead of closing the Models screen. Serve mode with the real engine process on
 * scripted GGUFs; nothing listens for downloads (no internet here).
 */
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCRIPTS } from '../support/scripted-gguf/scripts';
import { startBuiltinUi, stopBuiltinUi, type BuiltinSession } from './helpers/builtin-session';
import { shootAtBothWidths } from './helpers/screenshots';

let session: BuiltinSession;
let page: Page;

beforeAll(async () => {
  session = await startBuiltinUi('library-eyes', [
    { name: 'plain.gguf', script: SCRIPTS.plain },
    { name: 'other.gguf', script: SCRIPTS.reasoning },
  ]);
  ({ page } = session);
  await page.getByTestId('models-open').click();
  await page.locator('[data-testid="library-item"][data-file="plain.gguf"]').waitFor();
});

afterAll(() => stopBuiltinUi(session));

const row = (file: string) => page.locator(`[data-testid="library-item"][data-file="${file}"]`);
const focused = () =>
  page.evaluate(() => {
    const el = document.activeElement;
    return `${el?.getAttribute('data-testid') ?? el?.tagName ?? ''}${el?.closest('[data-file]') ? ` in ${el.closest('[data-file]')?.getAttribute('data-file')}` : ''}`;
  });

/** A local address nothing listens on: refused at once, as a mistyped host's port would be. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const a = server.address();
  await new Promise<void>((r) => server.close(() => r()));
  return typeof a === 'object' && a ? a.port : 0;
}

/** Whether the element is inside the viewport, where a user sees it without scrolling. */
const inView = (testId: string) =>
  page.getByTestId(testId).evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight;
  });

describe('the built-in library by hand and by keyboard', () => {
  it('names its two boxes in words one can see, which stay once a path is typed', async () => {
    // Before: only placeholders ("/path/to/model.gguf (or drop it here)", "https://… or hf:owner/repo/file.gguf"),
    // gone as soon as one typed; the names were for screen readers alone.
    const add = page.getByLabel('Add a .gguf file from this machine');
    const download = page.getByLabel('Download a .gguf file');
    expect(await add.getAttribute('data-testid')).toBe('library-add-path');
    expect(await download.getAttribute('data-testid')).toBe('library-download-url');
    await add.fill('/somewhere/model.gguf');
    expect(await page.locator('label', { hasText: 'Add a .gguf file from this machine' }).isVisible()).toBe(true);
    expect(await page.locator('label', { hasText: 'Download a .gguf file' }).isVisible()).toBe(true);
    await shootAtBothWidths(page, 'library-box-labels', '[data-testid="library-add-path"]');
    await add.fill('');
  });

  it('says a refused download address under the download box, and a refused rename on its row, in sight at 390 px', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('library-download-url').fill('hf:nobody/nothing');
    await page.getByTestId('library-download-start').click();
    // Before: said at the top of the library, above the path box (as if the path were wrong).
    await expect.poll(() => page.getByTestId('library-download-refused').textContent()).toBe('Write a Hugging Face file as hf:owner/repo/file.gguf (the file name, not just the repository).');
    expect(await page.getByTestId('library-error').count()).toBe(0);
    expect(await inView('library-download-refused')).toBe(true);
    await shootAtBothWidths(page, 'library-download-refused', '[data-testid="library-download-refused"]');

    await page.setViewportSize({ width: 390, height: 844 });
    await row('plain.gguf').getByTestId('library-rename').click();
    await row('plain.gguf').getByTestId('library-rename-input').fill('other.gguf');
    await row('plain.gguf').getByTestId('library-rename-save').click();
    // Before: said above the path box, out of sight on a phone; the Rename button seemed to do nothing.
    await expect.poll(() => row('plain.gguf').getByTestId('library-row-error').textContent()).toBe('There is already a model named other.gguf.');
    expect(await page.getByTestId('library-download-refused').count()).toBe(0);
    await row('plain.gguf').getByTestId('library-row-error').scrollIntoViewIfNeeded();
    expect(await inView('library-row-error')).toBe(true);
    await shootAtBothWidths(page, 'library-rename-refused', '[data-testid="library-row-error"]');
    await row('plain.gguf').getByTestId('library-rename-cancel').click();
    // Cancelled, the rename's refusal goes with its form.
    await expect.poll(() => row('plain.gguf').getByTestId('library-row-error').count()).toBe(0);
  });

  it('says a path in a refusal by its file name, whole on hover, so it wraps cleanly at 390 px', async () => {
    const missing = join(session.dir, 'outside', 'missing.gguf');
    await page.getByTestId('library-add-path').fill(missing);
    await page.getByTestId('library-add').click();
    const error = page.getByTestId('library-error');
    // Before: "There is no file at /tmp/firebrand-library-eyes-…/outside/missing.gguf.", broken mid-word on a phone.
    await expect.poll(() => error.textContent()).toBe('There is no file at missing.gguf.');
    expect(await error.locator('[title]').getAttribute('title')).toBe(missing);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await error.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await shootAtBothWidths(page, 'library-path-refused', '[data-testid="library-error"]');
    await page.getByTestId('library-add-path').fill('');
  });

  it('keeps the focus in the download box once a download starts, and says an unreachable source in words', async () => {
    const port = await closedPort();
    await page.getByTestId('library-download-url').fill(`http://127.0.0.1:${port}/m/away.gguf`);
    await page.getByTestId('library-download-start').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('library-download-url').inputValue()).toBe('');
    // Before: Download greyed out under the focus, which fell to <body>.
    await expect.poll(focused).toBe('library-download-url');
    const error = page.locator('[data-testid="library-download-progress"]').getByTestId('library-download-error');
    await expect.poll(() => error.textContent(), { timeout: 30_000 }).toBe(`The download of away.gguf stopped: 127.0.0.1:${port} refused the connection: nothing is listening at that address. Resume tries again.`);
    await shootAtBothWidths(page, 'library-download-unreachable', '[data-testid="library-download-progress"]');

    // The same file from another address: before, it took over this row and its source without a word.
    await page.getByTestId('library-download-url').fill(`http://127.0.0.1:${port}/mirror/away.gguf`);
    await page.getByTestId('library-download-start').click();
    await expect.poll(() => page.getByTestId('library-download-refused').textContent()).toBe(
      'A download of away.gguf from another address is already here: Resume it, or Cancel it to download away.gguf from this one.',
    );
    expect(await page.getByTestId('library-download-progress').count()).toBe(1);
    expect(await page.getByTestId('library-download-url').inputValue()).toBe(`http://127.0.0.1:${port}/mirror/away.gguf`);
    await shootAtBothWidths(page, 'library-download-elsewhere', '[data-testid="library-download-refused"]');
    await page.getByTestId('library-download-url').fill('');
    await page.getByTestId('library-download-cancel').click();
  });

  it('answers the Delete question and the name form with Escape, and leaves the Models screen open', async () => {
    await row('other.gguf').getByTestId('library-delete').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Keep');
    await page.keyboard.press('Escape');
    // Before: Escape closed the whole Models screen.
    await expect.poll(() => page.locator('[role="alertdialog"][aria-label="Delete other.gguf"]').count()).toBe(0);
    expect(await page.getByTestId('library').count()).toBe(1);
    await expect.poll(focused).toBe('library-delete in other.gguf');

    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await expect.poll(focused).toBe('library-rename in other.gguf');
    await page.keyboard.press('Enter');
    await expect.poll(focused).toBe('library-rename-input in other.gguf');
    await page.keyboard.type('-typed');
    await page.keyboard.press('Escape');
    await expect.poll(() => row('other.gguf').getByTestId('library-rename-input').count()).toBe(0);
    expect(await page.getByTestId('library').count()).toBe(1);
    await expect.poll(focused).toBe('library-rename in other.gguf');
    expect(await row('other.gguf').count()).toBe(1);
  });
});
