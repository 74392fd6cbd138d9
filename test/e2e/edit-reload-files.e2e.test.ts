/**
 * An edit of a sent message kept across a reload came back with its text and the message's files it keeps, and
 * without the files added in it: the user had to find and attach them again, and might send without them. Now they
 * come back and Send sends them; one main no longer has is named, and nothing else is lost. Kept edits go with their
 * message: a chat deleted for good (not while its Undo is offered) takes its edits, and an edit whose message is gone
 * is forgotten at the next start.
 */
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { answerRequests, chatRoutes, ollamaLines, send, startUi, stopUi, USER, waitIdle, type UiSession } from './helpers/ui-session';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

const KEY = 'firebrand.edit-drafts';
const keptEdits = (s: UiSession) => s.page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '{}') as Record<string, { text: string; added?: { name: string }[] }>, KEY);
const addedNames = async (s: UiSession) => Object.values(await keptEdits(s)).flatMap((d) => (d.added ?? []).map((b) => b.name));
/** The edit is kept (its text, written with its files) before the reload. */
const keptText = async (s: UiSession) => Object.values(await keptEdits(s)).map((d) => d.text);

describe('files added in an edit kept across a reload', () => {
  it('come back with the edit, after the files it keeps, and Send sends them', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Compared.' }])));
    const { page, replay } = s;
    await page.getByTestId('attach-input').setInputFiles({ name: 'alpha.txt', mimeType: 'text/plain', buffer: Buffer.from('the alpha notes\n') });
    await page.getByTestId('pending-attachments').getByText('alpha.txt').waitFor();
    await send(page, 'Compare these');
    await waitIdle(page);

    await page.locator(USER).getByTestId('turn-edit').click();
    const files = page.getByTestId('edit-attachments');
    await page.getByTestId('turn-edit-attach-input').setInputFiles({ name: 'forgotten.txt', mimeType: 'text/plain', buffer: Buffer.from('the forgotten notes\n') });
    await files.getByText('forgotten.txt').waitFor();
    await page.getByTestId('turn-edit-input').fill('Compare all of these');
    await expect.poll(() => keptText(s!)).toEqual(['Compare all of these']);

    await page.reload();
    await page.getByTestId('turn-edit-form').waitFor();
    await expect.poll(() => files.getByTestId('attachment-open').allTextContents()).toEqual(['alpha.txt', 'forgotten.txt']);
    expect(await page.getByTestId('turn-edit-input').inputValue()).toBe('Compare all of these');
    expect(await page.getByTestId('turn-edit-lost').count()).toBe(0);

    const before = answerRequests(replay).length;
    await page.getByTestId('turn-edit-send').click();
    await expect.poll(() => answerRequests(replay).length).toBeGreaterThan(before);
    await waitIdle(page);
    await expect.poll(() => page.locator(USER).getByTestId('attachment-open').allTextContents()).toEqual(['alpha.txt', 'forgotten.txt']);
    const user = answerRequests(replay).at(-1)?.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
    expect(user).toContain('Compare all of these');
    expect(user).toContain('the alpha notes');
    expect(user).toContain('the forgotten notes');
    expect(await keptEdits(s)).toEqual({});
  });

  it('name one main no longer has, and lose nothing else', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Noted.' }])));
    const { page } = s;
    await send(page, 'Read my notes');
    await waitIdle(page);
    await page.locator(USER).getByTestId('turn-edit').click();
    const files = page.getByTestId('edit-attachments');
    const gone = Buffer.from('notes that will be lost\n');
    await page.getByTestId('turn-edit-attach-input').setInputFiles([
      { name: 'notes.txt', mimeType: 'text/plain', buffer: gone },
      { name: 'plan.txt', mimeType: 'text/plain', buffer: Buffer.from('the plan\n') },
    ]);
    await expect.poll(() => files.getByTestId('attachment-open').allTextContents()).toEqual(['notes.txt', 'plan.txt']);
    await page.getByTestId('turn-edit-input').fill('Read my notes and my plan');
    await expect.poll(() => keptText(s!)).toEqual(['Read my notes and my plan']);

    // Its bytes go from the data folder (swept, or the folder restored from an older copy).
    const digest = createHash('sha256').update(gone).digest('hex');
    rmSync(join(s.dataDir, 'blobs', digest.slice(0, 2), digest.slice(2, 4), digest));
    await page.reload();
    await page.getByTestId('turn-edit-form').waitFor();
    await expect.poll(() => page.getByTestId('turn-edit-lost').textContent()).toBe('“notes.txt” could not be found again; attach it again.');
    expect(await files.getByTestId('attachment-open').allTextContents()).toEqual(['plan.txt']);
    expect(await page.getByTestId('turn-edit-input').inputValue()).toBe('Read my notes and my plan');
    await expect.poll(() => addedNames(s!)).toEqual(['plan.txt']);

    // Attached again, as it asks: it says no more that the file is missing.
    await page.getByTestId('turn-edit-attach-input').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('my notes, found\n') });
    await expect.poll(() => files.getByTestId('attachment-open').allTextContents()).toEqual(['plan.txt', 'notes.txt']);
    await page.getByTestId('turn-edit-lost').waitFor({ state: 'detached' });
  });
});

describe('kept edits', () => {
  it('stay while a deleted chat can be brought back, go when it is deleted for good, and go at a start when their message is gone', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Noted.' }])));
    const { page } = s;
    await send(page, 'Plan my week');
    await waitIdle(page);
    await page.locator(USER).getByTestId('turn-edit').click();
    await page.getByTestId('turn-edit-input').fill('Plan my week, with a day off');
    await expect.poll(async () => Object.keys(await keptEdits(s!)).length).toBe(1);

    // Deleted, then Undo: the edit is there again.
    const item = page.getByTestId('conversation-item').first();
    await item.focus();
    await page.keyboard.press('Delete');
    await page.getByTestId('undo-delete').click();
    await item.click();
    await page.getByTestId('turn-edit-form').waitFor();
    expect(await page.getByTestId('turn-edit-input').inputValue()).toBe('Plan my week, with a day off');

    // Deleted for good once the window ends: its edit goes.
    await item.focus();
    await page.keyboard.press('Delete');
    await page.getByTestId('undo-toast').waitFor({ state: 'detached' });
    await expect.poll(() => keptEdits(s!)).toEqual({});

    // One kept for a message main no longer has (deleted in another window, or before edits noted their chat).
    await page.evaluate((key) => localStorage.setItem(key, JSON.stringify({ 'gone-turn': { text: 'Lost words', keep: [] } })), KEY);
    await page.reload();
    await expect.poll(() => keptEdits(s!)).toEqual({});
  });
});
