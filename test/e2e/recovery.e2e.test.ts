/**
 * Issue 17, recovery without reloads: the app notices a server that comes back and models that appear or go,
 * every error banner has Retry and close, and "Test connection" tests the address on screen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TAGS_BODY } from '../replay-server/ollama-wire';
import { startReplayServer, type ReplayRoute } from '../replay-server/replay-server';
import { chatRoutes, modelOption, ollamaLines, pickModel, startUi, stopUi, type UiSession } from './helpers/ui-session';

const UP = chatRoutes(ollamaLines([{ content: 'Hi' }]));
const DOWN: ReplayRoute[] = UP.map((r) => ({ ...r, drop: true }));
const withoutQwen = (() => {
  const parsed = JSON.parse(TAGS_BODY) as { models: { name: string }[] };
  return JSON.stringify({ models: parsed.models.filter((m) => m.name !== 'qwen3:8b') });
})();

let s: UiSession | undefined;
beforeAll(async () => {
  s = await startUi(UP);
});
afterAll(async () => {
  await stopUi(s);
});

/** Set on the page once; still there later proves nothing reloaded it. */
async function markPage(): Promise<void> {
  await s?.page.evaluate(() => ((window as unknown as { __sameLoad?: boolean }).__sameLoad = true));
}
async function samePage(): Promise<boolean> {
  return (await s?.page.evaluate(() => (window as unknown as { __sameLoad?: boolean }).__sameLoad === true)) ?? false;
}

describe('recovery without reloads', () => {
  it('clears the server-down banner and lists the models once the server is back, without a reload', async () => {
    if (!s) throw new Error('no session');
    const { page, replay } = s;
    replay.setRoutes(DOWN);
    await page.reload();
    await markPage();
    const banner = page.getByTestId('models-error');
    await banner.waitFor();
    // One banner for the one problem, with Retry and close.
    expect(await banner.getByTestId('banner-retry').count()).toBe(1);
    expect(await banner.getByTestId('banner-close').count()).toBe(1);
    expect(await page.locator('.banner').count()).toBe(1);

    replay.setRoutes(UP);
    await banner.waitFor({ state: 'detached' });
    await modelOption(page, 'llama3.2:3b').waitFor({ state: 'attached' });
    expect(await samePage()).toBe(true);
  });

  it('drops a model deleted on the server from the picker, says so when it was the chosen one, and lists it again when it comes back', async () => {
    if (!s) throw new Error('no session');
    const { page, replay } = s;
    await pickModel(page, 'qwen3:8b');
    await markPage();
    replay.setRoutes(UP.map((r) => (r.path === '/api/tags' ? { ...r, body: withoutQwen } : r)));
    await modelOption(page, 'qwen3:8b').waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('notice').locator('.banner-text').textContent()).toContain('qwen3:8b is no longer on the server');
    await expect.poll(() => page.getByTestId('model-picker').getAttribute('data-value')).toBe('llama3.2:3b');
    await page.getByTestId('notice').getByTestId('banner-close').click();
    await page.getByTestId('notice').waitFor({ state: 'detached' });
    // Pulled again (it appears on the server): the picker lists it again, still without a reload.
    replay.setRoutes(UP);
    await modelOption(page, 'qwen3:8b').waitFor({ state: 'attached' });
    expect(await samePage()).toBe(true);
  });

  it('closes a banner with its close button; Retry reads the models again', async () => {
    if (!s) throw new Error('no session');
    const { page, replay } = s;
    replay.setRoutes(DOWN);
    await page.reload();
    const banner = page.getByTestId('models-error');
    await banner.waitFor();
    await banner.getByTestId('banner-close').click();
    await banner.waitFor({ state: 'detached' });
    await page.reload();
    await banner.waitFor();
    const asked = replay.requests.filter((r) => r.path === '/api/tags').length;
    await banner.getByTestId('banner-retry').click();
    await expect.poll(() => replay.requests.filter((r) => r.path === '/api/tags').length).toBeGreaterThan(asked);
    replay.setRoutes(UP);
    await banner.waitFor({ state: 'detached' });
  });

  it('asks a failed Test again once the server is back, and shows no result beside an address typed since (settings fix 2)', async () => {
    if (!s) throw new Error('no session');
    const { page, replay } = s;
    replay.setRoutes(DOWN);
    await page.reload();
    await page.getByTestId('models-error').waitFor();
    await page.getByTestId('settings-open').click();
    const row = page.locator('[data-testid="connection-item"][data-connection-id="ollama"]');
    await row.getByTestId('connection-test').click();
    await expect.poll(() => row.getByTestId('connection-test-result').getAttribute('data-ok')).toBe('false');
    // Before, "Could not reach …" stayed while the server was back and the picker listed its models.
    replay.setRoutes(UP);
    await expect.poll(() => row.getByTestId('connection-test-result').getAttribute('data-ok'), { timeout: 60_000 }).toBe('true');
    expect(await row.getByTestId('connection-test-result').textContent()).toContain('Ollama 0.12.6');
    // A result is about the address it tested: another one typed shows none, the tested one back shows it again.
    const saved = await page.getByTestId('settings-ollama-url').inputValue();
    await page.getByTestId('settings-ollama-url').fill('http://127.0.0.1:9');
    await expect.poll(() => row.getByTestId('connection-test-result').count()).toBe(0);
    await page.getByTestId('settings-ollama-url').fill(saved);
    await expect.poll(() => row.getByTestId('connection-test-result').getAttribute('data-ok')).toBe('true');
    await page.keyboard.press('Escape');
    await page.getByTestId('settings-dialog').waitFor({ state: 'detached' });
  });

  it('tests the Ollama address typed in Settings, not the saved one', async () => {
    if (!s) throw new Error('no session');
    const { page } = s;
    const other = await startReplayServer([{ path: '/api/version', body: '{"version":"0.99.0"}' }, { path: '/api/tags', body: withoutQwen }]);
    try {
      await page.getByTestId('settings-open').click();
      await page.getByTestId('settings-ollama-url').fill(other.url);
      const row = page.locator('[data-testid="connection-item"][data-connection-id="ollama"]');
      // The row's field holds what is typed, and the test goes there.
      expect(await row.getByTestId('settings-ollama-url').inputValue()).toBe(other.url);
      await row.getByTestId('connection-test').click();
      await expect.poll(() => row.getByTestId('connection-test-result').textContent()).toContain('Ollama 0.99.0, 1 model');
      expect(await row.getByTestId('connection-test-result').textContent()).not.toContain('model(s)');
      expect(other.requests.some((r) => r.path === '/api/version')).toBe(true);
      await page.keyboard.press('Escape');
    } finally {
      await other.close();
    }
  });
});
