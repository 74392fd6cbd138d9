/**
 * A file dragged over a message's edit form goes with the edit: the form says so, and the window's "Drop files to
 * attach them" overlay, which means the message box, is not shown there (it stayed up over the form, and told the
 * user the file went to the message box).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { shootAtBothWidths } from './helpers/screenshots';
import { chatRoutes, ollamaLines, send, startUi, stopUi, USER, waitIdle, type UiSession } from './helpers/ui-session';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

describe('a file dragged over the edit form', () => {
  it('shows the edit as where it goes, not the message box, and the drop lands in the edit', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Noted.' }])));
    const { page } = s;
    await send(page, 'Read my notes');
    await waitIdle(page);
    await page.locator(USER).getByTestId('turn-edit').click();
    const form = page.getByTestId('turn-edit-form');
    await form.waitFor();
    const transfer = await page.evaluateHandle(() => {
      const dt = new DataTransfer();
      dt.items.add(new File(['the dropped notes'], 'dropped.txt', { type: 'text/plain' }));
      return dt;
    });
    const overlay = page.locator('.drop-overlay');

    // Elsewhere in the window, the overlay says the files go to the message.
    for (const type of ['dragenter', 'dragover']) await page.dispatchEvent('[data-testid="composer-input"]', type, { dataTransfer: transfer });
    await overlay.waitFor();
    expect(await overlay.textContent()).toBe('Drop files to attach them');

    // Over the edit form, it goes, and the form says the files go to the edit.
    for (const type of ['dragenter', 'dragover']) await page.dispatchEvent('[data-testid="turn-edit-input"]', type, { dataTransfer: transfer });
    await overlay.waitFor({ state: 'detached' });
    await expect.poll(() => form.getAttribute('class')).toContain('dropping');
    expect(await form.locator('.edit-drop-hint').textContent()).toBe('Drop files to attach them to this edit');
    await shootAtBothWidths(page, 'edit-drop-over-form', '[data-testid="turn-edit-form"]');

    await page.dispatchEvent('[data-testid="turn-edit-input"]', 'drop', { dataTransfer: transfer });
    await expect.poll(() => page.getByTestId('edit-attachments').getByTestId('attachment-open').allTextContents()).toEqual(['dropped.txt']);
    expect(await form.locator('.edit-drop-hint').count()).toBe(0);
    expect(await overlay.count()).toBe(0);
    expect(await page.getByTestId('pending-attachments').count()).toBe(0);
  });
});
