/**
 * Deleting chats one after another: each waits out the undo window hidden, and the toast offers Undo. A second delete
 * within the window replaced the toast ("Deleted “Tax questions”"), and the first chat's Undo was lost though it was
 * still only hidden, then deleted for good. Now the toast says "Deleted 2 conversations" and its Undo brings back
 * both; a delete restarts the window for every chat still waiting.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSeededUi } from './helpers/seeded-ui';
import { modelOption } from './helpers/ui-session';
import { SHOTS_DIR } from './helpers/screenshots';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

// Oldest first: the list shows them newest first.
const TITLES = ['Garden plan', 'Tax questions', 'Bread recipe', 'Trip to Oslo'];

describe('deleting several chats within the undo window', () => {
  it('offers one Undo that brings back every chat still waiting, the open one on screen again', async () => {
    const ui = await startSeededUi((store) => TITLES.forEach((title, i) => store.createConversation(`c${i}`, title, 'llama3.2:3b', 1_000_000 + i)));
    cleanup = ui.close;
    const { page } = ui;
    await modelOption(page, 'llama3.2:3b').waitFor({ state: 'attached' });
    const items = page.getByTestId('conversation-item');
    const titles = () => items.allTextContents();
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-conversation-id') ?? null);
    const heading = page.locator('.topbar-title');
    const toast = page.getByTestId('undo-toast');
    await expect.poll(titles).toEqual(['Trip to Oslo', 'Bread recipe', 'Tax questions', 'Garden plan']);

    // "Bread recipe" open, deleted from the keyboard, then "Tax questions", which took its place.
    await items.filter({ hasText: 'Bread recipe' }).click();
    await expect.poll(() => heading.textContent()).toBe('Bread recipe');
    await items.filter({ hasText: 'Bread recipe' }).focus();
    await page.keyboard.press('Delete');
    await expect.poll(() => toast.textContent()).toBe('Deleted “Bread recipe”Undo');
    await expect.poll(focused).toBe('c1');
    await page.keyboard.press('Delete');
    await expect.poll(titles).toEqual(['Trip to Oslo', 'Garden plan']);
    await expect.poll(() => toast.textContent()).toBe('Deleted 2 conversationsUndo');
    await page.screenshot({ path: `${SHOTS_DIR}/undo-several-1280.png` });

    // Undo: both back, the focus on the first one deleted, the chat that was open on screen again.
    await page.getByTestId('undo-delete').click();
    await expect.poll(titles).toEqual(['Trip to Oslo', 'Bread recipe', 'Tax questions', 'Garden plan']);
    await toast.waitFor({ state: 'detached' });
    await expect.poll(focused).toBe('c2');
    await expect.poll(() => heading.textContent()).toBe('Bread recipe');

    // On a phone, in the drawer: two deleted and not taken back go for good once the window ends, the others kept.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('sidebar-toggle').click();
    await page.getByTestId('new-chat').waitFor({ state: 'visible' });
    await page.waitForFunction(() => document.getAnimations().length === 0);
    await items.filter({ hasText: 'Trip to Oslo' }).focus();
    await page.keyboard.press('Delete');
    await expect.poll(focused).toBe('c2');
    await page.keyboard.press('Delete');
    await expect.poll(() => toast.textContent()).toBe('Deleted 2 conversationsUndo');
    await page.screenshot({ path: `${SHOTS_DIR}/undo-several-390.png` });
    await toast.waitFor({ state: 'detached' });
    const kept = () => page.evaluate(() => window.firebrand.conversations.list({}).then((list) => list.map((c) => c.title)));
    await expect.poll(kept).toEqual(['Tax questions', 'Garden plan']);
    expect(await titles()).toEqual(['Tax questions', 'Garden plan']);
  });
});
