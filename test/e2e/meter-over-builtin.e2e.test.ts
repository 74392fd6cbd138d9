/**
 * The message box's lines with a draft too long for a built-in model's recommended window: the meter says its numbers
 * and "recommended for your system memory" once, and "Too long for long.gguf: …" takes a line of its own under it.
 * Beside a meter with no reason line it was squeezed into a column, over three lines at 1280 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCRIPTS } from '../support/scripted-gguf/scripts';
import { startBuiltinUi, stopBuiltinUi, type BuiltinSession } from './helpers/builtin-session';
import { pickModel } from './helpers/picker';
import { shootAtBothWidths } from './helpers/screenshots';

let s: BuiltinSession | undefined;
beforeAll(async () => {
  s = await startBuiltinUi('meter-over', [{ name: 'long.gguf', script: SCRIPTS.long, options: { contextLength: 32_768 } }]);
}, 120_000);
afterAll(() => stopBuiltinUi(s));

describe('the message box over a recommended window', () => {
  it('says the window once and why the draft does not fit on a line of its own', async () => {
    const page = s!.page;
    await pickModel(page, 'long.gguf');
    const meter = page.getByTestId('context-meter');
    await expect.poll(() => meter.getAttribute('data-source'), { timeout: 60_000 }).toBe('recommended');
    await page.getByTestId('composer-input').fill('word '.repeat(40_000));
    const reason = page.getByTestId('composer-reason');
    await expect.poll(() => reason.textContent(), { timeout: 30_000 }).toMatch(/^Too long for long\.gguf: /);
    expect(await page.getByTestId('context-reason').count()).toBe(0);
    expect(await page.locator('.composer-foot').innerText()).not.toContain('tokens fit in system memory');
    const place = await reason.evaluate((el) => {
      const box = el.getBoundingClientRect();
      const meterBox = document.querySelector('[data-testid="context-meter"]')!.getBoundingClientRect();
      return { below: box.top >= meterBox.bottom, lines: Math.round(box.height / parseFloat(getComputedStyle(el).lineHeight)) };
    });
    expect(place).toEqual({ below: true, lines: 1 });
    await shootAtBothWidths(page, 'meter-over-builtin');
  }, 120_000);
});
