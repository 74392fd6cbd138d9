/**
 * Issue 9, bad input: a 1 MB paste into the composer keeps the UI usable. The paste is a real one: the text is
 * put on the clipboard and Ctrl+V pressed. (CDP's `Input.insertText` is not used: Chromium inserts its newlines
 * one editing command each, quadratic even in a bare <textarea>, so it measures Chromium, not us.) Then typed
 * characters must show in the textarea and the context meter must count them. How fast is a benchmark figure
 * (bench/paste.bench.ts, goal < 1 s, beside a bare <textarea>), not a test: this test waits for each state.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUi, stopUi, type UiSession } from './helpers/ui-session';

let s: UiSession | undefined;

beforeAll(async () => {
  s = await startUi();
});
afterAll(() => stopUi(s));

const ONE_MB = 1024 * 1024;

describe('a 1 MB paste', () => {
  it('lands intact; typing after it shows, the context meter counts both, and send still reflects the draft', async () => {
    if (!s) throw new Error('no session');
    const { page } = s;
    const input = page.getByTestId('composer-input');
    const meter = page.getByTestId('context-meter');
    const estimate = async () => Number(await meter.getAttribute('data-estimate'));
    await input.click();
    const before = await estimate();
    // Lines of prose, as a pasted log or document would be.
    const line = 'The quick brown fox jumps over the lazy dog; 0123456789.\n';
    const text = line.repeat(Math.ceil(ONE_MB / line.length)).slice(0, ONE_MB);

    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.serve.origin });
    await page.evaluate((t) => navigator.clipboard.writeText(t), text);
    await page.keyboard.press('Control+V');
    await page.waitForFunction((n) => (document.querySelector('[data-testid="composer-input"]') as HTMLTextAreaElement).value.length === n, ONE_MB);
    expect((await input.inputValue()) === text, 'the pasted text, unchanged').toBe(true);
    await expect.poll(estimate).toBeGreaterThan(before + ONE_MB / 8);
    const afterPaste = await estimate();

    await page.keyboard.type('Zebr');
    await page.waitForFunction(() => (document.querySelector('[data-testid="composer-input"]') as HTMLTextAreaElement).value.endsWith('Zebr'));
    expect((await input.inputValue()) === `${text}Zebr`, 'the paste, then the typed characters').toBe(true);
    await expect.poll(estimate).toBeGreaterThan(afterPaste);
    console.log(`1 MB paste: context meter ${before} -> ${afterPaste} -> ${await estimate()} tokens`);

    // Still usable: the send button reflects the draft (enabled, or disabled with a reason such as the window).
    const send = page.getByTestId('composer-send');
    await expect.poll(async () => (await send.isEnabled()) || ((await send.getAttribute('title')) ?? '').length > 0).toBe(true);
  });
});
