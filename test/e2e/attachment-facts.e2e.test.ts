/**
 * Attachments' keyboard and screen-reader pass: what a chip said only on hover (a `title`), which a keyboard, a
 * finger and a screen reader never get, is said where they reach it. The chip's name button is named by the file
 * and described by what it does and what the file costs ("estimated" or "counted by the server"); its preview shows
 * as text how the figure was counted, what to do about a text read as Latin-1, and the size a scaled image goes at;
 * on a phone a long name is shown whole, not cut with an ellipsis, and so is the name of a chip that opens no
 * preview. Screenshots at 1280 and 390 px go to test-results/screenshots (attachment-facts-*).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { IMAGE_TOKEN_BUDGET } from '../../src/shared/context-estimate';
import { formatBytes, formatTokens } from '../../src/renderer/format';
import { chatRoutes, ollamaLines, startUi, stopUi, type UiSession } from './helpers/ui-session';
import { shootAtBothWidths } from './helpers/screenshots';

const LOCKED = readFileSync(resolve(import.meta.dirname, '../fixtures/documents/password-protected.pdf'));

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

function routes() {
  return [...chatRoutes(ollamaLines([{ content: 'Read it.' }]), 5), { path: '/api/ps', body: '{"models":[]}' }];
}

const pending = (page: Page) => page.locator('[data-testid="pending-attachments"] [data-testid="attachment"]');

/** What a screen reader says after an element's name: the text of what its aria-describedby names, in order. */
function description(target: Locator): Promise<string> {
  return target.evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent ?? `<missing ${id}>`)
      .join(' '),
  );
}

/** Whether an element shows all its text: not cut with an ellipsis, nor pushed past the right of the screen. */
function shownWhole(target: Locator): Promise<boolean> {
  return target.evaluate((el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().right <= document.documentElement.clientWidth);
}

describe('what an attachment said only on hover', () => {
  it('reaches a Latin-1 file’s advice and how its tokens were counted from the keyboard: in the name’s description and as text in its preview', async () => {
    s = await startUi(routes());
    const { page } = s;
    const csv = Buffer.from('Prénom;Ville;Montant\nÉlodie;Besançon;12 \x80\n', 'latin1');
    await page.getByTestId('attach-input').setInputFiles({ name: 'clients.csv', mimeType: 'text/csv', buffer: csv });
    await expect.poll(() => pending(page).first().getAttribute('data-tokens-shown')).not.toBeNull();
    const figure = `~${formatTokens(Number(await pending(page).first().getAttribute('data-tokens-shown')))} tokens`;

    // Named by the file alone (what is seen, what a voice user says); described by what it opens and what it costs.
    const name = page.getByRole('button', { name: 'clients.csv', exact: true });
    await name.focus();
    expect(await description(name)).toBe(`Shows the text the model reads. ${figure}, estimated.· read as Latin-1 (Windows-1252)`);

    await page.keyboard.press('Enter');
    const preview = page.getByTestId('attachment-preview');
    const facts = preview.getByTestId('preview-facts');
    await facts.waitFor();
    expect(await facts.isVisible()).toBe(true);
    expect(await facts.locator('p').allInnerTexts()).toEqual([
      `${figure}, estimated (about 4 characters per token).`,
      'Not UTF-8: read as Latin-1 (Windows-1252), what older Windows programs save text as. If letters look wrong, save the file as UTF-8 and attach it again.',
    ]);
    // Said as the dialog opens, after its name.
    expect(await description(preview)).toBe(await facts.textContent());
    await expect.poll(() => preview.textContent()).toContain('Élodie;Besançon;12 €');
    await shootAtBothWidths(page, 'attachment-facts-latin1-preview');
    await page.keyboard.press('Escape');
    await preview.waitFor({ state: 'detached' });
    await shootAtBothWidths(page, 'attachment-facts-latin1-chip');
  });

  it('says a scaled image’s size with its button and shows it in its preview', async () => {
    s = await startUi(routes());
    const { page } = s;
    const photo = await sharp({ create: { width: 3000, height: 2000, channels: 3, background: '#3a6' } }).png().toBuffer();
    await page.getByTestId('attach-input').setInputFiles({ name: 'garden.png', mimeType: 'image/png', buffer: photo });
    const thumb = page.locator('[data-testid="pending-attachments"] [data-kind="image"]');
    await expect.poll(() => thumb.getAttribute('data-tokens')).not.toBeNull();
    const open = page.getByRole('button', { name: 'Open garden.png', exact: true });
    // After what its card says beside it: its size and what it costs (image-attachment-names.e2e).
    await expect.poll(() => description(open)).toBe(`${formatBytes(photo.length)} · ~${formatTokens(IMAGE_TOKEN_BUDGET)} tokens, estimated. Sent as 1568×1045 (the original stays stored).`);

    await open.click();
    const facts = page.getByTestId('attachment-preview').getByTestId('preview-facts');
    await facts.waitFor();
    expect(await facts.isVisible()).toBe(true);
    expect(await facts.innerText()).toBe('Sent as 1568×1045 (the original stays stored).');
    await page.getByTestId('attachment-preview').locator('img').waitFor();
    await shootAtBothWidths(page, 'attachment-facts-image-preview');
  });

  it('shows a long file name whole on a phone, on its chip and in its preview, and on a chip that cannot be opened', async () => {
    s = await startUi(routes());
    const { page } = s;
    const long = 'quarterly-report-2026-q3-north-region-final-v2.txt';
    const locked = 'signed-lease-agreement-with-the-landlord-2026.pdf';
    await page.getByTestId('attach-input').setInputFiles([
      { name: long, mimeType: 'text/plain', buffer: Buffer.from('Revenue grew by 12 percent in the north region.\n') },
      { name: locked, mimeType: 'application/pdf', buffer: LOCKED },
    ]);
    await expect.poll(() => page.getByTestId('attachment-error').textContent()).toContain('password-protected');
    await expect.poll(() => pending(page).first().getAttribute('data-tokens')).not.toBeNull();
    const names = page.locator('[data-testid="pending-attachments"] .chip-name');
    expect(await names.allTextContents()).toEqual([long, locked]);
    // A chip that cannot be read opens no preview: its name is whole on a wide screen too (a hover showed it).
    expect(await shownWhole(names.nth(1)), locked).toBe(true);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await shownWhole(names.first()), long).toBe(true);
    expect(await shownWhole(names.nth(1)), locked).toBe(true);
    // The rest of the chip stays on its row: its size and remove beside the name, under its right edge.
    const chipBox = await pending(page).first().boundingBox();
    const removeBox = await pending(page).first().getByRole('button', { name: `Remove ${long}` }).boundingBox();
    expect(removeBox && chipBox && removeBox.x + removeBox.width <= chipBox.x + chipBox.width).toBe(true);
    await shootAtBothWidths(page, 'attachment-facts-long-names');

    await page.setViewportSize({ width: 390, height: 844 });
    await names.first().click();
    const heading = page.getByTestId('attachment-preview').getByRole('heading');
    await heading.waitFor();
    expect(await heading.textContent()).toBe(long);
    expect(await shownWhole(heading)).toBe(true);
  });
});
