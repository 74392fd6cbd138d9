/**
 * Issue 17, keyboard and accessibility: axe-core finds no serious or critical violation on any main screen in
 * either theme (contrast included); Settings is a real modal dialog (focus inside, Tab kept inside, Escape, a
 * backdrop click does not throw edits away); Attach and Import are reached with Tab; an answer is announced
 * once, when it is finished, not token by token, and a long one only up to a minute or two of speech.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chatRoutes, ollamaLines, send, startUi, stopUi, waitIdle, type UiSession } from './helpers/ui-session';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const ANSWER = [
  { thinking: 'A short plan.' },
  { content: 'Here is **markdown** with `code`, a [link](https://example.com) and a list:\n\n- one\n- two\n\n' },
  { content: '```python\nprint("hello")\n```\n' },
];

let s: UiSession | undefined;
beforeAll(async () => {
  s = await startUi(chatRoutes(ollamaLines(ANSWER), 5));
  await send(s.page, 'Show me something to check');
  await waitIdle(s.page);
});
afterAll(async () => {
  await stopUi(s);
});

/** axe-core's serious and critical findings for the page as it is now (CDP evaluation is not bound by the CSP). */
async function violations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  });
}

async function theme(page: Page, value: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: value });
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(value);
}

const activeTestId = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? null);

describe('accessibility', () => {
  for (const value of ['light', 'dark'] as const) {
    it(`has no serious or critical axe violation on the main screens (${value})`, async () => {
      if (!s) throw new Error('no session');
      const { page } = s;
      await page.setViewportSize({ width: 1280, height: 800 });
      await theme(page, value);
      await page.getByTestId('new-chat').click();
      expect(await violations(page), 'empty chat').toEqual([]);
      await page.getByTestId('conversation-item').first().click();
      await page.locator('[data-run="answer"]').first().waitFor();
      expect(await violations(page), 'chat').toEqual([]);
      await page.getByTestId('model-picker').click();
      expect(await violations(page), 'model picker open').toEqual([]);
      await page.keyboard.press('Escape');
      await page.getByTestId('search-input').fill('check');
      await page.getByTestId('search-result').first().waitFor();
      expect(await violations(page), 'search').toEqual([]);
      await page.getByTestId('search-input').fill('');
      await page.getByTestId('settings-open').click();
      await page.getByTestId('settings-dialog').waitFor();
      expect(await violations(page), 'settings').toEqual([]);
      await page.keyboard.press('Escape');
      await page.getByTestId('models-open').click();
      await page.getByTestId('models-screen').waitFor();
      expect(await violations(page), 'models').toEqual([]);
      await page.keyboard.press('Escape');
      await page.getByTestId('models-screen').waitFor({ state: 'detached' });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.getByTestId('sidebar-toggle').click();
      await page.getByTestId('new-chat').waitFor({ state: 'visible' });
      expect(await violations(page), 'drawer').toEqual([]);
      await page.keyboard.press('Escape');
      await page.setViewportSize({ width: 1280, height: 800 });
    });
  }

  it('makes Settings a modal dialog: focus inside, Tab kept inside, Escape closes, a backdrop click keeps edits', async () => {
    if (!s) throw new Error('no session');
    const { page } = s;
    await page.getByTestId('settings-open').click();
    const dialog = page.getByTestId('settings-dialog');
    await dialog.waitFor();
    const inside = () => page.evaluate(() => document.querySelector('[data-testid="settings-dialog"]')?.contains(document.activeElement) ?? false);
    await expect.poll(inside).toBe(true);
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      expect(await inside()).toBe(true);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // Untouched, a click on the backdrop closes it.
    await page.getByTestId('settings-open').click();
    await dialog.waitFor();
    await page.mouse.click(5, 400);
    await dialog.waitFor({ state: 'detached' });

    // With an edit, it asks first; Keep editing keeps the edit, Discard closes.
    await page.getByTestId('settings-open').click();
    await page.getByTestId('builtin-idle-minutes').fill('42');
    await page.mouse.click(5, 400);
    await page.getByTestId('settings-unsaved').waitFor();
    expect(await page.getByTestId('builtin-idle-minutes').inputValue()).toBe('42');
    await page.getByRole('button', { name: 'Keep editing' }).click();
    expect(await page.getByTestId('builtin-idle-minutes').inputValue()).toBe('42');
    await page.mouse.click(5, 400);
    await page.getByTestId('settings-discard').click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('previews a theme as it is picked and puts the saved one back on Cancel', async () => {
    if (!s) throw new Error('no session');
    const { page } = s;
    await theme(page, 'light');
    await page.getByTestId('settings-open').click();
    await page.getByTestId('settings-theme-dark').check();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
  });

  it('reaches Attach and Import with Tab', async () => {
    if (!s) throw new Error('no session');
    const { page } = s;
    await page.getByTestId('new-chat').focus();
    const seen = new Set<string | null>();
    for (let i = 0; i < 60 && !(seen.has('attach-input') && seen.has('conversation-import-input')); i++) {
      await page.keyboard.press('Tab');
      seen.add(await activeTestId(page));
    }
    expect(seen.has('attach-input')).toBe(true);
    expect(seen.has('conversation-import-input')).toBe(true);
  });

  it('announces an answer once, when it is finished; the chat itself is not a live region', async () => {
    if (!s) throw new Error('no session');
    const { page, replay } = s;
    expect(await page.locator('[data-testid="chat"][aria-live]').count()).toBe(0);
    replay.setRoutes(chatRoutes(ollamaLines([{ content: 'First part, ' }, { content: 'second part.' }]), 5, 1));
    await page.getByTestId('new-chat').click();
    await send(page, 'Say it in two parts');
    await expect.poll(() => replay.held).toBe(1);
    await expect.poll(() => page.locator('[data-run="answer"]').last().textContent()).toContain('First part');
    expect(await page.getByTestId('answer-announcer').textContent()).not.toContain('First part');
    replay.release();
    await expect.poll(() => page.getByTestId('answer-announcer').textContent()).toContain('First part, second part.');
    expect(await page.getByTestId('answer-announcer').getAttribute('role')).toBe('status');
  });

  it('announces a markdown answer as speech: no heading marks, asterisks, backticks or pipes', async () => {
    if (!s) throw new Error('no session');
    const { page, replay } = s;
    const parts = ['## Result\n\n', 'It is **done**: run `make` ', 'in the *root* folder.\n\n', '1. first\n2. second\n\n', '| a | b |\n|---|---|\n| 1 | 2 |\n'];
    replay.setRoutes(chatRoutes(ollamaLines(parts.map((content) => ({ content }))), 1));
    await page.getByTestId('new-chat').click();
    await send(page, 'Sum it up');
    await waitIdle(page);
    await expect.poll(() => page.getByTestId('answer-announcer').textContent()).toContain('Result.');
    const said = (await page.getByTestId('answer-announcer').textContent()) ?? '';
    expect(said).toMatch(/Result\.\s+It is done: run make in the root folder\.\s+1\. first\.\s+2\. second\.\s+Table, 1 row:\s+a, b\.\s+1, 2\.$/);
    expect(said).not.toMatch(/[#*`|]/);
    // The chat itself still shows the markdown drawn: a heading and a table.
    await expect.poll(() => page.locator('[data-run="answer"]').last().locator('h2, table').count()).toBe(2);
  });

  it('announces the beginning of a long answer and says the rest is in the chat, which shows all of it', async () => {
    if (!s) throw new Error('no session');
    const { page, replay } = s;
    // 60 sentences, about 3,700 characters: more than a minute or two of speech.
    const sentences = Array.from({ length: 60 }, (_, i) => ({ content: `Sentence ${i + 1} explains one more detail of the setup. ` }));
    replay.setRoutes(chatRoutes(ollamaLines(sentences), 1));
    await page.getByTestId('new-chat').click();
    await send(page, 'Explain it at length');
    await waitIdle(page);
    await expect.poll(() => page.getByTestId('answer-announcer').textContent()).toContain('Sentence 1 explains');
    const said = (await page.getByTestId('answer-announcer').textContent()) ?? '';
    expect(said).toMatch(/Sentence \d+ explains one more detail of the setup\. … The answer goes on in the chat, 540 words in all\.$/);
    expect(said).not.toContain('Sentence 60 ');
    expect(await page.locator('[data-run="answer"]').last().textContent()).toContain('Sentence 60 explains');
  });
});
