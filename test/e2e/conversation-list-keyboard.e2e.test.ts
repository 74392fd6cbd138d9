/**
 * The conversation list from the keyboard with a long history (the last closing note: every row's buttons were in
 * the Tab order, so with 200 chats a keyboard user pressed Tab hundreds of times to get past the list). The list is
 * now one Tab stop, a roving tabindex: Tab enters it on the open (or last focused) conversation, goes on to that
 * conversation's own buttons, then leaves the list; the arrows go from row to row.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Turn } from '../../src/shared/turn';
import { CONVERSATION_PAGE_DEFAULT } from '../../src/shared/ipc';
import { startSeededUi } from './helpers/seeded-ui';
import { modelOption } from './helpers/ui-session';

const COUNT = 200;
let cleanup: (() => Promise<void>) | undefined;

afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe('the conversation list from the keyboard', () => {
  it('is one Tab stop, entered on the open or last focused conversation, with its buttons reachable and the arrows moving', async () => {
    const ui = await startSeededUi((store) => {
      for (let i = 0; i < COUNT; i++) {
        const at = 1_000_000 + i * 1_000;
        store.createConversation(`c${i}`, `Chat ${i}`, 'llama3.2:3b', at);
        const turn: Turn = { id: `c${i}-u`, conversationId: `c${i}`, parentId: null, role: 'user', blocks: [{ type: 'text', text: `question ${i}` }], meta: {}, status: 'done', createdAt: at };
        store.appendTurn(turn, at);
      }
    });
    cleanup = ui.close;
    const { page } = ui;
    await modelOption(page, 'llama3.2:3b').waitFor({ state: 'attached' });
    const list = page.getByTestId('conversation-list');
    const items = page.getByTestId('conversation-item');
    const row = (id: string) => page.locator(`[data-testid="conversation-item"][data-conversation-id="${id}"]`);
    await expect.poll(() => items.count()).toBe(CONVERSATION_PAGE_DEFAULT);
    /** Where the focus is: a conversation as `row:<id>`, anything else by its test id (or its tag). */
    const focused = () =>
      page.evaluate(() => {
        const el = document.activeElement;
        const id = el?.getAttribute('data-conversation-id');
        return id ? `row:${id}` : (el?.getAttribute('data-testid') ?? el?.tagName.toLowerCase() ?? null);
      });
    // Rendered ones only: a row's More button (a phone's, a narrow window's) is in the page, not shown at this width.
    const inTabOrder = () => list.evaluate((ul) => [...ul.querySelectorAll<HTMLElement>('button, input')].filter((el) => el.tabIndex >= 0 && el.getClientRects().length > 0).map((el) => el.getAttribute('data-conversation-id') ?? el.getAttribute('data-testid')));

    // What a screen reader is told: the list's name, how to move in it.
    expect(await list.getAttribute('aria-label')).toBe('Conversations');
    const keysHelp = await list.getAttribute('aria-describedby');
    expect(await page.locator(`#${keysHelp}`).textContent()).toContain('Up and down arrows move between conversations');

    // No chat open: one conversation (the first) and its own buttons are all the list puts in the Tab order.
    expect(await inTabOrder()).toEqual(['c199', 'conversation-rename', 'conversation-export', 'conversation-export-md', 'conversation-delete']);

    // From the search box past the list to the message box: the list takes its first conversation and that one's
    // four buttons (before, every button of every row: 250 stops for the first page alone).
    await page.getByTestId('search-input').focus();
    const stops: (string | null)[] = [];
    for (let i = 0; i < 60 && stops.at(-1) !== 'composer-input'; i++) {
      await page.keyboard.press('Tab');
      stops.push(await focused());
    }
    expect(stops.at(-1)).toBe('composer-input');
    expect(stops.slice(0, 5)).toEqual(['row:c199', 'conversation-rename', 'conversation-export', 'conversation-export-md', 'conversation-delete']);
    expect(stops.filter((stop) => stop?.startsWith('row:'))).toEqual(['row:c199']);
    expect(stops.length).toBeLessThanOrEqual(15);

    // A chat opened far down: Tab enters the list on it, and a screen reader hears it is the current one.
    await row('c169').click();
    await expect.poll(() => page.locator('.topbar-title').textContent()).toBe('Chat 169');
    expect(await row('c169').getAttribute('aria-current')).toBe('true');
    await page.getByTestId('search-input').focus();
    await page.keyboard.press('Tab');
    await expect.poll(focused).toBe('row:c169');
    // Shift+Tab leaves the list upwards in one press.
    await page.keyboard.press('Shift+Tab');
    await expect.poll(focused).toBe('search-input');

    // The arrows move; the list, scrolled so the focused one is out of sight, keeps it as its Tab stop, and Tab
    // brings it back into sight with the focus.
    await row('c169').focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(focused).toBe('row:c168');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await expect.poll(focused).toBe('row:c170');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect.poll(focused).toBe('row:c168');
    const outOfSight = () => row('c168').evaluate((el) => {
      const box = el.getBoundingClientRect();
      const ul = el.closest('ul')!.getBoundingClientRect();
      return box.bottom <= ul.top || box.top >= ul.bottom;
    });
    await page.getByTestId('search-input').focus();
    await list.evaluate((ul) => ul.scrollTo(0, 0));
    await expect.poll(outOfSight).toBe(true);
    await page.keyboard.press('Tab');
    await expect.poll(focused).toBe('row:c168');
    await expect.poll(outOfSight).toBe(false);
    expect((await inTabOrder()).filter((id) => /^c\d+$/.test(id ?? ''))).toEqual(['c168']);

    // Its buttons, next with Tab: Rename opens the field for this conversation; Escape comes back to it.
    await page.keyboard.press('Tab');
    await expect.poll(focused).toBe('conversation-rename');
    await page.keyboard.press('Enter');
    const input = page.getByTestId('conversation-rename-input');
    await expect.poll(() => input.inputValue().catch(() => null)).toBe('Chat 168');
    await page.keyboard.press('Escape');
    await expect.poll(focused).toBe('row:c168');
    // Delete, four stops on, deletes this one (with Undo), and the next takes its place as the Tab stop.
    for (let i = 0; i < 4; i++) await page.keyboard.press('Tab');
    await expect.poll(focused).toBe('conversation-delete');
    await page.keyboard.press('Enter');
    await page.getByTestId('undo-toast').waitFor();
    await expect.poll(focused).toBe('row:c167');
    expect((await inTabOrder()).filter((id) => /^c\d+$/.test(id ?? ''))).toEqual(['c167']);

    // The list is not virtualised (its rows stay while out of sight) but reads older pages as it is scrolled: the
    // stop, kept by conversation, stays one and the same as a page comes in.
    await list.evaluate((ul) => ul.scrollTo(0, ul.scrollHeight));
    await expect.poll(() => items.count()).toBeGreaterThan(CONVERSATION_PAGE_DEFAULT);
    expect((await inTabOrder()).filter((id) => /^c\d+$/.test(id ?? ''))).toEqual(['c167']);
  });
});
