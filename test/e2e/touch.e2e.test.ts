/**
 * Firebrand opened from a phone or a tablet (serve mode on the LAN): a touch screen, an on-screen keyboard, no
 * hover. Each page here is emulated as one (hasTouch, isMobile: the `(hover: none)` and `(pointer: coarse)` media
 * match), and is driven by taps.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { TAGS_BODY } from '../replay-server/ollama-wire';
import { chatRequests, chatRoutes, modelOption, ollamaLines, pickModel, send, startUi, stopUi, USER, waitIdle, type UiSession } from './helpers/ui-session';
import { BACKSTOP_MS } from './helpers/browser';
import { tinyPng } from './helpers/png';
import { shootAtBothWidths } from './helpers/screenshots';

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 3 };
const TABLET = { viewport: { width: 768, height: 1024 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };
const TABLET_LANDSCAPE = { viewport: { width: 1024, height: 768 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };

let s: UiSession | undefined;
beforeAll(async () => {
  // A model that can think, as most a user picks today do: the composer's row then holds the Think toggle too.
  const show = { method: 'POST', path: '/api/show', body: JSON.stringify({ capabilities: ['completion', 'tools', 'thinking'] }) };
  s = await startUi([...chatRoutes(ollamaLines([{ content: 'Short answer.' }])), show]);
});
afterAll(async () => {
  await stopUi(s);
});

/** At least two conversations, made from the desktop page. */
async function twoChats(): Promise<void> {
  if (!s) throw new Error('no session');
  const desktop = s.page;
  while ((await desktop.getByTestId('conversation-item').count()) < 2) {
    const before = await desktop.getByTestId('conversation-item').count();
    await desktop.getByTestId('new-chat').click();
    await send(desktop, `Chat ${before + 1}`);
    await waitIdle(desktop);
    await expect.poll(() => desktop.getByTestId('conversation-item').count()).toBe(before + 1);
  }
}

async function touchPage(options: typeof PHONE): Promise<Page> {
  if (!s) throw new Error('no session');
  const page = await s.browser.newPage(options);
  page.setDefaultTimeout(BACKSTOP_MS);
  await page.goto(s.serve.url);
  await modelOption(page, 'llama3.2:3b').waitFor({ state: 'attached' });
  return page;
}

/** The last user message of each chat request the server received. */
function sentLast(replay: UiSession['replay']): string[] {
  return chatRequests(replay).map((r) => r.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '');
}

describe('on a touch screen', () => {
  // Touch audit #1: the on-screen keyboard has no Shift+Enter, so a phone user could not write a second line:
  // its return key sent the half-written message.
  it('the return key adds a line to the message and to an edit; Send and Ctrl+Enter send', async () => {
    if (!s) throw new Error('no session');
    const { replay } = s;
    const page = await touchPage(PHONE);
    try {
      const before = sentLast(replay).length;
      const input = page.getByTestId('composer-input');
      await input.tap();
      await page.keyboard.type('First line');
      await page.keyboard.press('Enter');
      await page.keyboard.type('Second line');
      expect(await input.inputValue()).toBe('First line\nSecond line');
      expect(sentLast(replay).length).toBe(before);
      await page.getByTestId('composer-send').tap();
      await expect.poll(() => sentLast(replay).includes('First line\nSecond line')).toBe(true);
      await waitIdle(page);

      await page.getByTestId('turn-edit').tap();
      const edit = page.getByTestId('turn-edit-input');
      await edit.waitFor();
      await page.keyboard.press('Control+End');
      await page.keyboard.press('Enter');
      await page.keyboard.type('Third line');
      expect(await edit.inputValue()).toBe('First line\nSecond line\nThird line');
      expect(sentLast(replay).includes('First line\nSecond line\nThird line')).toBe(false);
      await page.getByTestId('turn-edit-send').tap();
      await expect.poll(() => sentLast(replay).includes('First line\nSecond line\nThird line')).toBe(true);
      await waitIdle(page);
      await expect.poll(() => page.locator(USER).last().getByTestId('user-text').textContent()).toBe('First line\nSecond line\nThird line');

      // A tablet's keyboard sends with Ctrl+Enter.
      await input.tap();
      await page.keyboard.type('Sent from a keyboard');
      await page.keyboard.press('Control+Enter');
      await expect.poll(() => sentLast(replay).includes('Sent from a keyboard')).toBe(true);
      await waitIdle(page);
    } finally {
      await page.close();
    }
  });
});

describe('on a touch screen, Send', () => {
  // Sent from the keyboard, the message box takes the focus Send had (a11y.e2e); tapped on a phone, it does not,
  // or the on-screen keyboard would come up over the answer as it arrives.
  it('leaves the focus out of the message box, so the on-screen keyboard stays down', async () => {
    if (!s) throw new Error('no session');
    const { replay } = s;
    const page = await touchPage(PHONE);
    try {
      const input = page.getByTestId('composer-input');
      await input.tap();
      await page.keyboard.type('Tapped, not typed');
      await page.getByTestId('composer-send').tap();
      await expect.poll(() => sentLast(replay).includes('Tapped, not typed')).toBe(true);
      await waitIdle(page);
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName)).not.toBe('composer-input');
    } finally {
      await page.close();
    }
  });
});

describe('on a touch screen, a new chat', () => {
  // The first-run hunt: a phone's new chat listed keyboard shortcuts ("Ctrl N new chat · … · ? all shortcuts"),
  // wrapped over two lines, for a screen with no keyboard.
  it('lists no keyboard shortcuts; a desktop’s does', async () => {
    if (!s) throw new Error('no session');
    const page = await touchPage(PHONE);
    try {
      await page.locator('.topbar-new').tap();
      await page.locator('.empty-hint').waitFor();
      expect(await page.locator('.empty-hint .shortcuts').isVisible()).toBe(false);
    } finally {
      await page.close();
    }
    await s.page.getByTestId('new-chat').click();
    await s.page.locator('.empty-hint').waitFor();
    expect(await s.page.locator('.empty-hint .shortcuts').isVisible()).toBe(true);
  });
});

describe('on a phone', () => {
  // Touch audit #8: the system's back (Android's button or gesture, an edge swipe) with the drawer open left
  // Firebrand for the page before it, where an app closes its drawer.
  it('closes the drawer with the browser’s back, and leaves no history entry when it closes another way', async () => {
    await twoChats();
    const page = await touchPage(PHONE);
    try {
      const url = page.url();
      const toggle = page.getByTestId('sidebar-toggle');
      await toggle.tap();
      await page.getByTestId('new-chat').waitFor({ state: 'visible' });
      await page.goBack();
      await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
      expect(page.url()).toBe(url);
      expect(await page.getByTestId('composer-input').isVisible()).toBe(true);

      // Closed by a choice: its entry comes off again, so one back from here leaves as it did before the drawer.
      await toggle.tap();
      await page.getByTestId('new-chat').waitFor({ state: 'visible' });
      await page.getByTestId('conversation-item').first().tap();
      await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
      await expect.poll(() => page.evaluate(() => history.state as unknown)).toBeNull();
    } finally {
      await page.close();
    }
  });

  // Phone audit: Models opened from the drawer left the drawer open behind it; closed, the dialog gave back the
  // drawer over the chat, not the chat (and the focus was lost to the page). Settings closes the drawer; both do.
  it('closes the drawer when Models or Settings opens from it, so closing the dialog shows the chat', async () => {
    const page = await touchPage(PHONE);
    try {
      const toggle = page.getByTestId('sidebar-toggle');
      const dialogs = [
        { open: 'models-open', dialog: 'models-screen', close: 'models-close' },
        { open: 'settings-open', dialog: 'settings-dialog', close: null },
      ] as const;
      for (const { open, dialog, close } of dialogs) {
        await toggle.tap();
        await page.getByTestId('new-chat').waitFor({ state: 'visible' });
        await page.getByTestId(open).tap();
        await page.getByTestId(dialog).waitFor();
        expect(await toggle.getAttribute('aria-expanded'), `${dialog} open`).toBe('false');
        if (close) await page.getByTestId(close).tap();
        else await page.keyboard.press('Escape');
        await page.getByTestId(dialog).waitFor({ state: 'detached' });
        await page.getByTestId('new-chat').waitFor({ state: 'hidden' });
        // The chat is in front and takes a tap (not inert behind a drawer), and the focus is not lost to <body>.
        expect(await page.locator('.scrim').count(), `${dialog} closed`).toBe(0);
        await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName)).toBe('sidebar-toggle');
        await page.getByTestId('composer-input').tap();
        await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('composer-input');
      }
    } finally {
      await page.close();
    }
  });

  // Touch audit #3: Enter in the rename field (the on-screen keyboard's return key, or a real one) also clicked the
  // conversation the focus went back to: that chat opened, and on a phone the drawer closed over it.
  it('renames a conversation in the drawer with the return key, leaving the drawer open and the open chat as it was', async () => {
    await twoChats();
    const page = await touchPage(PHONE);
    try {
      const items = page.getByTestId('conversation-item');
      await page.getByTestId('sidebar-toggle').tap();
      await page.getByTestId('new-chat').waitFor({ state: 'visible' });
      await expect.poll(() => items.count()).toBeGreaterThanOrEqual(2);
      await items.first().tap();
      await page.getByTestId('new-chat').waitFor({ state: 'hidden' });
      const open = await page.locator('[data-testid="conversation-item"][aria-current="true"]').getAttribute('data-conversation-id');
      await page.getByTestId('sidebar-toggle').tap();
      await page.getByTestId('new-chat').waitFor({ state: 'visible' });
      const other = await items.nth(1).getAttribute('data-conversation-id');
      const row = page.locator(`li:has([data-conversation-id="${other}"])`);
      // Through the row's More menu: a phone's row has one button, so its title has the room (conversation-row-phone).
      await row.getByTestId('conversation-more').tap();
      await page.getByTestId('conversation-menu-rename').tap();
      const input = page.getByTestId('conversation-rename-input');
      await input.fill('Renamed on the phone');
      await page.keyboard.press('Enter');
      await expect.poll(() => row.getByTestId('conversation-item').textContent()).toBe('Renamed on the phone');
      expect(await page.getByTestId('sidebar-toggle').getAttribute('aria-expanded')).toBe('true');
      expect(await page.locator('[data-testid="conversation-item"][aria-current="true"]').getAttribute('data-conversation-id')).toBe(open);
    } finally {
      await page.close();
    }
  });

  // Touch audit #2: with the controls' row allowed to wrap (for an alias's think note, models audit #8), a row
  // breaks on each control's basis, and the picker's is its full 15rem: Send went to a second row, at the left.
  // With a model that can think, the Think toggle took the room back and Send dropped again: it is an icon alone
  // on a phone now, and keeps its name for a screen reader.
  for (const width of [360, 390]) {
    it(`keeps Send on the controls’ row, at its right end, at ${width} px`, async () => {
      const page = await touchPage({ ...PHONE, viewport: { width, height: 800 } });
      try {
        await page.getByTestId('think-toggle').waitFor();
        // All three read in one frame: read one at a time, the page could lay out again between them (a notice or the
        // model list arriving moves the whole composer), which once read Attach 42 px above Send in CI (ci-123).
        const [attach, send, box] = await page.evaluate(() =>
          ['.attach-button', '[data-testid="composer-send"]', '.composer-box'].map((sel) => {
            const r = document.querySelector(sel)?.getBoundingClientRect();
            return r ? { x: r.x, y: r.y, width: r.width, height: r.height } : null;
          }),
        );
        if (!attach || !send || !box) throw new Error('composer not laid out');
        expect(Math.abs(attach.y + attach.height / 2 - (send.y + send.height / 2))).toBeLessThan(2);
        expect(box.x + box.width - (send.x + send.width)).toBeLessThan(16);
        expect(await page.getByRole('button', { name: 'Send' }).getAttribute('data-testid')).toBe('composer-send');
        // The picker still shows a name.
        expect((await page.getByTestId('model-picker').boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(100);
      } finally {
        await page.close();
      }
    });
  }
});

/** The text fields on screen whose text is smaller than 16 px, named by test id or label. */
function smallFields(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('input, textarea, select')]
      .filter((el) => !['checkbox', 'radio', 'file', 'range', 'hidden'].includes(el.getAttribute('type') ?? '') && el.checkVisibility())
      .filter((el) => parseFloat(getComputedStyle(el).fontSize) < 16)
      .map((el) => `${el.getAttribute('data-testid') ?? el.getAttribute('aria-label') ?? el.tagName} ${getComputedStyle(el).fontSize}`),
  );
}

describe('on a touch screen, text fields', () => {
  // Touch audit #5: Safari on iOS zooms the page into a field whose text is under 16 px when it gets the focus, and
  // does not zoom back: the message box (15 px), the model picker (13 px), search and every other field (14 px).
  it('have text of at least 16 px, so a phone does not zoom in when one is tapped', async () => {
    const page = await touchPage(PHONE);
    try {
      expect(await smallFields(page), 'chat').toEqual([]);
      await page.getByTestId('conversation-settings-open').tap();
      await page.getByTestId('conversation-settings').waitFor();
      expect(await smallFields(page), 'chat settings').toEqual([]);
      await page.getByRole('button', { name: 'Cancel' }).tap();
      await page.getByTestId('sidebar-toggle').tap();
      await page.getByTestId('new-chat').waitFor({ state: 'visible' });
      expect(await smallFields(page), 'drawer').toEqual([]);
      await page.getByTestId('settings-open').tap();
      await page.getByTestId('settings-dialog').waitFor();
      expect(await smallFields(page), 'settings').toEqual([]);
    } finally {
      await page.close();
    }
  });
});

/** Buttons and disclosure summaries on screen smaller than 24x24 CSS px (WCAG 2.5.8's minimum target). */
function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('button, summary, a')]
      .filter((el) => el.checkVisibility({ visibilityProperty: true }))
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && (box.width < 24 || box.height < 24))
      .map(({ el, box }) => `${el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 30)} ${Math.round(box.width)}x${Math.round(box.height)}`),
  );
}

describe('on a phone, what is tapped', () => {
  // Touch audit #6: an attachment's remove × was 22x22 and sits on the thumbnail's own open button (a tap a little
  // off opened the picture instead); a file's name (its preview) and "Thought for…" were 19 px high.
  it('is at least 24x24 px: attachments waiting to be sent, the reasoning’s fold, an answer’s buttons', async () => {
    if (!s) throw new Error('no session');
    const page = await touchPage(PHONE);
    try {
      await page.getByTestId('attach-input').setInputFiles([
        { name: 'photo.png', mimeType: 'image/png', buffer: tinyPng() },
        { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Some notes to read.') },
      ]);
      await expect.poll(() => page.getByRole('button', { name: /^Remove / }).count()).toBe(2);
      await page.locator('.chip-name').waitFor();
      expect(await smallTargets(page), 'attachments').toEqual([]);
      await page.getByRole('button', { name: 'Remove photo.png' }).tap();
      await page.getByRole('button', { name: 'Remove notes.txt' }).tap();

      s.replay.setRoutes(chatRoutes(ollamaLines([{ thinking: 'Weighing it up.' }, { content: 'Short answer.' }])));
      await page.getByTestId('composer-input').fill('Think first');
      await page.getByTestId('composer-send').tap();
      await waitIdle(page);
      await page.getByTestId('reasoning-summary').waitFor();
      expect(await smallTargets(page), 'an answer').toEqual([]);
    } finally {
      s.replay.setRoutes(chatRoutes(ollamaLines([{ content: 'Short answer.' }])));
      await page.close();
    }
  });
});

/** What `selector` finds on screen that is under 32 CSS px either way: a finger's target, where several sit side by side. */
function under32(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((els) =>
    els
      .filter((el) => el.checkVisibility({ visibilityProperty: true }))
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      // Half a pixel for a box that is sliding in (the drawer), laid out on fractions of one.
      .filter(({ box }) => box.width < 31.5 || box.height < 31.5)
      .map(({ el, box }) => `${el.getAttribute('data-testid') ?? el.textContent?.trim().slice(0, 30)} ${Math.round(box.width)}x${Math.round(box.height)}`),
  );
}

describe('on a phone, buttons side by side', () => {
  // Phone audit #3: a chat's rename, export, Markdown export and delete were four 26 px buttons in a row in the
  // drawer, an answer's copy beside its regenerate, a code block's Copy 24 px high, the theme's choices 19 px high.
  it('are at least 32x32 px: an answer’s and a code block’s buttons, a chat’s in the drawer, Settings’ choices', async () => {
    if (!s) throw new Error('no session');
    await twoChats();
    const page = await touchPage(PHONE);
    try {
      s.replay.setRoutes(chatRoutes(ollamaLines([{ content: 'Run it:\n\n```bash\nollama ps\n```\n' }])));
      await page.getByTestId('composer-input').fill('How do I see what is loaded?');
      await page.getByTestId('composer-send').tap();
      await waitIdle(page);
      await page.locator('.code-copy').waitFor();
      expect(await under32(page, '[data-testid="copy-answer"], [data-testid="regenerate"], [data-testid="turn-edit"], .code-copy'), 'an answer').toEqual([]);

      await page.getByTestId('sidebar-toggle').tap();
      await page.getByTestId('new-chat').waitFor({ state: 'visible' });
      await page.waitForFunction(() => document.getAnimations().length === 0);
      expect(await under32(page, '[data-testid="conversation-more"]'), 'the drawer').toEqual([]);
      await page.getByTestId('conversation-more').first().tap();
      await page.getByRole('menu').waitFor();
      expect(await under32(page, '[role="menuitem"]'), 'a chat’s menu').toEqual([]);
      await page.keyboard.press('Escape');
      await page.getByRole('menu').waitFor({ state: 'detached' });
      await page.getByTestId('settings-open').tap();
      await page.getByTestId('settings-dialog').waitFor();
      expect(await under32(page, '[data-testid="settings-dialog"] label.radio'), 'settings').toEqual([]);
    } finally {
      s.replay.setRoutes(chatRoutes(ollamaLines([{ content: 'Short answer.' }])));
      await page.close();
    }
  });
});

describe('on a phone, attachments and folds', () => {
  // Phone audit: after the 32 px rule, an attachment's remove × was 28x28, a file's name (its preview) 24 px high,
  // and the reasoning's and a tool result's folds 27 px: each a near miss beside the next target.
  it('are at least 32x32 px: an attachment’s remove and name, the reasoning’s and a tool result’s fold', async () => {
    if (!s) throw new Error('no session');
    const { replay } = s;
    const show = { method: 'POST', path: '/api/show', body: JSON.stringify({ capabilities: ['completion', 'tools', 'thinking'] }) };
    const page = await touchPage(PHONE);
    try {
      await page.getByTestId('attach-input').setInputFiles([
        { name: 'photo.png', mimeType: 'image/png', buffer: tinyPng() },
        { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Some notes to read.') },
      ]);
      await expect.poll(() => page.getByRole('button', { name: /^Remove / }).count()).toBe(2);
      await page.locator('.chip-name').waitFor();
      expect(await under32(page, '.chip-remove, .chip-name'), 'attachments').toEqual([]);
      await shootAtBothWidths(page, 'phone-targets-attachments');
      await page.getByRole('button', { name: 'Remove photo.png' }).tap();
      await page.getByRole('button', { name: 'Remove notes.txt' }).tap();

      // A tool step, then an answer that thinks first.
      let n = 0;
      replay.setOnRequest((req) => {
        if (req.path !== '/api/chat' || req.body.includes('Write a title')) return;
        const body =
          n++ === 0
            ? ollamaLines([{ tool_calls: [{ function: { name: 'current_datetime', arguments: {} } }] }], 'stop')
            : ollamaLines([{ thinking: 'Weighing it up.' }, { content: 'It is now.' }]);
        replay.setRoutes([...chatRoutes(body), show]);
      });
      await page.getByTestId('composer-input').fill('What time is it?');
      await page.getByTestId('composer-send').tap();
      await waitIdle(page);
      await page.getByTestId('tool-result').waitFor();
      await page.getByTestId('reasoning-summary').waitFor();
      expect(await under32(page, '[data-testid="reasoning-summary"], [data-testid="tool-result"] > summary'), 'folds').toEqual([]);
      await shootAtBothWidths(page, 'phone-targets-folds');
    } finally {
      replay.setOnRequest(undefined);
      replay.setRoutes([...chatRoutes(ollamaLines([{ content: 'Short answer.' }])), show]);
      await page.close();
    }
  });
});

describe('on a tablet', () => {
  // Touch audit #4: from 861 px the sidebar is a column, and a row's rename, export and delete buttons showed only
  // on hover (or on the open chat's row): on a touch tablet in landscape they were invisible, yet a tap near the
  // end of a row hit the hidden Delete.
  it('shows every conversation’s actions without hover', async () => {
    await twoChats();
    const page = await touchPage(TABLET_LANDSCAPE);
    try {
      await expect.poll(() => page.getByTestId('conversation-item').count()).toBeGreaterThanOrEqual(2);
      expect(await page.getByTestId('new-chat').isVisible()).toBe(true);
      // Each row's More button, which holds them (conversation-row-phone.e2e.test.ts); the four are not there to hit.
      const shown = await page.locator('li.conversation-row').evaluateAll((lis) =>
        lis.map((li) => ({
          more: (li.querySelector('[data-testid="conversation-more"]')?.getClientRects().length ?? 0) > 0 && getComputedStyle(li.querySelector('.row-more')!).opacity === '1',
          four: li.querySelector('.row-actions')!.getClientRects().length,
        })),
      );
      expect(shown.length).toBeGreaterThanOrEqual(2);
      expect(shown.every((r) => r.more && r.four === 0)).toBe(true);
    } finally {
      await page.close();
    }
  });
});

describe('on a phone, a search hit in a long answer', () => {
  // Touch audit #9: on a phone most answers are taller than the screen. A search hit opened the list at the middle
  // or end of such an answer, the searched word screens away; and the word was not marked at all once the answer
  // rendered again (its math typeset when KaTeX arrived): the marks were ranges over text nodes that were replaced.
  it('shows the searched word, marked', async () => {
    if (!s) throw new Error('no session');
    const paragraphs = Array.from({ length: 40 }, (_, i) => `Paragraph ${i + 1} goes on about something else entirely.\n\n`).join('');
    const routes = chatRoutes(ollamaLines([{ content: 'The word is periwinkle, said once.\n\n' }, { content: paragraphs }, { content: 'Mass and energy: $E = mc^2$.' }]));
    s.replay.setRoutes(routes);
    const page = await touchPage(PHONE);
    try {
      await page.getByTestId('composer-input').fill('Tell me a long story');
      await page.getByTestId('composer-send').tap();
      await waitIdle(page);
      await page.locator('.topbar').getByRole('button', { name: 'New chat' }).tap();
      await page.getByTestId('sidebar-toggle').tap();
      await page.getByTestId('search-input').fill('periwinkle');
      await page.locator('[data-testid="search-result"]').filter({ hasText: 'said once' }).first().tap();
      await page.locator('[data-testid="turn"][data-search-hit]').waitFor();
      // The first mark is the word itself (not a range collapsed by a re-render) and is inside the list's viewport.
      const markShown = () =>
        page.evaluate(() => {
          const ranges = [...((CSS.highlights.get('search-hit') as Iterable<Range> | undefined) ?? [])];
          const scroller = document.querySelector('[data-testid="chat"] [data-virtuoso-scroller]');
          const first = ranges[0];
          if (!first || !scroller) return 'no mark';
          if (first.toString().toLowerCase() !== 'periwinkle') return `marks "${first.toString()}"`;
          const mark = first.getBoundingClientRect();
          const view = scroller.getBoundingClientRect();
          return mark.top >= view.top && mark.bottom <= view.bottom ? 'shown' : `off screen: ${Math.round(mark.top)} not in ${Math.round(view.top)}-${Math.round(view.bottom)}`;
        });
      await expect.poll(markShown).toBe('shown');
    } finally {
      s.replay.setRoutes(chatRoutes(ollamaLines([{ content: 'Short answer.' }])));
      await page.close();
    }
  });
});

describe('on a tablet, the context meter', () => {
  // Touch audit #7: from 641 px the window's reason is one line, cut with "…", the whole of it only in the meter's
  // title (a hover tooltip): a touch tablet showed "…Instruct-abliter…" with no way to read the rest.
  it('wraps the window’s reason instead of cutting it', async () => {
    if (!s) throw new Error('no session');
    const long = 'hf.co/someone/Meta-Llama-3.1-70B-Instruct-abliterated-GGUF:Q4_K_M-imatrix-with-a-very-long-tag-indeed';
    const parsed = JSON.parse(TAGS_BODY) as { models: Record<string, unknown>[] };
    parsed.models.push({ ...(parsed.models[0] ?? {}), name: long, model: long, digest: 'f'.repeat(64) });
    const routes = chatRoutes(ollamaLines([{ content: 'Short answer.' }]));
    s.replay.setRoutes(routes.map((r) => (r.path === '/api/tags' ? { ...r, body: JSON.stringify(parsed) } : r)));
    const page = await touchPage(TABLET);
    try {
      await pickModel(page, long);
      const reason = page.getByTestId('context-reason');
      await expect.poll(() => reason.textContent()).toContain(long);
      expect(await reason.evaluate((el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().right <= window.innerWidth)).toBe(true);
    } finally {
      s.replay.setRoutes(routes);
      await page.close();
    }
  });
});
