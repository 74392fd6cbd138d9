/**
 * Issue 17, layouts that fit: from a 360 px phone to a desktop nothing scrolls sideways on any main screen, the
 * sidebar becomes a drawer on a narrow window, the searchable model picker keeps its width whatever the names
 * (Send does not move), and the chat settings popover stays inside the window.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { TAGS_BODY } from '../replay-server/ollama-wire';
import { overflow } from './helpers/page-checks';
import { tinyPng } from './helpers/png';
import { chatRoutes, modelOption, ollamaLines, pickModel, send, startUi, stopUi, waitIdle, type UiSession } from './helpers/ui-session';

const LONG = 'hf.co/someone/Meta-Llama-3.1-70B-Instruct-abliterated-GGUF:Q4_K_M-imatrix-with-a-very-long-tag-indeed';
const tags = (() => {
  const parsed = JSON.parse(TAGS_BODY) as { models: Record<string, unknown>[] };
  const first = parsed.models[0] ?? {};
  parsed.models.push({ ...first, name: LONG, model: LONG, digest: 'f'.repeat(64) });
  return JSON.stringify(parsed);
})();

const ANSWER = ollamaLines([
  { content: 'A table and some code:\n\n| server | API | streams |\n|---|---|---|\n| Ollama | `/api/chat` | NDJSON |\n| llama-server | `/v1/chat/completions` | SSE |\n\n' },
  { content: '```bash\nllama-server -m /models/a-model-file-with-a-long-name.gguf --ctx-size 16384 --port 8080 --host 127.0.0.1 --jinja\n```\n\n' },
  { content: 'A long unbroken word: ' + 'x'.repeat(300) },
]);

let s: UiSession | undefined;
beforeAll(async () => {
  s = await startUi(chatRoutes(ANSWER, 5).map((r) => (r.path === '/api/tags' ? { ...r, body: tags } : r)));
  await send(s.page, 'Show me a table, some code and a long word');
  await waitIdle(s.page);
});
afterAll(async () => {
  await stopUi(s);
});

async function openSidebarIfDrawer(page: Page): Promise<void> {
  if ((await page.getByTestId('sidebar-toggle').getAttribute('aria-expanded')) !== 'true') await page.getByTestId('sidebar-toggle').click();
  await page.getByTestId('new-chat').waitFor({ state: 'visible' });
}

describe('layouts that fit', () => {
  for (const width of [360, 800, 1280]) {
    it(`scrolls sideways on no screen at ${width} px`, async () => {
      if (!s) throw new Error('no session');
      const { page } = s;
      await page.setViewportSize({ width, height: 800 });
      // A drawer open at the last width closes when the layout widens, and takes its history entry off with a
      // history.back() (use-back-closes.ts): a reload sent while that traversal is on its way is aborted by it.
      await page.waitForFunction(() => !(window.innerWidth > 860 && history.state && 'firebrandOverlay' in history.state));
      await page.reload();
      await modelOption(page, 'llama3.2:3b').waitFor({ state: 'attached' });
      expect(await overflow(page), 'empty chat').toEqual([]);

      await openSidebarIfDrawer(page);
      expect(await overflow(page), 'sidebar / drawer').toEqual([]);
      await page.getByTestId('conversation-item').first().click();
      await page.locator('[data-testid="turn"][data-role="assistant"]').waitFor();
      // On a narrow window choosing a conversation closes the drawer and the chat has the whole width.
      if (width < 800) {
        await page.getByTestId('new-chat').waitFor({ state: 'hidden' });
        const chat = await page.getByTestId('chat').boundingBox();
        expect(chat && chat.width >= width - 2).toBe(true);
      }
      expect(await overflow(page), 'chat with a table, code and a long word').toEqual([]);

      await pickModel(page, LONG);
      expect(await overflow(page), 'a long model name chosen').toEqual([]);
      await page.getByTestId('model-picker').click();
      expect(await overflow(page), 'model picker open').toEqual([]);
      await page.keyboard.press('Escape');

      await page.getByTestId('conversation-settings-open').click();
      const popover = await page.getByTestId('conversation-settings').boundingBox();
      expect(popover && popover.x >= 0 && popover.x + popover.width <= width).toBe(true);
      expect(await overflow(page), 'chat settings popover').toEqual([]);
      await page.keyboard.press('Escape');

      await openSidebarIfDrawer(page);
      await page.getByTestId('search-input').fill('table');
      await page.getByTestId('search-result').first().waitFor();
      expect(await overflow(page), 'search results').toEqual([]);
      await page.getByTestId('search-input').fill('');

      await page.getByTestId('settings-open').click();
      await page.getByTestId('settings-dialog').waitFor();
      expect(await overflow(page), 'settings').toEqual([]);
      await page.keyboard.press('Escape');
      await page.getByTestId('settings-dialog').waitFor({ state: 'detached' });

      await openSidebarIfDrawer(page);
      await page.getByTestId('models-open').click();
      await page.getByTestId('models-screen').waitFor();
      expect(await overflow(page), 'models').toEqual([]);
      await page.keyboard.press('Escape');
      await page.getByTestId('models-screen').waitFor({ state: 'detached' });
    });
  }

  it('keeps the picker’s width and Send’s place whatever the model’s name', async () => {
    if (!s) throw new Error('no session');
    const { page } = s;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.reload();
    await pickModel(page, 'llama3.2:3b');
    const short = { picker: await page.getByTestId('model-picker').boundingBox(), send: await page.getByTestId('composer-send').boundingBox() };
    await pickModel(page, LONG);
    const long = { picker: await page.getByTestId('model-picker').boundingBox(), send: await page.getByTestId('composer-send').boundingBox() };
    expect(long.picker?.width).toBe(short.picker?.width);
    expect(long.send).toEqual(short.send);

    // The message box grows with its text (up to a limit), instead of scrolling inside three rows.
    const input = page.getByTestId('composer-input');
    const before = (await input.boundingBox())?.height ?? 0;
    await input.fill(Array.from({ length: 8 }, (_, i) => `line ${i + 1}`).join('\n'));
    await expect.poll(async () => (await input.boundingBox())?.height ?? 0).toBeGreaterThan(before * 2);
    await input.fill('');
  });

  it('indents a tab in code by 4 columns, not 8', async () => {
    if (!s) throw new Error('no session');
    const { page } = s;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByTestId('conversation-item').first().click();
    const code = page.locator('[data-run="answer"] .code-block code').first();
    await code.waitFor();
    // A tab and four spaces in front of the same word start it at the same column.
    const widths = await code.evaluate((el) => {
      // A bare copy of the code element (same styles), each text at the start of its own line.
      const probe = (text: string) => {
        const copy = el.cloneNode(false) as HTMLElement;
        const span = document.createElement('span');
        span.textContent = text;
        copy.appendChild(span);
        el.parentElement?.appendChild(copy);
        const width = span.getBoundingClientRect().width;
        copy.remove();
        return width;
      };
      return { tab: probe('\tx'), four: probe('    x'), eight: probe('        x') };
    });
    expect(widths.tab).toBeCloseTo(widths.four, 0);
    expect(widths.tab).toBeLessThan(widths.eight);
  });

  // Phone audit #2: at a phone's width each option's size and tags took the row, and a name was cut after a dozen
  // letters: "hf.co/someo…" said nothing of the model.
  it('shows each model’s whole name in the picker at a phone’s width', async () => {
    if (!s) throw new Error('no session');
    const page = await s.browser.newPage({ viewport: { width: 360, height: 640 }, hasTouch: true, isMobile: true });
    try {
      await page.goto(s.serve.url);
      await modelOption(page, LONG).waitFor({ state: 'attached' });
      await page.getByTestId('model-picker').tap();
      const option = modelOption(page, LONG);
      await option.waitFor();
      const shown = await option.locator('.name').evaluate((el) => ({ cut: el.scrollWidth > el.clientWidth + 1, text: el.textContent, right: el.getBoundingClientRect().right }));
      expect(shown.text).toBe(LONG);
      expect(shown.cut).toBe(false);
      expect(shown.right).toBeLessThanOrEqual(360);
      expect(await overflow(page)).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('filters the picker as the user types, groups it by connection, and chooses with the keyboard', async () => {
    if (!s) throw new Error('no session');
    const { page } = s;
    const picker = page.getByTestId('model-picker');
    await picker.click();
    expect(await picker.getAttribute('aria-expanded')).toBe('true');
    expect(await page.locator('.model-group-label').allTextContents()).toEqual(['Ollama']);
    await picker.fill('QWEN');
    await expect.poll(() => page.locator('[role="option"]:visible').evaluateAll((os) => os.map((o) => o.getAttribute('data-value')))).toEqual(['qwen3:8b']);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => picker.getAttribute('data-value')).toBe('qwen3:8b');
    expect(await picker.getAttribute('aria-expanded')).toBe('false');
    expect(await picker.inputValue()).toBe('qwen3:8b');
  });

  it('collapses the sidebar on a wide window and opens it as a drawer on a narrow one', async () => {
    if (!s) throw new Error('no session');
    const { page } = s;
    await page.setViewportSize({ width: 1280, height: 800 });
    const toggle = page.getByTestId('sidebar-toggle');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await toggle.click();
    await page.getByTestId('new-chat').waitFor({ state: 'hidden' });
    expect((await page.getByTestId('chat').boundingBox())?.x).toBe(0);
    await toggle.click();
    await page.getByTestId('new-chat').waitFor({ state: 'visible' });

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('new-chat').waitFor({ state: 'hidden' });
    await toggle.click();
    // The drawer takes the focus; Escape closes it and gives the focus back to the toggle.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('new-chat');
    await page.keyboard.press('Escape');
    await page.getByTestId('new-chat').waitFor({ state: 'hidden' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('sidebar-toggle');
  });

  // A window narrowed across 860 px slid its sidebar out over the chat (the drawer's closing slide applied to the
  // layout's switch): only a user's open and close slide.
  it('slides the drawer when it is opened or closed, not when the window is resized across 860 px', async () => {
    if (!s) throw new Error('no session');
    const page = await s.browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      await page.goto(s.serve.url);
      await page.getByTestId('new-chat').waitFor({ state: 'visible' });
      // Every transition the sidebar itself starts, from here on.
      await page.evaluate(() => {
        const runs: string[] = [];
        (window as unknown as { sidebarRuns: string[] }).sidebarRuns = runs;
        document.getElementById('sidebar')?.addEventListener('transitionrun', (e) => {
          if (e.target === e.currentTarget) runs.push(e.propertyName);
        });
      });
      const runs = () => page.evaluate(() => (window as unknown as { sidebarRuns: string[] }).sidebarRuns.splice(0));
      const still = () => page.waitForFunction(() => document.getElementById('sidebar')?.getAnimations().length === 0);
      // Two frames after the switch: a transition would have started (and be running) by then.
      const framesLater = () => page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
      // Twice: the second time after the drawer was opened and closed once.
      for (const round of [1, 2]) {
        await page.setViewportSize({ width: 800, height: 800 });
        await page.getByTestId('new-chat').waitFor({ state: 'hidden' });
        await framesLater();
        expect(await page.locator('#sidebar').evaluate((el) => el.getAnimations().length), `narrowed (${round})`).toBe(0);
        expect(await runs(), `narrowed (${round})`).toEqual([]);

        await page.getByTestId('sidebar-toggle').click();
        await page.getByTestId('new-chat').waitFor({ state: 'visible' });
        await expect.poll(runs, { message: `opened (${round})` }).toContain('transform');
        await still();
        await page.keyboard.press('Escape');
        await page.getByTestId('new-chat').waitFor({ state: 'hidden' });
        await expect.poll(runs, { message: `closed (${round})` }).toContain('transform');
        await still();
        await runs();

        await page.setViewportSize({ width: 1280, height: 800 });
        await page.getByTestId('new-chat').waitFor({ state: 'visible' });
        await framesLater();
        expect(await page.locator('#sidebar').evaluate((el) => el.getAnimations().length), `widened (${round})`).toBe(0);
        expect(await runs(), `widened (${round})`).toEqual([]);
      }
    } finally {
      await page.close();
    }
  });

  // Keyboard audit #1: Ctrl+K focused a search box that was not shown, and nothing happened.
  it('shows the hidden conversation list for Ctrl+K, on a phone (drawer closed) and with the column collapsed', async () => {
    if (!s) throw new Error('no session');
    const { page } = s;
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName);
    const toggle = page.getByTestId('sidebar-toggle');
    /** With the list hidden and the focus in the message box, Ctrl+K shows the list and puts the focus in search. */
    const ctrlKShowsSearch = async () => {
      await page.getByTestId('new-chat').waitFor({ state: 'hidden' });
      await page.getByTestId('composer-input').focus();
      await page.keyboard.press('Control+k');
      await page.getByTestId('search-input').waitFor({ state: 'visible' });
      await expect.poll(focused).toBe('search-input');
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    };
    await page.setViewportSize({ width: 390, height: 844 });
    await ctrlKShowsSearch();
    await page.keyboard.press('Escape');
    await page.getByTestId('new-chat').waitFor({ state: 'hidden' });

    await page.setViewportSize({ width: 1280, height: 800 });
    await toggle.click();
    await ctrlKShowsSearch();
  });

  // Keyboard audit #2: Tab walked out of the open drawer to the chat behind the scrim, where Escape no longer closed it.
  it('keeps the focus in the open drawer on a phone, and closes it with Escape wherever the focus is', async () => {
    if (!s) throw new Error('no session');
    const { page } = s;
    const inDrawer = () => page.evaluate(() => document.getElementById('sidebar')?.contains(document.activeElement) === true);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('new-chat').waitFor({ state: 'hidden' });
    await page.getByTestId('sidebar-toggle').click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('new-chat');
    expect(await page.locator('main').evaluate((m) => (m as HTMLElement).inert)).toBe(true);
    // Round the drawer forwards past Settings, then backwards past its first control.
    await page.getByTestId('settings-open').focus();
    await page.keyboard.press('Tab');
    expect(await inDrawer(), 'Tab after the last control').toBe(true);
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('settings-open');
    const count = await page.locator('#sidebar').evaluate((nav) => nav.querySelectorAll('button, input, a[href], [tabindex]:not([tabindex="-1"])').length);
    for (let i = 0; i < count + 2; i++) {
      await page.keyboard.press('Shift+Tab');
      expect(await inDrawer(), `Shift+Tab ${i + 1}`).toBe(true);
    }
    // The focus on the page itself (a click on the drawer's title): Escape still closes it, back to the toggle.
    await page.locator('#sidebar .brand').click();
    expect(await inDrawer()).toBe(false);
    await page.keyboard.press('Escape');
    await page.getByTestId('new-chat').waitFor({ state: 'hidden' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('sidebar-toggle');
    expect(await page.locator('main').evaluate((m) => (m as HTMLElement).inert)).toBe(false);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('keeps each of an answer’s figures on one line on a phone', async () => {
    if (!s) throw new Error('no session');
    const page = await s.browser.newPage({ viewport: { width: 360, height: 800 } });
    try {
      await page.goto(s.serve.url);
      await openSidebarIfDrawer(page);
      await page.getByTestId('conversation-item').first().click();
      const stats = page.locator('[data-testid="turn"][data-role="assistant"] [data-testid="answer-stats"]');
      await stats.waitFor();
      // "first token 4" and "ms" were on two lines beside the model's name and the buttons.
      const lines = await stats.evaluate((el) => [...el.querySelectorAll('.stat')].map((s) => [s.textContent, s.getClientRects().length] as const));
      expect(lines.map(([text]) => text)).toEqual([expect.stringMatching(/tokens?$/), expect.stringMatching(/tok\/s$/), expect.stringMatching(/^first token /)]);
      expect(lines.every(([, n]) => n === 1)).toBe(true);
    } finally {
      await page.close();
    }
  });

  // Attachments audit #1: the waiting files' row grew without end, and some twenty files pushed the message box and
  // Send below the window, which does not scroll.
  it('keeps the message box and Send in the window with many files waiting, at a phone’s width and a desktop’s', async () => {
    if (!s) throw new Error('no session');
    for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 800 }]) {
      const page = await s.browser.newPage({ viewport });
      try {
        await page.goto(s.serve.url);
        await modelOption(page, 'llama3.2:3b').waitFor({ state: 'attached' });
        const files = Array.from({ length: 24 }, (_, i) => ({ name: `notes-${i + 1}.md`, mimeType: 'text/markdown', buffer: Buffer.from(`# Note ${i + 1}\n`) }));
        await page.getByTestId('attach-input').setInputFiles(files);
        await page.getByTestId('pending-attachments').getByText('notes-24.md').waitFor({ state: 'attached' });
        for (const id of ['composer-input', 'composer-send']) {
          const box = await page.getByTestId(id).boundingBox();
          expect(box, id).not.toBeNull();
          expect(box!.y + box!.height, `${id} at ${viewport.width} px`).toBeLessThanOrEqual(viewport.height);
        }
        // The last file is reached by scrolling the row, and removed from there.
        await page.getByRole('button', { name: 'Remove notes-24.md' }).click();
        await page.getByTestId('pending-attachments').getByText('notes-24.md').waitFor({ state: 'detached' });
      } finally {
        await page.close();
      }
    }
  });

  // Phone audit #1: on a short window (a phone held sideways, 640 x 360; or upright with its keyboard up, 390 x 400) a
  // long draft's 40 % of the height, the waiting images and the meter under them pushed Send and the model picker
  // below the window's edge, and the window does not scroll.
  it('keeps Send and the model picker in a short window with a long draft and images waiting', async () => {
    if (!s) throw new Error('no session');
    for (const viewport of [{ width: 640, height: 360 }, { width: 390, height: 400 }]) {
      const page = await s.browser.newPage({ viewport, hasTouch: true, isMobile: true });
      try {
        await page.goto(s.serve.url);
        await modelOption(page, 'llama3.2:3b').waitFor({ state: 'attached' });
        await page.getByTestId('attach-input').setInputFiles([1, 2, 3].map((i) => ({ name: `photo-${i}.png`, mimeType: 'image/png', buffer: tinyPng(i * 40) })));
        await page.getByRole('button', { name: 'Remove photo-3.png' }).waitFor({ state: 'attached' });
        await page.getByTestId('composer-input').fill(Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n'));
        for (const id of ['composer-input', 'composer-send', 'model-picker']) {
          const box = await page.getByTestId(id).boundingBox();
          expect(box, id).not.toBeNull();
          expect(box!.y + box!.height, `${id} at ${viewport.width} x ${viewport.height}`).toBeLessThanOrEqual(viewport.height);
        }
        // The chat above keeps a strip of its own.
        expect((await page.getByTestId('chat').boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(40);
        await page.getByTestId('composer-input').fill('');
      } finally {
        await page.close();
      }
    }
  });

  // Phone audit #4: Chrome on Android lays its keyboard over the page unless the page asks to be resized, and the
  // composer's row with Send stayed under it while the message was typed. No headless browser shows a keyboard:
  // what is checked is the request, whose effect is the short window above.
  it('asks a phone to shrink the page for its on-screen keyboard, not to cover it', async () => {
    if (!s) throw new Error('no session');
    const viewport = await s.page.locator('meta[name="viewport"]').getAttribute('content');
    expect(viewport?.split(',').map((part) => part.trim())).toContain('interactive-widget=resizes-content');
  });

  it('gives a failure banner’s message the width of a phone, with its actions under it', async () => {
    if (!s) throw new Error('no session');
    const { browser, replay, serve } = s;
    const up = chatRoutes(ANSWER, 5).map((r) => (r.path === '/api/tags' ? { ...r, body: tags } : r));
    replay.setRoutes(up.map((r) => (r.path === '/api/tags' ? { ...r, status: 500, body: '{"error":"the model store is locked by another process"}' } : r)));
    const page = await browser.newPage({ viewport: { width: 390, height: 800 } });
    try {
      await page.goto(serve.url);
      const banner = page.getByTestId('models-error');
      await banner.waitFor();
      const [box, text, actions] = await Promise.all([banner.boundingBox(), banner.locator('.banner-text').boundingBox(), banner.locator('.banner-actions').boundingBox()]);
      if (!box || !text || !actions) throw new Error('banner not laid out');
      // Beside the actions the message had a third of the banner, broken every few words.
      expect(text.width).toBeGreaterThan(box.width * 0.8);
      expect(actions.y).toBeGreaterThanOrEqual(text.y + text.height - 1);
      expect(box.x + box.width - (actions.x + actions.width)).toBeLessThan(16);
      expect(await overflow(page)).toEqual([]);
    } finally {
      replay.setRoutes(up);
      await page.close();
    }
  });

  it('draws the chat settings’ system prompt as a field with a focus ring, and keeps the popover inside a short window', async () => {
    if (!s) throw new Error('no session');
    const { page } = s;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByTestId('conversation-settings-open').focus();
    await page.keyboard.press('Enter');
    const prompt = page.getByTestId('conversation-system-prompt');
    await expect.poll(() => prompt.evaluate((el) => el === document.activeElement)).toBe(true);
    // The message box's look (no border, no outline, one growing line) is the message box's alone.
    const look = await prompt.evaluate((el) => {
      const style = getComputedStyle(el);
      return { border: parseFloat(style.borderTopWidth), ring: el.matches(':focus-visible') && style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0, rows: el.getBoundingClientRect().height / parseFloat(style.lineHeight) };
    });
    expect(look.border).toBeGreaterThan(0);
    expect(look.ring).toBe(true);
    expect(look.rows).toBeGreaterThanOrEqual(3);
    await page.keyboard.press('Escape');

    // 1280 x 800 at 200 % zoom: the popover is taller than the room above the message box, and scrolls inside it.
    await page.setViewportSize({ width: 640, height: 400 });
    await page.getByTestId('conversation-settings-open').click();
    const popover = page.getByTestId('conversation-settings');
    const box = await popover.boundingBox();
    expect(box && box.y >= 0 && box.y + box.height <= 400).toBe(true);
    await page.getByTestId('conversation-settings-save').click();
    await popover.waitFor({ state: 'detached' });
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
