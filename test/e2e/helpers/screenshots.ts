import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';

/** Where e2e tests put the pictures of the screens they change (FIREBRAND_SHOTS moves them). */
export const SHOTS_DIR = process.env.FIREBRAND_SHOTS ?? resolve(import.meta.dirname, '../../../test-results/screenshots');

/**
 * Pictures of the page at a desktop's width (1280) and a phone's (390), as `<name>-<width>.png`, then back to the
 * desktop size. Each is taken once animations are over (the sidebar slides into a drawer at a phone's width);
 * `target` is scrolled into view first (a virtualized list may re-mount it on a resize).
 */
export async function shootAtBothWidths(page: Page, name: string, target?: string): Promise<void> {
  mkdirSync(SHOTS_DIR, { recursive: true });
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.waitForFunction(() => document.getAnimations().length === 0);
    if (target) await page.locator(target).last().scrollIntoViewIfNeeded({ timeout: 5_000 }).catch(() => undefined);
    await page.screenshot({ path: `${SHOTS_DIR}/${name}-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}
