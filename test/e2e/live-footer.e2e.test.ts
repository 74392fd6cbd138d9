/**
 * An answer's figures while it streams. Its footer was blank until the answer ended: a user watching a slow model
 * could not tell 2 tok/s from 20. It shows main's first token as soon as it comes, and a running count and speed,
 * estimated ("~") from the characters written, drawn a few times a second (never per token); at the end the server's
 * figures take their place, in a footer of the same height. A stopped answer keeps the figures it had.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { assistant, chatRoutes, ollamaLines, send, startUi, stopUi, waitIdle, type UiSession } from './helpers/ui-session';
import { TAGS_BODY } from '../replay-server/ollama-wire';
import { pickModel } from './helpers/picker';
import { shootAtBothWidths } from './helpers/screenshots';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

/** A count, and a speed once what the page saw grow spans 400 ms (as main's): never "~ 0 tok/s". */
const LIVE = /^~ \d+ tokens · ~ (?:[1-9]\d*|0\.[1-9]) tok\/s · first token \d+ ms$/;
/** A count with or without its speed yet: the first few tokens, all come before a second look, have none. */
const RUNNING = /^~ \d+ tokens · (?:~ (?:[1-9]\d*|0\.[1-9]) tok\/s · )?first token \d+ ms$/;
const words = (n: number) => Array.from({ length: n }, (_, i) => ({ content: `word${i} ` }));
const liveStats = (page: Page) => assistant(page).locator('[data-testid="answer-stats"][data-live="true"]');
const footerHeight = (page: Page) => assistant(page).getByTestId('answer-footer').evaluate((el) => el.getBoundingClientRect().height);
const textTop = (page: Page) => assistant(page).locator('[data-run="answer"]').evaluate((el) => el.getBoundingClientRect().top);

describe("a streaming answer's footer", () => {
  it('shows the first token and a running count and speed, updated a few times a second, then the final figures in the same place', async () => {
    // Held after 4 lines (the figures are seen mid-stream on any machine), then after 44: the stretch between is
    // watched for how often the figures change.
    s = await startUi(chatRoutes(ollamaLines(words(50)), 30, [4, 44]));
    const { page, replay } = s;
    await send(page, 'Count for me');
    await expect.poll(async () => ((await liveStats(page).count()) === 1 ? await liveStats(page).textContent() : null), { timeout: 15_000 }).toMatch(RUNNING);
    // Not read out at each update: the announcer says the answer's end, once.
    expect(await liveStats(page).getAttribute('aria-live')).toBe('off');
    expect(await assistant(page).evaluate((el) => el.closest('[aria-live]:not([aria-live="off"])'))).toBeNull();
    // Copy and Regenerate still come only at the end.
    expect(await assistant(page).getByTestId('regenerate').count()).toBe(0);
    expect(await assistant(page).getByTestId('copy-answer').count()).toBe(0);

    // How often the figures change while the text grows token by token.
    await assistant(page).evaluate((turn) => {
      const w = window as unknown as { changes: { text: number; stats: number } };
      w.changes = { text: 0, stats: 0 };
      const stats = turn.querySelector('[data-testid="answer-stats"]');
      const text = turn.querySelector('[data-run="answer"]');
      new MutationObserver(() => w.changes.stats++).observe(stats!, { subtree: true, childList: true, characterData: true });
      new MutationObserver(() => w.changes.text++).observe(text!, { subtree: true, childList: true, characterData: true });
    });
    replay.release();
    await expect.poll(() => assistant(page).locator('[data-run="answer"]').textContent(), { timeout: 15_000 }).toContain('word43');
    const changes = await page.evaluate(() => (window as unknown as { changes: { text: number; stats: number } }).changes);
    expect(changes.text).toBeGreaterThanOrEqual(10);
    expect(changes.stats).toBeLessThan(changes.text / 3);
    // The speed, once the page has seen the answer grow for a while.
    await expect.poll(() => liveStats(page).textContent()).toMatch(LIVE);

    const streamingHeight = await footerHeight(page);
    const top = await textTop(page);
    replay.release();
    await waitIdle(page);
    // The server's figures, not an estimate, in a footer of the same height, the text where it was.
    await expect.poll(() => assistant(page).getByTestId('answer-stats').textContent()).toMatch(/^50 tokens · [\d.]+ tok\/s · first token \d+ ms$/);
    expect(await footerHeight(page)).toBe(streamingHeight);
    expect(await textTop(page)).toBe(top);
    expect(await assistant(page).getByTestId('regenerate').count()).toBe(1);
  });

  it('keeps the figures a stopped answer had, on a phone too, in a footer of the same height', async () => {
    s = await startUi(chatRoutes(ollamaLines(words(40)), 30, 12));
    const { page, replay } = s;
    await page.setViewportSize({ width: 390, height: 844 });
    await send(page, 'Count for me');
    await expect.poll(async () => ((await liveStats(page).count()) === 1 ? await liveStats(page).textContent() : null), { timeout: 15_000 }).toMatch(RUNNING);
    const streamingHeight = await footerHeight(page);
    await page.getByTestId('composer-stop').click();
    await expect.poll(() => assistant(page).getAttribute('data-status')).toBe('aborted');
    // Ollama sent no count for a stopped answer: the running figures stay, still marked as estimates.
    expect(await assistant(page).getByTestId('answer-stats').textContent()).toMatch(RUNNING);
    expect(await footerHeight(page)).toBe(streamingHeight);
    replay.release();

    // After a reload, main's count saved with the answer: its tokens as they were (this page never saw it stream).
    const count = /^~ \d+ tokens?/.exec((await assistant(page).getByTestId('answer-stats').textContent()) ?? '')?.[0];
    expect(count).toBeDefined();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.reload();
    await page.getByTestId('conversation-item').first().click();
    await expect.poll(() => assistant(page).getByTestId('answer-stats').textContent(), { timeout: 15_000 }).toMatch(new RegExp(`^${count!} · `));
  });

  it('keeps its height at 390 px when its count gains a digit, as it can on a stop, whatever the model’s name', async () => {
    // Held after 4 lines (the page has seen it write), then after 40: by then it has a speed too, the longer figures.
    s = await startUi(chatRoutes(ollamaLines(words(60)), 30, [4, 40]));
    const { page, replay } = s;
    await page.setViewportSize({ width: 390, height: 844 });
    await send(page, 'Count for me');
    await expect.poll(async () => ((await liveStats(page).count()) === 1 ? await liveStats(page).textContent() : null), { timeout: 15_000 }).toMatch(RUNNING);
    replay.release();
    await expect.poll(() => liveStats(page).textContent(), { timeout: 15_000 }).toMatch(LIVE);
    await expect.poll(() => replay.held).toBe(1);
    // Main's count sent with the stop can be a digit longer than the one last drawn. Where the figures filled their
    // line, that digit took them to a line more: the footer grew as the answer stopped. A copy of the footer beside it,
    // at the same width, with model names of every length and the count and speed as they are and a digit longer:
    // the names whose footer changed height.
    const digitMovesFooter = () =>
      assistant(page)
        .getByTestId('answer-footer')
        .evaluate((footer) => {
          const moved: string[] = [];
          const long = 'qwen2.5-coder:14b-instruct-q4_K_M-gguf';
          for (let n = 3; n <= long.length; n++) {
            const heights = [0, 1].map((more) => {
              const copy = footer.cloneNode(true) as HTMLElement;
              const name = copy.querySelector('.model-name');
              if (name) name.textContent = long.slice(0, n);
              for (const stat of copy.querySelectorAll('.stat')) {
                if (/tokens?$|tok\/s$/.test(stat.textContent ?? '')) stat.textContent = (stat.textContent ?? '').replace(/\d+/, (d) => d + '9'.repeat(more));
              }
              footer.after(copy);
              const height = copy.getBoundingClientRect().height;
              copy.remove();
              return height;
            });
            if (heights[0] !== heights[1]) moved.push(long.slice(0, n));
          }
          return moved;
        });
    expect(await digitMovesFooter()).toEqual([]);
    await shootAtBothWidths(page, 'streaming-footer', '[data-testid="answer-footer"]');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForFunction(() => document.getAnimations().length === 0);
    const streamingHeight = await footerHeight(page);
    await page.getByTestId('composer-stop').click();
    await expect.poll(() => assistant(page).getAttribute('data-status')).toBe('aborted');
    expect(await assistant(page).getByTestId('answer-stats').textContent()).toMatch(RUNNING);
    expect(await footerHeight(page)).toBe(streamingHeight);
    expect(await digitMovesFooter()).toEqual([]);
    await shootAtBothWidths(page, 'stopped-footer', '[data-testid="answer-footer"]');
    replay.release();
  });

  it("a stopped answer's Retry fits the room kept for the actions, at 390 px under a long model name cut with an ellipsis", async () => {
    const model = 'hf.co/bartowski/Meta-Llama-3.1-8B-Instruct-GGUF:Q4_K_M';
    const tags = JSON.parse(TAGS_BODY) as { models: { name: string; model: string }[] };
    const routes = chatRoutes(ollamaLines(words(40), 'stop', model), 30, 12).map((r) =>
      r.path === '/api/tags' ? { ...r, body: JSON.stringify({ models: [...tags.models, { ...tags.models[0]!, name: model, model }] }) } : r,
    );
    s = await startUi(routes);
    const { page, replay } = s;
    await page.setViewportSize({ width: 390, height: 844 });
    await pickModel(page, model);
    await send(page, 'Count for me');
    await expect.poll(async () => ((await liveStats(page).count()) === 1 ? await liveStats(page).textContent() : null), { timeout: 15_000 }).toMatch(RUNNING);
    expect(await assistant(page).getByTestId('model-label').getAttribute('data-model')).toBe(model);
    // The name is cut with an ellipsis ("…GGUF:Q4_K" read as a whole name), its whole in the tooltip: the box that
    // cuts it holds the text itself (in a flex row bare text is an anonymous box, which no ellipsis reaches).
    const cut = await assistant(page).getByTestId('model-label').evaluate((label) => {
      const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
      const name = walker.nextNode()!.parentElement!;
      const style = getComputedStyle(name);
      return { clipped: name.scrollWidth > name.clientWidth, ellipsis: style.textOverflow, display: style.display, title: label.getAttribute('title') };
    });
    expect(cut).toEqual({ clipped: true, ellipsis: 'ellipsis', display: expect.not.stringMatching(/flex|grid/), title: model });
    const streamingHeight = await footerHeight(page);
    const reserved = await assistant(page).locator('.actions-reserved').evaluate((el) => el.getBoundingClientRect().width);
    await page.getByTestId('composer-stop').click();
    await expect.poll(() => assistant(page).getAttribute('data-status')).toBe('aborted');
    const retry = assistant(page).getByTestId('turn-retry');
    await expect.poll(() => retry.isVisible()).toBe(true);
    // Copy and Retry take no more than the room kept for them while it streamed: the footer keeps its height.
    expect(await assistant(page).locator('.turn-footer .actions').evaluate((el) => el.getBoundingClientRect().width)).toBeLessThanOrEqual(reserved);
    expect(await footerHeight(page)).toBe(streamingHeight);
    // Whole, inside the footer, and still says what it does.
    const inside = await retry.evaluate((el) => {
      const b = el.getBoundingClientRect();
      const f = el.closest('[data-testid="answer-footer"]')!.getBoundingClientRect();
      return b.left >= f.left && b.right <= f.right + 0.5 && b.width > 0;
    });
    expect(inside).toBe(true);
    expect(await retry.getAttribute('aria-label')).toBe('Retry');
    await shootAtBothWidths(page, 'stopped-long-model', '[data-testid="answer-footer"]');
    replay.release();
  });
});
