/** The model picker (a combobox with a listbox, issue 17) as the e2e tests drive it. */
import type { Locator, Page } from 'playwright-core';

/**
 * The model picker's entry for a model or alias by the name it shows (in the DOM while the list is closed too).
 * An alias's value is `alias:<id>`; `kind` tells an alias from a model of the same name.
 */
export function modelOption(page: Page, name: string, kind?: 'model' | 'alias'): Locator {
  return page.locator(`[role="option"][data-name="${name}"]${kind ? `[data-kind="${kind}"]` : ''}`);
}

/** The names the model picker offers, in order (models and aliases). */
export function pickerValues(page: Page): Promise<string[]> {
  return page.locator('[role="listbox"] [role="option"]').evaluateAll((os) => os.map((o) => o.getAttribute('data-name') ?? ''));
}

/** Chooses a model as a user does: open the picker, type part of the name, click the entry. */
export async function pickModel(page: Page, name: string, kind?: 'model' | 'alias'): Promise<void> {
  const picker = page.getByTestId('model-picker');
  await picker.click();
  await picker.fill(name);
  await modelOption(page, name, kind).click();
  await expectPicked(page, name);
}

/** Waits until the picker has `name` selected (a model's name, or an alias's). */
export async function expectPicked(page: Page, name: string): Promise<void> {
  await page.waitForFunction((n) => document.querySelector('[data-testid="model-picker"]')?.getAttribute('data-name') === n, name);
}
