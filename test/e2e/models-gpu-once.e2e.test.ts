/**
 * The Models screen with no GPU found (the machines the e2e suite runs on have none: no nvidia-smi, rocm-smi or
 * /sys/class/drm card) said "GPU memory is unknown: set it in Settings → GPU memory to get a recommendation." in every
 * model's row, and again in the model's Details with the probe's note. It is said once, on the screen's GPU line, with
 * where to set it; the rows and Details point there. In serve mode against an Ollama replay.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ollamaRoutes, TAGS_BODY } from '../replay-server/ollama-wire';
import { shootAtBothWidths } from './helpers/screenshots';
import { serveSuite } from './helpers/serve-suite';

const show = readFileSync(new URL('../fixtures/ollama-models/show-qwen3-14b.json', import.meta.url), 'utf8');

const app = serveSuite({
  routes: () => [
    ...ollamaRoutes(['Hi']).filter((r) => r.path !== '/api/tags'),
    { path: '/api/tags', body: TAGS_BODY },
    { method: 'POST', path: '/api/show', body: show },
    { path: '/api/ps', body: '{"models":[]}' },
  ],
});

/** How many times the Models dialog says `words`, as a user reads it. */
const timesSaid = (words: string) => app.page.getByTestId('models-screen').evaluate((d, w) => (d as HTMLElement).innerText.split(w).length - 1, words);

describe('the GPU memory on the Models screen', () => {
  it('says once, on the screen, that the GPU memory is unknown and where to set it; the rows and Details point there', async () => {
    await app.openApp();
    await app.page.getByTestId('models-open').click();
    const line = app.page.getByTestId('models-gpu');
    await expect.poll(() => line.textContent()).toContain('GPU memory is unknown, so each model gets the default window: set the memory in Settings → GPU memory');
    const rows = app.page.getByTestId('model-window');
    await expect.poll(() => rows.count()).toBeGreaterThan(1);
    // Each row's window is the default, and says why in a word, not in full (it fell back at once: no GPU memory).
    for (const row of await rows.all()) {
      await expect.poll(() => row.getAttribute('data-source')).toBe('fallback');
      expect(await row.textContent()).toMatch(/· the default: see GPU memory above$/);
    }
    const model = app.page.locator('[data-testid="model-row"][data-model="qwen3:8b"]');
    await model.getByTestId('model-details').click();
    await app.page.getByTestId('context-recommend').click();
    await expect.poll(() => app.page.getByTestId('context-message').textContent()).toBe('No window is worked out without the GPU memory: see GPU memory above.');
    expect(await app.page.getByTestId('context-gpu').count()).toBe(0);
    // Before: once per row and twice in Details.
    expect(await timesSaid('GPU memory is unknown')).toBe(1);
    expect(await timesSaid('No GPU answered')).toBe(1);
    await shootAtBothWidths(app.page, 'models-gpu-unknown-once', '[data-testid="models-gpu"]');
  });

  it('has no GPU line once the GPU memory is set, and the rows get their window', async () => {
    await app.openApp();
    await app.page.getByTestId('settings-open').click();
    await app.page.getByTestId('gpu-override').fill('12');
    await app.page.getByTestId('settings-save').click();
    await app.page.getByTestId('settings-dialog').waitFor({ state: 'detached' });
    await app.page.getByTestId('models-open').click();
    const row = app.page.locator('[data-testid="model-row"][data-model="qwen3:8b"]').getByTestId('model-window');
    await expect.poll(() => row.getAttribute('data-source')).toBe('recommended');
    expect(await app.page.getByTestId('models-gpu').count()).toBe(0);
    expect(await timesSaid('GPU memory is unknown')).toBe(0);
  });
});
