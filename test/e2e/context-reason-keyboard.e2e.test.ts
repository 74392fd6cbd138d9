/**
 * The window's reason under the message box (chat user's-eyes pass): on a wide window it is one line, cut with "…",
 * and whole only in the meter's hover title, which no key shows. A keyboard user reaches the meter with Tab and sees
 * the reason whole there.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TAGS_BODY } from '../replay-server/ollama-wire';
import { chatRoutes, ollamaLines, pickModel, startUi, stopUi, type UiSession } from './helpers/ui-session';
import { shootAtBothWidths } from './helpers/screenshots';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

const LONG = 'hf.co/someone/Meta-Llama-3.1-70B-Instruct-abliterated-GGUF:Q4_K_M-imatrix-with-a-very-long-tag-indeed';

describe('the context window’s reason, from the keyboard', () => {
  it('is a Tab stop after the composer’s controls and, focused, shows its whole reason where it was cut', async () => {
    const parsed = JSON.parse(TAGS_BODY) as { models: Record<string, unknown>[] };
    parsed.models.push({ ...(parsed.models[0] ?? {}), name: LONG, model: LONG, digest: 'f'.repeat(64) });
    const routes = chatRoutes(ollamaLines([{ content: 'Short answer.' }]));
    s = await startUi(routes.map((r) => (r.path === '/api/tags' ? { ...r, body: JSON.stringify(parsed) } : r)));
    const { page } = s;
    await pickModel(page, LONG);
    const reason = page.getByTestId('context-reason');
    await expect.poll(() => reason.textContent()).toContain(LONG);
    const cut = () => reason.evaluate((el) => el.scrollWidth > el.clientWidth);
    // One line on a 1280 px window: cut.
    expect(await cut()).toBe(true);

    await page.getByTestId('conversation-settings-open').focus();
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('context-meter');
    expect(await cut()).toBe(false);
    expect(await reason.evaluate((el) => el.getBoundingClientRect().right <= window.innerWidth)).toBe(true);
    await shootAtBothWidths(page, 'context-reason-focused');

    // The focus gone, it is one line again.
    await page.getByTestId('composer-input').focus();
    await expect.poll(cut).toBe(true);
  });
});
