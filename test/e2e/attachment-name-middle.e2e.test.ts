/**
 * The last closing note's gaps: a long file name on a desktop was cut at its end, "quarterly-report-final-v…", which
 * hid its extension and the letters that told two drafts apart. It is cut in the middle now, by the layout, keeping
 * the end in sight; the name stays whole for a screen reader, on hover and in the preview. Measured in the message
 * box's chip and the sent message's, at 1280 px and at 390 px (where the name wraps, as the phone audit asked).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { send, startUi, stopUi, waitIdle, USER, type UiSession } from './helpers/ui-session';

const NAME = 'quarterly-report-for-the-board-meeting-final-v3.txt';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

/**
 * Whether the name's last `chars` letters are drawn inside the name's button (which clips what overflows it), and
 * whether its first letter is: the text is measured where it is laid out, whatever elements hold it.
 */
async function shown(name: Locator, chars: number): Promise<{ end: boolean; start: boolean; text: string }> {
  return name.evaluate((button, n) => {
    const box = button.getBoundingClientRect();
    const texts: Text[] = [];
    const walk = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
    while (walk.nextNode()) texts.push(walk.currentNode as Text);
    const inside = (node: Text, from: number, to: number) => {
      const range = document.createRange();
      range.setStart(node, from);
      range.setEnd(node, to);
      return [...range.getClientRects()].every((r) => r.left >= box.left - 0.5 && r.right <= box.right + 0.5 && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5);
    };
    const last = texts[texts.length - 1];
    const first = texts[0];
    if (!last || !first) return { end: false, start: false, text: '' };
    const len = last.data.length;
    return { end: inside(last, Math.max(0, len - n), len), start: inside(first, 0, 1), text: texts.map((t) => t.data).join('') };
  }, chars);
}

async function expectEndShown(page: Page, name: Locator): Promise<void> {
  await name.waitFor();
  const m = await shown(name, '.txt'.length + 2);
  expect(m).toEqual({ end: true, start: true, text: NAME });
  // Whole for a screen reader and on hover.
  expect(await page.getByRole('button', { name: NAME, exact: true }).count()).toBeGreaterThan(0);
  expect(await name.getAttribute('title')).toContain(NAME);
}

describe("a long file name in a chip", () => {
  for (const width of [1280, 390]) {
    it(`keeps its end in sight at ${width} px, in the message box and in the sent message, and whole in the preview`, async () => {
      s = await startUi();
      const { page } = s;
      await page.setViewportSize({ width, height: 800 });
      await page.getByTestId('attach-input').setInputFiles({ name: NAME, mimeType: 'text/plain', buffer: Buffer.from('Revenue went up.\n'.repeat(20)) });
      const pending = page.getByTestId('pending-attachments').getByTestId('attachment-open');
      await expectEndShown(page, pending);
      await send(page, 'Summarise this.');
      await waitIdle(page);
      const sent = page.locator(USER).getByTestId('attachment-open');
      await expectEndShown(page, sent);
      if (width === 1280) {
        // On a desktop it is cut: the middle gives way, not the end.
        expect(await sent.evaluate((b) => b.scrollWidth > b.clientWidth || [...b.children].some((c) => c.scrollWidth > c.clientWidth))).toBe(true);
      }
      await sent.click();
      const preview = page.getByTestId('attachment-preview');
      await preview.waitFor();
      expect(await preview.getByRole('heading', { name: NAME }).count()).toBe(1);
    });
  }
});
