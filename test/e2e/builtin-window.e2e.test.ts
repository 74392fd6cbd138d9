/**
 * A window kept for a built-in GGUF while it is loaded (models hunt): the row went on saying "context 2,048" and
 * nothing said when the new window would apply, where Ollama's panel says the model reloads with it on its next use.
 * The engine makes the context again, with the new window, when an answer next runs on the file: the row says so
 * until then, and shows the new window once it has. Serve mode with the real engine process on a scripted GGUF.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCRIPTS } from '../support/scripted-gguf/scripts';
import { startBuiltinUi, stopBuiltinUi, type BuiltinSession } from './helpers/builtin-session';
import { pickModel } from './helpers/picker';
import { shootAtBothWidths } from './helpers/screenshots';

let session: BuiltinSession;
let page: Page;

beforeAll(async () => {
  session = await startBuiltinUi('builtin-window', [{ name: 'plain.gguf', script: SCRIPTS.plain }]);
  ({ page } = session);
});

afterAll(() => stopBuiltinUi(session));

describe('a window kept for a loaded built-in GGUF', () => {
  it('is said to apply on its next answer, and the row shows it once that answer has run', async () => {
    await page.getByTestId('models-open').click();
    const row = page.locator('[data-testid="library-item"][data-file="plain.gguf"]');
    await row.getByTestId('library-context').click();
    const typed = row.getByLabel('Context window in tokens');
    await typed.fill('2048');
    await row.getByTestId('library-context-keep').click();
    await expect.poll(() => page.getByTestId('library-note').textContent()).toBe('plain.gguf: keeps 2,048 tokens.');
    await row.getByTestId('library-load').click();
    await expect.poll(() => row.getByTestId('library-loaded').textContent()).toContain('context 2,048');
    expect(await row.getByTestId('library-window-pending').count()).toBe(0);

    await typed.fill('3072');
    await row.getByTestId('library-context-keep').click();
    await expect.poll(() => page.getByTestId('library-note').textContent()).toBe('plain.gguf: keeps 3,072 tokens.');
    // Before, only "context 2,048", with nothing saying when 3,072 would apply.
    await expect.poll(() => row.getByTestId('library-window-pending').textContent()).toBe('Loaded with 2,048 tokens: its next answer reloads it with 3,072.');
    expect(await row.getByTestId('library-loaded').textContent()).toContain('context 2,048');
    await shootAtBothWidths(page, 'builtin-window-pending', '[data-testid="library-window-pending"]');
    await page.getByTestId('models-close').click();

    await pickModel(page, 'plain.gguf');
    await page.getByTestId('composer-input').fill('Hello?');
    await page.getByTestId('composer-send').click();
    const answer = page.locator('[data-testid="turn"][data-role="assistant"]').last();
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: 60_000 }).toBe('done');
    await page.getByTestId('models-open').click();
    await expect.poll(() => row.getByTestId('library-loaded').textContent()).toContain('context 3,072');
    expect(await row.getByTestId('library-window-pending').count()).toBe(0);
    await page.getByTestId('models-close').click();
  });
});
