/**
 * Titles in the conversation list at a desktop's width. A row's Rename, Export, Markdown and Delete were hidden
 * (opacity 0) but kept their room, so every title was cut to about half the sidebar even with the mouse elsewhere:
 * with hundreds of chats named "Chat about topic 12 …" the list read "Chat about t…" on every row, and none could
 * be told from another. A row now gives its title the whole width while its buttons are hidden, and makes room for
 * them when they show (hover, the focus in the row, the open chat).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startSeededUi } from './helpers/seeded-ui';
import { modelOption } from './helpers/ui-session';
import { shootAtBothWidths } from './helpers/screenshots';

let cleanup: (() => Promise<void>) | undefined;

afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

const TITLES = ['Trip to Lisbon in May', 'Sourdough starter log', 'Quarterly tax notes', 'Kitchen sink repair plan'];

/** The row's title and its buttons as the page lays them out. */
function rowLayout(page: Page, title: string) {
  return page.locator('li.conversation-row', { has: page.getByTestId('conversation-item').getByText(title, { exact: true }) }).evaluate((row) => {
    const titleEl = row.querySelector<HTMLElement>('[data-testid="conversation-item"]')!;
    const actions = row.querySelector<HTMLElement>('.row-actions')!;
    return {
      cut: titleEl.scrollWidth > titleEl.clientWidth,
      titleRight: titleEl.getBoundingClientRect().right,
      actionsLeft: actions.getBoundingClientRect().left,
      shown: getComputedStyle(actions).opacity === '1',
    };
  });
}

describe('the conversation list on a desktop', () => {
  it('shows each title whole while its buttons are hidden, and keeps the title clear of them when they show', async () => {
    const ui = await startSeededUi((store) => {
      TITLES.forEach((title, i) => store.createConversation(`c${i}`, title, 'llama3.2:3b', 1_000_000 + i));
    });
    cleanup = ui.close;
    const { page } = ui;
    await modelOption(page, 'llama3.2:3b').waitFor({ state: 'attached' });
    await page.getByTestId('conversation-item').first().waitFor();
    await page.mouse.move(900, 400);

    // No chat open, the mouse away: every title fits, none cut behind buttons that are not there to see.
    for (const title of TITLES) {
      const row = await rowLayout(page, title);
      expect(row.shown, title).toBe(false);
      expect(row.cut, `“${title}” is cut short`).toBe(false);
    }

    // Hovered, and open: the buttons show beside the title, not over it.
    const hovered = TITLES[1]!;
    await page.getByTestId('conversation-item').getByText(hovered, { exact: true }).hover();
    await expect.poll(async () => (await rowLayout(page, hovered)).shown).toBe(true);
    const row = await rowLayout(page, hovered);
    expect(row.titleRight).toBeLessThanOrEqual(row.actionsLeft + 0.5);

    const opened = TITLES[2]!;
    await page.getByTestId('conversation-item').getByText(opened, { exact: true }).click();
    await expect.poll(() => page.locator('.topbar-title').textContent()).toBe(opened);
    await page.mouse.move(900, 400);
    const open = await rowLayout(page, opened);
    expect(open.shown).toBe(true);
    expect(open.titleRight).toBeLessThanOrEqual(open.actionsLeft + 0.5);
    // The others still whole.
    expect((await rowLayout(page, TITLES[0]!)).cut).toBe(false);

    await shootAtBothWidths(page, 'conversation-titles-whole');
  });
});
