/**
 * A modal dialog on a phone covers the page: at 390 px the Models dialog left the message box's meter lines
 * ("recommended for your system memory", "4,096 tokens fit…") showing below it and at its sides, through the scrim,
 * as if they were part of it.
 */
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { shootAtBothWidths } from './helpers/screenshots';
import { chatRoutes, ollamaLines, startUi, stopUi, type UiSession } from './helpers/ui-session';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

/** What of the page shows around an open dialog: its box against the viewport's, and whether its backdrop lets the page through. */
async function around(page: Page, testId: string) {
  return page.getByTestId(testId).evaluate((el) => {
    const box = el.getBoundingClientRect();
    const scrim = getComputedStyle(el, '::backdrop').backgroundColor;
    const alpha = /rgba?\([^)]*[,/]\s*([\d.]+)\)$/.exec(scrim)?.[1];
    return {
      covers: box.left <= 0 && box.top <= 0 && box.right >= innerWidth && box.bottom >= innerHeight,
      opaqueBackdrop: scrim !== 'transparent' && (alpha === undefined || Number(alpha) === 1),
    };
  });
}

describe('modal dialogs on a phone', () => {
  it('the Models and Settings dialogs leave nothing of the page showing beside or under them at 390 px', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Hi' }])));
    const { page } = s;
    await page.getByTestId('context-meter').waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('sidebar-toggle').click();
    await page.getByTestId('models-open').click();
    await page.getByTestId('models-screen').waitFor();
    const models = await around(page, 'models-screen');
    expect(models.covers || models.opaqueBackdrop, 'the meter under the message box shows beside the Models dialog').toBe(true);
    await shootAtBothWidths(page, 'modal-phone-models');
    await page.keyboard.press('Escape');
    await page.getByTestId('models-screen').waitFor({ state: 'detached' });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('sidebar-toggle').click();
    await page.getByTestId('settings-open').click();
    await page.getByTestId('settings-dialog').waitFor();
    const settings = await around(page, 'settings-dialog');
    expect(settings.covers || settings.opaqueBackdrop, 'the page shows beside the Settings dialog').toBe(true);
    await shootAtBothWidths(page, 'modal-phone-settings');
  });
});
