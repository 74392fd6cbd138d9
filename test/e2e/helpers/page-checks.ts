/**
 * Checks that the accessibility and layout tests run on a page as it is now: axe-core's serious and critical
 * findings, and whether anything scrolls sideways or pokes out of the window. Shared so that a screen set up in
 * another file (a seeded history, say) gets the same checks.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical findings for the page as it is now (CDP evaluation is not bound by the CSP). */
export async function violations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  });
}

/** Switches the colour scheme and waits until the app follows it. */
export async function theme(page: Page, value: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: value });
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(value);
}

/**
 * Whether the page can scroll sideways, or any visible element pokes out of the window (anything inside a box
 * that scrolls or clips on its own, such as a code block, is checked as that box).
 */
export function overflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    if (document.documentElement.scrollWidth > width + 1) out.push(`page scrolls: ${document.documentElement.scrollWidth} > ${width}`);
    const clipped = (el: Element): boolean => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const style = getComputedStyle(p);
        if (style.overflowX !== 'visible' || style.position === 'fixed') return true;
      }
      return false;
    };
    for (const el of document.body.querySelectorAll('*')) {
      if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      if ((box.right > width + 1 || box.left < -1) && !clipped(el)) {
        out.push(`${el.tagName.toLowerCase()}.${el.className.toString().slice(0, 40)} [${el.getAttribute('data-testid') ?? ''}] ${Math.round(box.left)}–${Math.round(box.right)} of ${width}`);
      }
    }
    return out.slice(0, 10);
  });
}

/**
 * The visible inputs inside `root` whose placeholder is cut: wider, in the input's own font, than the room inside
 * its padding (an empty input's scrollWidth does not count its placeholder, so the text is measured on a canvas).
 * Each as "test id (or label): placeholder, width > room".
 */
export function cutPlaceholders(page: Page, root: string): Promise<string[]> {
  return page.locator(root).evaluate((box) => {
    const pen = document.createElement('canvas').getContext('2d');
    if (!pen) return ['no canvas to measure with'];
    const out: string[] = [];
    for (const el of box.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input[placeholder], textarea[placeholder]')) {
      if (el.placeholder === '' || !el.checkVisibility({ visibilityProperty: true })) continue;
      const style = getComputedStyle(el);
      pen.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      const width = pen.measureText(el.placeholder).width;
      if (width > room) out.push(`${el.dataset.testid ?? el.getAttribute('aria-label') ?? el.name}: ${el.placeholder}, ${Math.ceil(width)} > ${Math.floor(room)}`);
    }
    return out;
  });
}
