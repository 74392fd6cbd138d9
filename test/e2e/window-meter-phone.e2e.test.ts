/**
 * A draft over the model's window, at a phone's width: the lines under the message box ran to seven at 390 px (the
 * meter; why the window is the default; "Too long for llama3.2:3b: about 4.9K tokens, its window holds 4K. Make
 * room, or shorten the message." over two; why no larger window could be had, over two; Make room… alone). They
 * read in three now: the meter with Make room… beside it, then by how much it is over and what to do. A wide window
 * keeps its words. Screenshots at 1280 and 390 px go to test-results/screenshots.
 *
 * In a new chat (no Make room… there) it still ran to six lines at 390 px (the meter; why the window is the default;
 * the reason over two; why no larger window could be had, over two), and told the user, at any width, to "Make room"
 * with a button that was not there. A file that does not fit took four lines beside Make room….
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import type { AliasInput } from '../../src/shared/models';
import { shootAtBothWidths } from './helpers/screenshots';
import { chatRoutes, ollamaLines, pickModel, send, startUi, stopUi, waitIdle, type UiSession } from './helpers/ui-session';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

/**
 * The lines the words under the message box take. Each part's lines are its height over its line height (a button is
 * one); parts side by side (Make room… beside the reason) share their lines, so overlapping parts count once, as the
 * most lines among them.
 */
function footLines(page: Page): Promise<number> {
  return page.locator('.composer-foot').evaluate((foot) => {
    const parts = [...foot.children]
      .map((el) => {
        const r = el.getBoundingClientRect();
        const lines = el.tagName === 'BUTTON' ? 1 : Math.max(1, Math.round(r.height / parseFloat(getComputedStyle(el).lineHeight)));
        return { top: r.top, bottom: r.bottom, lines };
      })
      .filter((p) => p.bottom > p.top)
      .sort((a, b) => a.top - b.top);
    let total = 0;
    let band: { bottom: number; lines: number } | null = null;
    for (const p of parts) {
      if (band && p.top < band.bottom - 2) {
        band = { bottom: Math.max(band.bottom, p.bottom), lines: Math.max(band.lines, p.lines) };
        continue;
      }
      total += band?.lines ?? 0;
      band = { bottom: p.bottom, lines: p.lines };
    }
    return total + (band?.lines ?? 0);
  });
}

const visibleText = (page: Page) => page.locator('.composer-foot').evaluate((el) => (el as HTMLElement).innerText.replace(/\s+/g, ' ').trim());

async function phone(page: Page): Promise<void> {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForFunction(() => document.getAnimations().length === 0);
}

describe('a draft over the window at 390 px', () => {
  it('reads in three lines: the meter and Make room…, then by how much and what to do', async () => {
    s = await startUi();
    const { page } = s;
    await send(page, 'Hello');
    await waitIdle(page);
    // 20,000 characters against the 4,096-token default window.
    await page.getByTestId('composer-input').fill('x'.repeat(20_000));
    await page.getByTestId('context-make-room').waitFor();
    const reason = page.getByTestId('composer-reason');
    await expect.poll(() => reason.textContent()).toBe('Too long for llama3.2:3b: about 4.9K tokens, its window holds 4K. Make room, or shorten the message.');
    const estimate = Number(await page.getByTestId('context-meter').getAttribute('data-estimate'));
    await shootAtBothWidths(page, 'window-meter-over', '[data-testid="composer-reason"]');

    await phone(page);
    await expect.poll(() => reason.textContent()).toBe(`Too long by about ${estimate - 4096 + 1} tokens. Make room, or shorten the message.`);
    await expect.poll(() => footLines(page)).toBeLessThanOrEqual(3);
    // All it needs is on screen: that it is over (the red meter, both numbers), by how much, and the ways on.
    const words = await visibleText(page);
    expect(words).toContain('4.9K / 4K tokens');
    expect(words).toContain('Too long by about');
    expect(words).toContain('Make room…');
    expect(await page.getByTestId('context-meter').getAttribute('class')).toContain('over');
    expect(await page.getByTestId('context-make-room').isVisible()).toBe(true);
    // Make room… opens the ways on, and says there why no larger window can be had (hidden under the box here).
    await page.getByTestId('context-make-room').click();
    await expect.poll(() => page.getByTestId('context-room-panel').getByTestId('context-larger-none').textContent()).toBe('No larger window could be worked out: Ollama has no details of llama3.2:3b.');
    await page.getByTestId('context-make-room').click();
    // Nothing typed is lost.
    expect((await page.getByTestId('composer-input').inputValue()).length).toBe(20_000);
  });

  it('says the chat fills the window, in three lines, where the window is the user’s choice', async () => {
    s = await startUi();
    const { page } = s;
    await send(page, `First: ${'a'.repeat(4_000)}`);
    await waitIdle(page);
    await send(page, `Second: ${'b'.repeat(4_000)}`);
    await waitIdle(page);
    // The window made smaller since (another machine, another setting): the chat alone is over it.
    await page.evaluate(async () => {
      const api = (globalThis as unknown as { firebrand: { models: { setContext(r: unknown): Promise<unknown> } } }).firebrand;
      await api.models.setContext({ model: 'llama3.2:3b', contextWindow: 1024, source: 'user' });
    });
    await pickModel(page, 'qwen3:8b');
    await pickModel(page, 'llama3.2:3b');
    await expect.poll(() => page.getByTestId('context-meter').getAttribute('data-window')).toBe('1024');
    await page.getByTestId('composer-input').fill('And then?');
    await page.getByTestId('context-make-room').waitFor();
    await phone(page);
    const reason = page.getByTestId('composer-reason');
    await expect.poll(() => reason.textContent()).toMatch(/^Too long by about [\d.,K]+ tokens\. The chat fills the window: make room in it\.$/);
    await expect.poll(() => footLines(page)).toBeLessThanOrEqual(3);
    expect(await visibleText(page)).toContain('your choice for this model');
    await shootAtBothWidths(page, 'window-meter-over-chat', '[data-testid="composer-reason"]');
  });

  it('in a new chat, reads in three lines and names only what is on screen', async () => {
    s = await startUi();
    const { page } = s;
    await page.getByTestId('composer-input').fill('x'.repeat(20_000));
    const reason = page.getByTestId('composer-reason');
    // No chat yet, so no Make room…: the message is what can be shortened. Why no larger window is beside it.
    await expect.poll(() => reason.textContent()).toBe('Too long for llama3.2:3b: about 4.9K tokens, its window holds 4K. Shorten the message.');
    await expect.poll(() => page.getByTestId('context-larger-none').textContent()).toBe('No larger window could be worked out: Ollama has no details of llama3.2:3b.');
    expect(await page.getByTestId('context-make-room').count()).toBe(0);
    const estimate = Number(await page.getByTestId('context-meter').getAttribute('data-estimate'));
    await shootAtBothWidths(page, 'window-meter-over-new-chat', '[data-testid="composer-reason"]');

    await phone(page);
    await expect.poll(() => reason.textContent()).toBe(`Too long by about ${estimate - 4096 + 1} tokens. Shorten the message.`);
    await expect.poll(() => footLines(page)).toBeLessThanOrEqual(3);
    expect(await visibleText(page)).toContain('4.9K / 4K tokens default');
    expect(await visibleText(page)).not.toContain('Make room');
  });

  it('in a new chat through an alias, says where its window is changed, in three lines', async () => {
    s = await startUi();
    const { page } = s;
    const helper: AliasInput = { name: 'Helper', connectionId: 'ollama', model: 'llama3.2:3b', systemPrompt: '', parameters: {}, thinkMode: 'off', contextWindow: 4096 };
    await page.evaluate((a) => window.firebrand.aliases.create(a), helper);
    await page.reload();
    await pickModel(page, 'Helper', 'alias');
    await page.getByTestId('composer-input').fill('x'.repeat(20_000));
    await expect.poll(() => page.getByTestId('context-larger-none').textContent()).toBe('The alias sets this window (4,096 tokens); change it in Models.');
    await phone(page);
    // The larger window's reason is not shown here: where the window is changed is said in the reason instead.
    await expect.poll(() => page.getByTestId('composer-reason').textContent()).toMatch(/^Too long by about \d+ tokens\. Shorten the message, or change the alias’s window in Models\.$/);
    await expect.poll(() => footLines(page)).toBeLessThanOrEqual(3);
    await shootAtBothWidths(page, 'window-meter-over-new-chat-alias', '[data-testid="composer-reason"]');
  });

  it('says which file does not fit and what to do with it, beside Make room…, in three lines', async () => {
    s = await startUi();
    const { page } = s;
    await send(page, 'Hello');
    await waitIdle(page);
    await page.getByTestId('attach-input').setInputFiles({ name: 'meeting-notes.txt', mimeType: 'text/plain', buffer: Buffer.from('word '.repeat(8_000)) });
    await page.getByTestId('context-make-room').waitFor();
    const reason = page.getByTestId('composer-reason');
    await expect.poll(() => reason.textContent()).toMatch(/^meeting-notes\.txt needs about [\d.]+K tokens; [\d.]+K are left in the 4K-token window\. Remove it or attach a shorter part of it, or make room\.$/);
    await phone(page);
    await expect.poll(() => reason.textContent()).toMatch(/^meeting-notes\.txt is [\d.,K]+ tokens over: remove it or attach part of it\.$/);
    await expect.poll(() => footLines(page)).toBeLessThanOrEqual(3);
    await shootAtBothWidths(page, 'window-meter-over-file', '[data-testid="composer-reason"]');
  });

  it('in a new chat with a larger window offered, its button finishes the reason, its cost in a few words', async () => {
    // Ollama describes the model here, so a larger window is offered (the GPU memory stays unknown on this machine).
    const show = readFileSync(new URL('../fixtures/ollama-models/show-qwen3-14b.json', import.meta.url), 'utf8');
    s = await startUi([...chatRoutes(ollamaLines([{ content: 'Hi.' }])), { method: 'POST', path: '/api/show', body: show }, { path: '/api/ps', body: '{"models":[]}' }]);
    const { page } = s;
    await page.getByTestId('composer-input').fill('x'.repeat(20_000));
    const reason = page.getByTestId('composer-reason');
    await expect.poll(() => reason.textContent()).toMatch(/ Shorten the message, or use a larger window\.$/);
    await page.getByTestId('context-larger').waitFor();
    await phone(page);
    await expect.poll(() => reason.textContent()).toMatch(/^Too long by about [\d.,K]+ tokens\. Shorten it, or:$/);
    // The button and its cost on one line under the reason, which takes one: the meter, the reason, the offer.
    const top = async (testId: string) => (await page.getByTestId(testId).boundingBox())?.y ?? -1;
    expect(await page.getByTestId('context-larger-cost-short').textContent()).toMatch(/^\(needs \d+\.\d GiB\)$/);
    expect(await page.getByTestId('context-larger-cost').isVisible()).toBe(false);
    expect(Math.abs((await top('context-larger')) - (await top('context-larger-cost-short')))).toBeLessThan(6);
    expect(await reason.evaluate((el) => el.getClientRects().length)).toBe(1);
    expect(Math.round((await reason.boundingBox())?.height ?? 0)).toBeLessThan(20);
    await shootAtBothWidths(page, 'window-meter-over-new-chat-offer', '[data-testid="composer-reason"]');
  });
});
