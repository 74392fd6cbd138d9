/**
 * The line under the message box with the GPU memory unknown (the machines the e2e suite runs on have no GPU): it
 * said main's whole sentence, "GPU memory is unknown: set it in Settings → GPU memory to get a recommendation.", cut
 * on a wide window and over three lines on a phone, while the Models screen says it once on its own GPU line. It now
 * says "The GPU memory is unknown." beside the default window (one short sentence: "GPU memory unknown" ran on from
 * the meter's "default" as one label), and "Set it" opens Settings at GPU memory. In serve mode
 * against an Ollama replay whose /api/show describes the model (only the GPU memory is missing).
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { chatRoutes, ollamaLines, startUi, stopUi, type UiSession } from './helpers/ui-session';
import { shootAtBothWidths } from './helpers/screenshots';

const show = readFileSync(new URL('../fixtures/ollama-models/show-qwen3-14b.json', import.meta.url), 'utf8');

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

describe('the message box’s window with the GPU memory unknown', () => {
  it('says it in one short sentence beside the default, and "Set it" opens Settings at GPU memory', async () => {
    s = await startUi([...chatRoutes(ollamaLines([{ content: 'Hi.' }])), { method: 'POST', path: '/api/show', body: show }, { path: '/api/ps', body: '{"models":[]}' }]);
    const { page } = s;
    const meter = page.getByTestId('context-meter');
    await expect.poll(() => meter.getAttribute('data-source')).toBe('fallback');
    const reason = page.getByTestId('context-reason');
    await expect.poll(() => reason.textContent()).toBe('The GPU memory is unknown.');
    expect(await page.locator('.composer-foot').innerText()).not.toContain('to get a recommendation');
    // The whole of it stays in the meter's title, for a pointer and a screen reader.
    expect(await meter.getAttribute('title')).toContain('(default): GPU memory is unknown: set it in Settings → GPU memory');
    // On a phone the words and "Set it" stay on one line (main's sentence took three).
    await page.setViewportSize({ width: 390, height: 844 });
    const top = async (testId: string) => (await page.getByTestId(testId).boundingBox())?.y ?? -1;
    await expect.poll(async () => Math.abs((await top('context-reason')) - (await top('context-set-gpu')))).toBeLessThan(4);
    expect(await reason.evaluate((el) => el.getClientRects().length)).toBe(1);
    await shootAtBothWidths(page, 'composer-gpu-unknown');

    await page.getByTestId('context-set-gpu').click();
    await page.getByTestId('settings-dialog').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('gpu-override');
    await shootAtBothWidths(page, 'composer-gpu-settings', '[data-testid="gpu-override"]');
    await page.getByTestId('gpu-override').fill('12');
    await page.getByTestId('settings-save').click();
    await page.getByTestId('settings-dialog').waitFor({ state: 'detached' });
    // The memory set, the window is the one that fits it, and the words and the link are gone.
    await expect.poll(() => meter.getAttribute('data-source')).toBe('recommended');
    expect(await page.getByTestId('context-set-gpu').count()).toBe(0);
  });
});
