/**
 * Images say what they are: a picture waiting in the message box was a bare thumbnail, and a user with three
 * screenshots attached could tell them apart only by opening each, nor see what they cost of the window. Each
 * shows its name (cut in the middle where it must, whole in its hover and on a phone), its size and its token
 * cost as the meter counts it; its remove button names it. A sent message's picture has its name and size under
 * it. A pasted screenshot (the clipboard calls every one "image.png") is "Pasted image N", numbered on through the
 * chat. At 390 px three images and a PDF wrap in the box with nothing cut or overlapping. Screenshots at 1280 and
 * 390 px go to test-results/screenshots (image-names-*).
 */
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { IMAGE_TOKEN_BUDGET } from '../../src/shared/context-estimate';
import { formatBytes, formatTokens } from '../../src/renderer/format';
import { chatRoutes, ollamaLines, send, startUi, stopUi, USER, waitIdle, type UiSession } from './helpers/ui-session';
import { shootAtBothWidths } from './helpers/screenshots';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

const LONG = 'Screenshot 2026-12-07 at 10.31.02 - settings page after the update.png';

/** A picture of some size in bytes (noise does not compress), in a colour of its own. */
function picture(width: number, height: number, background: string): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background, noise: { type: 'gaussian', mean: 120, sigma: 40 } } })
    .png()
    .toBuffer();
}

/** Pastes an image into the message box as the clipboard gives a screenshot: a file called "image.png". */
async function pasteScreenshot(page: Page, png: Buffer): Promise<void> {
  await page.getByTestId('composer-input').focus();
  await page.evaluate((b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const data = new DataTransfer();
    data.items.add(new File([bytes], 'image.png', { type: 'image/png' }));
    document.querySelector('[data-testid="composer-input"]')?.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, png.toString('base64'));
}

const pending = (page: Page) => page.locator('[data-testid="pending-attachments"] > *');
const pendingImage = (page: Page, name: string) => page.locator('[data-testid="pending-attachments"] .pending-thumb').filter({ has: page.getByRole('button', { name: `Open ${name}`, exact: true }) });

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) => a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5;

/** Whether an element shows all its text: not cut with an ellipsis or after its last line, nor pushed past its box or the screen. */
function shownWhole(target: Locator): Promise<boolean> {
  return target.evaluate((el) => [el, ...el.querySelectorAll(':not(.sr-only)')].every((e) => e.scrollWidth <= e.clientWidth + 1) && el.scrollHeight <= el.clientHeight + 1 && el.getBoundingClientRect().right <= document.documentElement.clientWidth);
}

describe('image attachments say what they are', () => {
  it('names each waiting image with its size and cost, and each sent one under its picture, at 1280 and 390 px', async () => {
    s = await startUi([...chatRoutes(ollamaLines([{ content: 'Three screens and a report.' }]), 5), { path: '/api/ps', body: '{"models":[]}' }]);
    const { page } = s;
    const login = await picture(640, 400, '#3a6');
    const settings = await picture(900, 600, '#36a');
    const pasted = await picture(500, 300, '#a63');
    // A PDF printed by the browser, as documents.e2e does.
    const printer = await s.browser.newPage();
    await printer.setContent('<p>Quarterly report: revenue grew by 12 percent in the north region.</p>');
    const pdf = await printer.pdf({ format: 'A5' });
    await printer.close();

    await page.getByTestId('attach-input').setInputFiles([
      { name: 'login.png', mimeType: 'image/png', buffer: login },
      { name: LONG, mimeType: 'image/png', buffer: settings },
    ]);
    // One at a time, so they keep this order (each is stored as it comes).
    await expect.poll(() => pending(page).count()).toBe(2);
    await pasteScreenshot(page, pasted);
    await expect.poll(() => pending(page).count()).toBe(3);
    await page.getByTestId('attach-input').setInputFiles({ name: 'report.pdf', mimeType: 'application/pdf', buffer: pdf });
    await expect.poll(() => pending(page).count()).toBe(4);

    // The clipboard's "image.png" is named for what it is.
    const pastedName = 'Pasted image 1.png';
    const cost = `~${formatTokens(IMAGE_TOKEN_BUDGET)} tokens`;
    for (const [name, bytes] of [['login.png', login], [LONG, settings], [pastedName, pasted]] as const) {
      const card = pendingImage(page, name);
      await expect.poll(() => card.locator('[data-tokens]').count(), { message: name }).toBe(1);
      expect(await card.getByTestId('attachment-name').textContent()).toBe(name);
      expect(await card.getByTestId('attachment-name').getAttribute('title')).toBe(name);
      // As seen, and as a screen reader says it (the "~" said as "estimated").
      expect(await card.locator('.thumb-cost').textContent()).toBe(`${formatBytes(bytes.length)} · ${cost}, estimated.`);
      expect(await card.getByRole('button', { name: `Remove ${name}`, exact: true }).count()).toBe(1);
    }
    // A long name is cut in the middle on a wide screen: its end (the time, the extension) stays in sight.
    const longName = pendingImage(page, LONG).getByTestId('attachment-name');
    expect(await shownWhole(longName)).toBe(false);
    expect(await longName.locator('.chip-name-tail').isVisible()).toBe(true);
    await shootAtBothWidths(page, 'image-names-box');

    // A phone: the four wrap in the box, none over another, none past the box, every name whole.
    await page.setViewportSize({ width: 390, height: 844 });
    const box = (await page.getByTestId('pending-attachments').boundingBox())!;
    const boxes = await Promise.all((await pending(page).all()).map(async (item) => (await item.boundingBox())!));
    for (const [i, b] of boxes.entries()) {
      expect(b.x >= box.x - 0.5 && b.x + b.width <= box.x + box.width + 0.5, `item ${i} inside the box`).toBe(true);
      for (const other of boxes.slice(i + 1)) expect(overlap(b, other), `item ${i} over another`).toBe(false);
    }
    for (const name of ['login.png', LONG, pastedName]) expect(await shownWhole(pendingImage(page, name).locator('.thumb-facts')), name).toBe(true);
    await page.setViewportSize({ width: 1280, height: 800 });

    await send(page, 'Which screen is broken?');
    await waitIdle(page);
    const sent = page.locator(USER).locator('[data-kind="image"]');
    expect(await sent.count()).toBe(3);
    // A long name under a 96 px picture: its end (the words before the extension) on a line of its own, its start
    // cut with "…" over it; the whole of it is its hover.
    expect(await sent.getByTestId('attachment-name').evaluateAll((names) => names.map((n) => [...n.children].map((line) => line.textContent)))).toEqual([
      ['login.png'],
      ['Screenshot 2026-12-07 at 10.31.02 - settings page after', 'the update.png'],
      ['Pasted', 'image 1.png'],
    ]);
    expect(await sent.locator('.thumb-size').allTextContents()).toEqual([formatBytes(login.length), formatBytes(settings.length), formatBytes(pasted.length)]);
    expect(await sent.nth(1).getAttribute('title')).toContain(`${LONG} · ${formatBytes(settings.length)}`);
    // Each name stays under its own picture, cut to its width where it must, at both widths.
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 844 });
      const names = await Promise.all((await sent.getByTestId('attachment-name').all()).map(async (n) => (await n.boundingBox())!));
      const figures = await Promise.all((await sent.all()).map(async (f) => (await f.boundingBox())!));
      for (const [i, n] of names.entries()) {
        const f = figures[i]!;
        expect(n.x >= f.x - 0.5 && n.x + n.width <= f.x + f.width + 0.5, `name ${i} under its picture at ${width} px`).toBe(true);
        // Only the first line of the long one is cut.
        const lines = sent.nth(i).getByTestId('attachment-name').locator('span');
        expect(await shownWhole(lines.last()), `the end of name ${i} shown whole at ${width} px`).toBe(true);
        expect(await shownWhole(lines.first()), `name ${i} at ${width} px`).toBe(i !== 1);
        for (const other of names.slice(i + 1)) expect(overlap(n, other), `name ${i} over another at ${width} px`).toBe(false);
      }
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    // The sent PDF keeps its chip (name, size): the pictures now say as much.
    expect(await page.locator(USER).locator('[data-kind="document"] .chip-size').textContent()).toBe(formatBytes(pdf.length));
    await shootAtBothWidths(page, 'image-names-sent', USER);

    // The next screenshot pasted in this chat is the second, not "image.png" again.
    await pasteScreenshot(page, await picture(300, 200, '#666'));
    await expect.poll(() => pending(page).getByTestId('attachment-name').allTextContents()).toEqual(['Pasted image 2.png']);
  });
});
