/**
 * A conversation's row on a phone (a touch screen, 360 and 390 px wide) and in a narrow window. Its Rename, Export,
 * Markdown and Delete were four 32 px buttons always shown there (touch has no hover to show them on), which left
 * the title about 140 px: "Chat number 10 a…" on every row, so chats named alike could not be told apart. One More
 * (⋯) button now holds them in a menu, reached by touch and by keyboard; a desktop with a mouse keeps its four
 * buttons on hover and focus (conversation-titles.e2e.test.ts).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startSeededUi } from './helpers/seeded-ui';
import { modelOption } from './helpers/ui-session';
import { BACKSTOP_MS } from './helpers/browser';
import { SHOTS_DIR } from './helpers/screenshots';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

const TITLES = Array.from({ length: 5 }, (_, i) => `Chat number ${10 + i} about the shed`);

/** axe-core's serious and critical findings for the page as it is now. */
async function violations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  });
}

async function seeded(titles = TITLES): Promise<Page> {
  const ui = await startSeededUi((store) => titles.forEach((title, i) => store.createConversation(`c${i}`, title, 'llama3.2:3b', 1_000_000 + i)));
  cleanup = ui.close;
  await modelOption(ui.page, 'llama3.2:3b').waitFor({ state: 'attached' });
  await ui.page.getByTestId('conversation-item').first().waitFor();
  return ui.page;
}

/** A touch screen `width` wide, its list shown (a drawer opened where the window is narrow). */
async function phone(desktop: Page, width: number): Promise<Page> {
  const browser = desktop.context().browser();
  if (!browser) throw new Error('no browser');
  const page = await browser.newPage({ viewport: { width, height: 800 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
  page.setDefaultTimeout(BACKSTOP_MS);
  await page.goto(desktop.url());
  await modelOption(page, 'llama3.2:3b').waitFor({ state: 'attached' });
  if (width <= 860) await page.getByTestId('sidebar-toggle').tap();
  await page.getByTestId('new-chat').waitFor({ state: 'visible' });
  await page.waitForFunction(() => document.getAnimations().length === 0);
  return page;
}

const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? null);
const row = (page: Page, title: string) => page.locator('li.conversation-row', { has: page.getByTestId('conversation-item').getByText(title, { exact: true }) });

describe('a conversation’s row on a phone', () => {
  for (const width of [360, 390]) {
    it(`gives the title the row and holds Rename, Export, Markdown and Delete in a More menu at ${width} px`, async () => {
      const desktop = await seeded();
      const page = await phone(desktop, width);

      // Each row: its title whole, and one button beside it (More), not four.
      const rows = await page.locator('li.conversation-row').evaluateAll((lis) =>
        lis.map((li) => {
          const title = li.querySelector<HTMLElement>('[data-testid="conversation-item"]')!;
          const shown = [...li.querySelectorAll<HTMLElement>('button')].filter((b) => b !== title && b.getClientRects().length > 0 && getComputedStyle(b).visibility !== 'hidden' && getComputedStyle(b).opacity !== '0');
          return { text: title.textContent, cut: title.scrollWidth > title.clientWidth, title: title.getBoundingClientRect().width, row: li.getBoundingClientRect().width, buttons: shown.map((b) => b.getAttribute('data-testid')) };
        }),
      );
      expect(rows.length).toBe(TITLES.length);
      for (const r of rows) {
        expect(r.buttons, `${r.text}`).toEqual(['conversation-more']);
        expect(r.cut, `“${r.text}” is cut short at ${width} px`).toBe(false);
        expect(r.title, `${r.text}`).toBeGreaterThanOrEqual(r.row - 40);
      }

      await page.screenshot({ path: `${SHOTS_DIR}/conversation-row-phone-${width}.png` });

      // Tapped, More opens a menu of the four, the focus on the first; arrows, Home and End move in it (and round).
      const target = row(page, TITLES[2]!);
      const more = target.getByTestId('conversation-more');
      expect(await more.getAttribute('aria-label')).toBe(`More actions for ${TITLES[2]}`);
      expect(await more.getAttribute('aria-haspopup')).toBe('menu');
      await more.tap();
      const menu = page.getByRole('menu');
      await menu.waitFor();
      expect(await more.getAttribute('aria-expanded')).toBe('true');
      expect(await menu.getByRole('menuitem').allTextContents()).toEqual(['Rename', 'Export', 'Export as Markdown', 'Delete']);
      await expect.poll(() => focused(page)).toBe('conversation-menu-rename');
      await page.keyboard.press('ArrowDown');
      expect(await focused(page)).toBe('conversation-menu-export');
      await page.keyboard.press('End');
      expect(await focused(page)).toBe('conversation-menu-delete');
      await page.keyboard.press('ArrowDown');
      expect(await focused(page)).toBe('conversation-menu-rename');
      await page.keyboard.press('ArrowUp');
      expect(await focused(page)).toBe('conversation-menu-delete');
      await page.keyboard.press('Home');
      expect(await focused(page)).toBe('conversation-menu-rename');
      // The menu lies within the drawer.
      const box = await menu.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= width).toBe(true);

      // No serious axe finding on the open menu, in either theme; pictures of it.
      for (const scheme of ['dark', 'light'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(scheme);
        expect(await violations(page), scheme).toEqual([]);
        await page.screenshot({ path: `${SHOTS_DIR}/conversation-row-menu-${scheme}-${width}.png` });
      }

      // Escape closes it, the focus back on More; the drawer stays open.
      await page.keyboard.press('Escape');
      await menu.waitFor({ state: 'detached' });
      expect(await focused(page)).toBe('conversation-more');
      expect(await more.getAttribute('aria-expanded')).toBe('false');
      expect(await page.getByTestId('new-chat').isVisible()).toBe(true);

      // A tap outside closes it.
      await more.tap();
      await menu.waitFor();
      await page.locator('.sidebar-head .brand').tap();
      await menu.waitFor({ state: 'detached' });
      expect(await page.getByTestId('new-chat').isVisible()).toBe(true);

      // Rename from it: the field, with the title.
      await more.tap();
      await page.getByTestId('conversation-menu-rename').tap();
      const input = page.getByTestId('conversation-rename-input');
      expect(await input.inputValue()).toBe(TITLES[2]);
      await input.fill('Chat number 12 about the roses');
      await page.keyboard.press('Enter');
      const renamed = row(page, 'Chat number 12 about the roses');
      await renamed.waitFor();

      // Export from it: the file downloads, the focus back on More.
      await renamed.getByTestId('conversation-more').tap();
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('conversation-menu-export-md').tap()]);
      expect(download.suggestedFilename()).toMatch(/\.md$/);
      await page.getByRole('menu').waitFor({ state: 'detached' });

      // Delete from it: gone, with Undo.
      await renamed.getByTestId('conversation-more').tap();
      await page.getByTestId('conversation-menu-delete').tap();
      await expect.poll(() => page.getByTestId('conversation-item').count()).toBe(TITLES.length - 1);
      await page.getByTestId('undo-toast').waitFor();
      await page.close();
    });
  }

  it('is reached by keyboard in a narrow window, and a desktop keeps its four buttons', async () => {
    const page = await seeded();
    // A desktop: no More button, the four on hover as before.
    await page.mouse.move(900, 400);
    expect(await page.getByTestId('conversation-more').first().isVisible()).toBe(false);
    await page.getByTestId('conversation-item').first().hover();
    expect(await page.getByTestId('conversation-rename').first().isVisible()).toBe(true);
    for (const scheme of ['dark', 'light'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(scheme);
      await page.screenshot({ path: `${SHOTS_DIR}/conversation-row-desktop-${scheme}-1280.png` });
    }

    // Narrow, with a keyboard: Tab from the title goes to More; Enter opens the menu on its first item; Tab closes it.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('sidebar-toggle').click();
    await page.getByTestId('new-chat').waitFor({ state: 'visible' });
    await page.getByTestId('conversation-item').first().focus();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('conversation-more');
    await page.keyboard.press('Enter');
    await page.getByRole('menu').waitFor();
    await expect.poll(() => focused(page)).toBe('conversation-menu-rename');
    await page.keyboard.press('Tab');
    await page.getByRole('menu').waitFor({ state: 'detached' });
    expect(await focused(page)).not.toBe('BODY');
    // Enter on an item does it: Rename.
    await page.getByTestId('conversation-more').first().focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe('conversation-menu-rename');
    await page.keyboard.press('Enter');
    await page.getByTestId('conversation-rename-input').waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => focused(page)).toBe('conversation-item');
    // ArrowDown on More opens it on its first item, ArrowUp on its last (WAI-ARIA's menu button); the list's arrows,
    // which move among the conversations, do not take them.
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('conversation-more');
    await page.keyboard.press('ArrowDown');
    await page.getByRole('menu').waitFor();
    await expect.poll(() => focused(page)).toBe('conversation-menu-rename');
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'detached' });
    expect(await focused(page)).toBe('conversation-more');
    await page.keyboard.press('ArrowUp');
    await page.getByRole('menu').waitFor();
    await expect.poll(() => focused(page)).toBe('conversation-menu-delete');
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'detached' });
    // Wide again: the four buttons, no More.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByTestId('conversation-item').first().hover();
    expect(await page.getByTestId('conversation-more').first().isVisible()).toBe(false);
    expect(await page.getByTestId('conversation-delete').first().isVisible()).toBe(true);
  });

  // The last rows' menu opened below them and the list scrolled it into view, moving the rows; now it opens above
  // where there is no room below, on a phone, in a short narrow window and on a touch tablet.
  it('opens the menu of the last rows above them, within the list and the window, without scrolling the list', async () => {
    const desktop = await seeded(Array.from({ length: 30 }, (_, i) => `Chat number ${10 + i} about the shed`));
    const screens = [
      { width: 390, touch: true },
      { width: 800, touch: false },
      { width: 1280, touch: true },
    ];
    for (const { width, touch } of screens) {
      let page = desktop;
      if (touch) page = await phone(desktop, width);
      else {
        // A short narrow window: the drawer's list about 300 px high.
        await page.setViewportSize({ width, height: 560 });
        await page.getByTestId('sidebar-toggle').click();
        await page.getByTestId('new-chat').waitFor({ state: 'visible' });
        await page.waitForFunction(() => document.getAnimations().length === 0);
      }
      const list = page.locator('ul.conversation-list');
      const rows = page.locator('li.conversation-row');
      const menu = page.getByRole('menu');
      const openMenu = async (at: 'first' | 'last') => {
        const more = (at === 'first' ? rows.first() : rows.last()).getByTestId('conversation-more');
        await (touch ? more.tap() : more.click());
        await menu.waitFor();
        await expect.poll(() => focused(page)).toBe('conversation-menu-rename');
        return { menu: (await menu.boundingBox())!, row: (await (at === 'first' ? rows.first() : rows.last()).boundingBox())!, list: (await list.boundingBox())! };
      };
      const closeMenu = async () => {
        await page.keyboard.press('Escape');
        await menu.waitFor({ state: 'detached' });
      };

      // The last row, the list scrolled to its end: above it, whole in the list and the window; the list not moved.
      const scrolled = await list.evaluate((ul) => (ul.scrollTop = ul.scrollHeight - ul.clientHeight));
      expect(scrolled, `the list fills the window at ${width} px`).toBeGreaterThan(0);
      const last = await openMenu('last');
      expect(last.menu.y + last.menu.height, `${width} px`).toBeLessThanOrEqual(last.row.y + 3);
      expect(last.menu.y, `${width} px`).toBeGreaterThanOrEqual(Math.max(0, last.list.y));
      expect(await list.evaluate((ul) => ul.scrollTop), `${width} px`).toBe(scrolled);
      await page.screenshot({ path: `${SHOTS_DIR}/conversation-row-menu-up-${width}.png` });
      await closeMenu();

      // The first row, the list at its start: below it as before, whole in the window.
      await list.evaluate((ul) => (ul.scrollTop = 0));
      const first = await openMenu('first');
      expect(first.menu.y, `${width} px`).toBeGreaterThanOrEqual(first.row.y + first.row.height - 3);
      expect(first.menu.y + first.menu.height, `${width} px`).toBeLessThanOrEqual(page.viewportSize()!.height);
      expect(await list.evaluate((ul) => ul.scrollTop), `${width} px`).toBe(0);
      await closeMenu();
      if (touch) await page.close();
    }
  });
});
