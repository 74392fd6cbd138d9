/**
 * A screenshot pasted into a sent message's edit form was "image.png" (the clipboard's name for every picture), where
 * the message box names it "Pasted image N.png", numbered on through the chat (pasted-names.ts): the edit's is named
 * the same way, after those the chat and the edit already have.
 */
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { tinyPng } from './helpers/png';
import { shootAtBothWidths } from './helpers/screenshots';
import { chatRoutes, ollamaLines, startUi, stopUi, USER, waitIdle, type UiSession } from './helpers/ui-session';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

/** Pastes a picture into `box` as the clipboard gives a screenshot: a file called "image.png". */
async function pasteScreenshot(page: Page, box: string, png: Buffer): Promise<void> {
  await page.locator(box).focus();
  await page.evaluate(
    ([selector, b64]) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], 'image.png', { type: 'image/png' }));
      document.querySelector(selector)?.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    },
    [box, png.toString('base64')] as const,
  );
}

describe('a screenshot pasted into an edit', () => {
  it('is "Pasted image N.png", numbered after the chat’s, as in the message box', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'I see it.' }]), 3));
    const { page } = s;
    await pasteScreenshot(page, '[data-testid="composer-input"]', tinyPng(1));
    const pending = page.getByTestId('pending-attachments').getByRole('button', { name: 'Open Pasted image 1.png', exact: true });
    await pending.waitFor();
    await page.getByTestId('composer-input').fill('What is on this screen?');
    await page.getByTestId('composer-send').click();
    await waitIdle(page);

    await page.locator(USER).getByTestId('turn-edit').click();
    await page.getByTestId('turn-edit-form').waitFor();
    await pasteScreenshot(page, '[data-testid="turn-edit-input"]', tinyPng(2));
    // A picture's chip is its thumbnail: its name is in the button's label ("Open Pasted image 2.png").
    const added = () => page.getByTestId('edit-attachments').getByTestId('attachment-open').evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')));
    await expect.poll(added).toContain('Open Pasted image 2.png');
    await pasteScreenshot(page, '[data-testid="turn-edit-input"]', tinyPng(3));
    await expect.poll(added).toContain('Open Pasted image 3.png');
    expect((await added()).filter((n) => /image\.png|image \(\d+\)\.png/.test(n ?? ''))).toEqual([]);
    await shootAtBothWidths(page, 'edit-pasted-names', '[data-testid="turn-edit-form"]');
  });
});
