/**
 * A long history in the conversation list (issue 20): the list starts with one page, reads the next as the
 * reader scrolls to its end until every conversation is there (once, newest first), keeps what it holds when a
 * conversation moves to the top, and a conversation opened from a search hit far down is titled.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Turn } from '../../src/shared/turn';
import { CONVERSATION_PAGE_DEFAULT } from '../../src/shared/ipc';
import { startSeededUi } from './helpers/seeded-ui';
import { modelOption, send, waitIdle } from './helpers/ui-session';

const COUNT = 130;
let cleanup: (() => Promise<void>) | undefined;

afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe('a long conversation list', () => {
  it('starts with a page, reads the rest as it is scrolled, keeps it when one moves up, and titles one opened from far down', async () => {
    const ui = await startSeededUi((store) => {
      for (let i = 0; i < COUNT; i++) {
        // Pairs updated in the same millisecond, as an import leaves them: the pages must not skip or repeat one.
        const at = 1_000_000 + Math.floor(i / 2) * 1_000;
        store.createConversation(`c${i}`, `Chat ${i}`, 'llama3.2:3b', at);
        const turn: Turn = { id: `c${i}-u`, conversationId: `c${i}`, parentId: null, role: 'user', blocks: [{ type: 'text', text: `question ${i} about topic${i}x` }], meta: {}, status: 'done', createdAt: at };
        store.appendTurn(turn, at);
      }
    }, ['Moved', ' up.']);
    cleanup = ui.close;
    const { page } = ui;
    await modelOption(page, 'llama3.2:3b').waitFor({ state: 'attached' });
    const items = page.getByTestId('conversation-item');
    const more = page.getByTestId('conversation-list-more');
    const titles = () => items.evaluateAll((els) => els.map((e) => e.textContent));

    // One page at start, the newest first, and a sign that there are more.
    await expect.poll(() => items.count()).toBe(CONVERSATION_PAGE_DEFAULT);
    expect((await titles()).slice(0, 3)).toEqual([`Chat ${COUNT - 1}`, `Chat ${COUNT - 2}`, `Chat ${COUNT - 3}`]);
    expect(await more.isVisible()).toBe(true);

    // Scrolled to the end until the list has no more: every conversation, once, in order.
    await expect
      .poll(async () => {
        await page.getByTestId('conversation-list').evaluate((list) => list.scrollTo(0, list.scrollHeight));
        return more.count();
      })
      .toBe(0);
    const all = Array.from({ length: COUNT }, (_, i) => `Chat ${COUNT - 1 - i}`);
    expect(await titles()).toEqual(all);

    // The oldest gets a message: it moves to the top, and the list still holds every conversation.
    await items.last().click();
    await expect.poll(() => page.locator('.topbar-title').textContent()).toBe('Chat 0');
    await send(page, 'One more question');
    await waitIdle(page);
    await expect.poll(async () => (await titles())[0]).toBe('Chat 0');
    expect(await titles()).toEqual(['Chat 0', ...all.slice(0, -1)]);

    // After a reload only the first page is held again; a search hit further down opens with its title.
    await page.reload();
    await expect.poll(() => items.count()).toBe(CONVERSATION_PAGE_DEFAULT);
    await page.getByTestId('search-input').fill('topic7x');
    await page.getByTestId('search-result').click();
    await expect.poll(() => page.locator('.topbar-title').textContent()).toBe('Chat 7');
  });
});
