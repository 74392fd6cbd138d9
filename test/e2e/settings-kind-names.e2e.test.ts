/**
 * Settings → Connections says each kind of server by a name a user knows, in its rows and in the add form's kind
 * dropdown: they showed the ids ("llama-server", "openai-compatible", "builtin"). A connection's "Summarize older
 * turns on its own" says under it what it does; it had a tooltip only.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { shootAtBothWidths } from './helpers/screenshots';
import { startUi, stopUi, type UiSession } from './helpers/ui-session';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

describe('Settings → Connections, in words', () => {
  it('names the kinds of server, and says what summarizing older turns does', async () => {
    s = await startUi();
    const { page } = s;
    await page.getByTestId('settings-open').click();
    const kinds = page.getByTestId('connection-add-kind').locator('option');
    await expect.poll(() => kinds.allTextContents()).toEqual(['Ollama', 'llama.cpp server', 'OpenAI-compatible (LM Studio, vLLM…)', 'Anthropic']);
    const row = (kind: string) => page.locator(`[data-testid="connection-item"][data-kind="${kind}"]`);
    // Named as their kinds are, the built-in two say their names once (settings-polish).
    expect(await row('ollama').getByTestId('connection-kind').count()).toBe(0);
    expect(await row('builtin').getByTestId('connection-kind').count()).toBe(0);

    await page.getByTestId('connection-add-kind').selectOption('openai-compatible');
    await page.getByTestId('connection-add-label').fill('Studio');
    await page.getByTestId('connection-add').click();
    await expect.poll(() => row('openai-compatible').getByTestId('connection-kind').textContent()).toBe('OpenAI-compatible (LM Studio, vLLM…)');

    // The choice's hint is its select's description, read with it.
    const select = row('ollama').getByTestId('connection-auto-compact');
    const hint = row('ollama').getByTestId('connection-auto-compact-hint');
    expect(await hint.textContent()).toContain('older turns go as a summary');
    expect(await select.getAttribute('aria-describedby')).toBe(await hint.getAttribute('id'));
    await shootAtBothWidths(page, 'settings-kind-names', '[data-testid="connection-list"]');
  });
});
