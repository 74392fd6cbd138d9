/**
 * Edit and resend runs the message box's checks before Send (send-checks.ts), in its words: an image for a model
 * that cannot read images, and a message longer than the window, are said under the edit form, Send waits, and the
 * edit keeps its text and files. Before, the edit went out: the answer failed ("cannot read images … nothing was
 * sent") or a refusal card came, and the edited branch stood in the chat.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { tinyPng } from './helpers/png';
import { shootAtBothWidths } from './helpers/screenshots';
import { answerRequests, chatRoutes, ollamaLines, send, startUi, stopUi, USER, waitIdle, type UiSession } from './helpers/ui-session';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

const ANSWER = ollamaLines([{ content: 'Done.' }]);
/** A model that the server says cannot read images. */
const textOnly = () => [...chatRoutes(ANSWER, 10), { method: 'POST', path: '/api/show', body: '{"capabilities":["completion"],"template":"","details":{"family":"llama"}}' }, { path: '/api/ps', body: '{"models":[]}' }];

describe('edit and resend checks the message as the message box does', () => {
  it('refuses an image added in the edit for a model that cannot read images, and keeps the edit', async () => {
    s = await startUi(textOnly());
    const { page, replay } = s;
    await send(page, 'Describe the picture');
    await waitIdle(page);
    const before = answerRequests(replay).length;

    await page.locator(USER).getByTestId('turn-edit').click();
    await page.getByTestId('turn-edit-input').fill('Describe this picture, please');
    await page.getByTestId('turn-edit-attach-input').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: tinyPng() });
    await page.getByTestId('edit-attachments').getByRole('button', { name: 'Remove photo.png' }).waitFor();
    const reason = page.getByTestId('turn-edit-reason');
    await expect.poll(() => reason.textContent()).toBe('llama3.2:3b cannot read images. Pick a vision model or remove the image.');
    expect(await page.getByTestId('turn-edit-send').isDisabled()).toBe(true);
    // Enter does not send it either; the text stays as typed.
    await page.getByTestId('turn-edit-input').press('Enter');
    expect(await page.getByTestId('turn-edit-input').inputValue()).toBe('Describe this picture, please');
    await shootAtBothWidths(page, 'edit-refused-image', '[data-testid="turn-edit-reason"]');
    expect(answerRequests(replay).length).toBe(before);

    // Without the image, the edit goes.
    await page.getByTestId('edit-attachments').getByRole('button', { name: 'Remove photo.png' }).click();
    await expect.poll(() => reason.count()).toBe(0);
    await page.getByTestId('turn-edit-send').click();
    await expect.poll(() => answerRequests(replay).length).toBeGreaterThan(before);
    await waitIdle(page);
    expect(answerRequests(replay).at(-1)?.messages.at(-1)?.content).toBe('Describe this picture, please');
  });

  it('refuses an edit longer than the window with the message box’s reason, and keeps the text', async () => {
    s = await startUi(chatRoutes(ANSWER, 10));
    const { page, replay } = s;
    await expect.poll(() => page.getByTestId('context-meter').getAttribute('data-window')).toBe('4096');
    await send(page, 'A short question');
    await waitIdle(page);
    const before = answerRequests(replay).length;

    await page.locator(USER).getByTestId('turn-edit').click();
    const long = 'x'.repeat(20_000);
    await page.getByTestId('turn-edit-input').fill(long);
    const reason = page.getByTestId('turn-edit-reason');
    await expect.poll(() => reason.textContent()).toMatch(/^Too long for llama3\.2:3b: about .* tokens, its window holds 4K\. Make room, or shorten the message\.$/);
    expect(await page.getByTestId('turn-edit-send').isDisabled()).toBe(true);
    await page.getByTestId('turn-edit-input').press('Enter');
    expect(await page.getByTestId('turn-edit-input').inputValue()).toBe(long);
    await shootAtBothWidths(page, 'edit-refused-too-long', '[data-testid="turn-edit-reason"]');
    expect(answerRequests(replay).length).toBe(before);
    expect(await page.locator('[data-testid="turn"][data-role="assistant"]').count()).toBe(1);

    await page.getByTestId('turn-edit-input').fill('A shorter question');
    await expect.poll(() => reason.count()).toBe(0);
    await page.getByTestId('turn-edit-send').click();
    await expect.poll(() => answerRequests(replay).length).toBeGreaterThan(before);
    await waitIdle(page);
  });
});
