/**
 * A notice that only informs (an export saved) is drawn calmly and said politely, not as an alert in the error's
 * red: every banner was, and a user read "Exported …" as a failed export. Failures keep their look and role. A
 * notice that asks for a step (the chosen model changed by itself: "Choose a model") is a warning, in amber, said
 * politely: it was drawn as a failure in the error's red too.
 */
import type { Locator, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { shootAtBothWidths } from './helpers/screenshots';
import { chatRoutes, ollamaLines, pickModel, send, startUi, stopUi, waitIdle, type UiSession } from './helpers/ui-session';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

/** The banner's role, its icon's colour, border and background, beside the theme's error colour and an error banner's own. */
async function looks(banner: Locator): Promise<{ role: string | null; icon: string; border: string; background: string; error: string; errorBorder: string; errorBackground: string }> {
  return banner.evaluate((el) => {
    const probe = document.createElement('div');
    probe.className = 'banner';
    probe.style.color = 'var(--error)';
    el.parentElement!.append(probe);
    const p = getComputedStyle(probe);
    const seen = { error: p.color, errorBorder: p.borderTopColor, errorBackground: p.backgroundColor };
    probe.remove();
    const b = getComputedStyle(el);
    return { role: el.getAttribute('role'), icon: getComputedStyle(el.querySelector('svg.icon')!).color, border: b.borderTopColor, background: b.backgroundColor, ...seen };
  });
}

async function theme(page: Page, value: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: value });
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(value);
}

describe('notice banners', () => {
  it('draws a finished export as a calm status, and a failure as an alert in the error colour', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Tea is best at 80 °C.' }])));
    const { page } = s;
    await send(page, 'How hot should green tea be?');
    await waitIdle(page);
    const item = page.getByTestId('conversation-item');
    await item.hover();
    await Promise.all([page.waitForEvent('download'), page.getByTestId('conversation-export').click()]);
    const notice = page.getByTestId('notice');
    await expect.poll(() => notice.locator('.banner-text').textContent().catch(() => '')).toMatch(/^Exported “/);
    for (const t of ['light', 'dark'] as const) {
      await theme(page, t);
      const seen = await looks(notice);
      expect(seen.role).toBe('status');
      expect(seen.icon).not.toBe(seen.error);
      expect(seen.border).not.toBe(seen.errorBorder);
      expect(seen.background).not.toBe(seen.errorBackground);
      await shootAtBothWidths(page, `notice-info-${t}`);
    }
    expect(await page.getByRole('alert').count()).toBe(0);

    // A file refused for what it is has nothing to retry either, but it is a failure: it keeps the alert.
    await page.getByTestId('attach-input').setInputFiles([{ name: 'photos.zip', mimeType: 'application/zip', buffer: Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 0x08, 0]) }]);
    await expect.poll(() => notice.locator('.banner-text').textContent().catch(() => '')).toContain('“photos.zip” cannot be attached');
    for (const t of ['light', 'dark'] as const) {
      await theme(page, t);
      const seen = await looks(notice);
      expect(seen.role).toBe('alert');
      expect(seen.icon).toBe(seen.error);
      expect(seen.background).toBe(seen.errorBackground);
    }

    // The server down: the model list's banner stays an alert in the error colour.
    await s.replay.close();
    await page.reload();
    const down = page.getByTestId('models-error');
    await expect.poll(() => down.textContent().catch(() => '')).toContain('Cannot reach Ollama');
    for (const t of ['light', 'dark'] as const) {
      await theme(page, t);
      const seen = await looks(down);
      expect(seen.role).toBe('alert');
      expect(seen.icon).toBe(seen.error);
      expect(seen.border).toBe(seen.errorBorder);
      expect(seen.background).toBe(seen.errorBackground);
      await shootAtBothWidths(page, `notice-error-${t}`);
    }
  });
});

/** An sRGB colour as the page computes it (`rgb(…)`, `rgba(…)` or, from color-mix, `color(srgb …)`), each channel 0-1. */
function channels(css: string): [number, number, number] {
  const n = (css.match(/[\d.]+/g) ?? []).map(Number);
  const [r = 0, g = 0, b = 0] = css.startsWith('color(') ? n : n.map((v) => v / 255);
  return [r, g, b];
}

/** The WCAG contrast ratio of two opaque colours. */
function contrast(a: string, b: string): number {
  const lum = (css: string) => {
    const [r, g, b] = channels(css).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

describe('a notice that asks the user to choose a model', () => {
  it('is a warning said politely, amber rather than the error’s red, readable in both themes', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Hi' }])));
    const { page } = s;
    const alias = await page.evaluate(() => window.firebrand.aliases.create({ name: 'small', connectionId: 'ollama', model: 'llama3.2:3b', systemPrompt: '', parameters: {}, thinkMode: 'off', contextWindow: null }));
    await pickModel(page, 'small', 'alias');
    // Deleted (as from another window): the choice changes by itself, and the notice offers the picker.
    await page.evaluate((id) => window.firebrand.aliases.delete({ id }), alias.id);
    const notice = page.getByTestId('notice');
    await expect.poll(() => notice.locator('.banner-text').textContent().catch(() => '')).toBe('small is no longer an alias (it was deleted); llama3.2:3b is chosen now.');
    expect(await notice.getByTestId('notice-choose-model').count()).toBe(1);
    for (const t of ['light', 'dark'] as const) {
      await theme(page, t);
      const seen = await looks(notice);
      expect(seen.role).toBe('status');
      expect(await notice.getAttribute('data-tone')).toBe('warning');
      expect(seen.icon).not.toBe(seen.error);
      expect(seen.border).not.toBe(seen.errorBorder);
      expect(seen.background).not.toBe(seen.errorBackground);
      const { text, warn } = await notice.evaluate((el) => {
        const probe = document.createElement('span');
        probe.style.color = 'var(--warn)';
        el.append(probe);
        const w = getComputedStyle(probe).color;
        probe.remove();
        return { text: getComputedStyle(el.querySelector('.banner-text')!).color, warn: w };
      });
      expect(seen.icon).toBe(warn);
      // WCAG AA: the words at 4.5:1 on the banner, its sign at 3:1.
      expect(contrast(text, seen.background)).toBeGreaterThanOrEqual(4.5);
      expect(contrast(seen.icon, seen.background)).toBeGreaterThanOrEqual(3);
      await shootAtBothWidths(page, `notice-warning-${t}`);
    }
    expect(await page.getByRole('alert').count()).toBe(0);
  });
});
