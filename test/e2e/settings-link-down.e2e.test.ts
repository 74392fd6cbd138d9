/**
 * Settings with serve mode's link down (settings user's-eyes pass): a connection added, edited, removed or tested
 * then said "That request did not start: …", naming nothing, beside a form the user had just filled. It says which
 * ("Saving the connection did not start: …"), as Save's refusal does ("Saving the settings…"), and keeps what was
 * typed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { shootAtBothWidths } from './helpers/screenshots';
import { startUi, stopUi, type UiSession } from './helpers/ui-session';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

const DOWN = 'did not start: the connection to Firebrand is down. Nothing was sent; try again once it is back.';

describe('Settings → Connections with the link to Firebrand down', () => {
  it('says which action did not start, beside the form or row that asked, and keeps what was typed', async () => {
    s = await startUi();
    const { page } = s;
    await page.getByTestId('settings-open').click();
    await page.getByTestId('connection-add-kind').selectOption('llama-server');
    await page.getByTestId('connection-add-label').fill('Desk llama');
    await s.serve.stop();
    await page.getByTestId('connection-add').click();
    await expect.poll(() => page.getByTestId('connection-error').textContent(), { timeout: 30_000 }).toBe(`Saving the connection ${DOWN}`);
    expect(await page.getByTestId('connection-add-label').inputValue()).toBe('Desk llama');
    await shootAtBothWidths(page, 'settings-link-down', '[data-testid="connection-error"]');

    const ollama = page.locator('[data-testid="connection-item"][data-connection-id="ollama"]');
    await ollama.getByTestId('connection-test').click();
    await expect.poll(() => ollama.getByTestId('connection-test-result').textContent(), { timeout: 30_000 }).toBe(`Testing the connection ${DOWN}`);
  });
});
