/**
 * The Models screen's words as a user meets them (models round 3), in serve mode against an Ollama replay: Ollama
 * down is said where its list would be, with Pull off and the alias form's empty Model list explained; Running says
 * the day a model unloads and "kept loaded" for keep_alive -1; a pull says "Downloading part 1", not a layer digest;
 * "Start from this model's settings" is a button as wide as its words.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ollamaRoutes, TAGS_BODY } from '../replay-server/ollama-wire';
import type { ReplayRoute } from '../replay-server/replay-server';
import { shootAtBothWidths } from './helpers/screenshots';
import { serveSuite } from './helpers/serve-suite';

const fx = (p: string) => readFileSync(new URL(`../fixtures/ollama-models/${p}`, import.meta.url), 'utf8');

/** What /api/ps says of a model kept loaded for good (keep_alive -1): an expiry about 292 years ahead. */
const FOR_GOOD = '2318-12-07T20:30:00.123456789Z';

function routes(ps = '{"models":[]}'): ReplayRoute[] {
  return [
    ...ollamaRoutes(['Hi']).filter((r) => r.path !== '/api/tags'),
    { path: '/api/tags', body: TAGS_BODY },
    { method: 'POST', path: '/api/show', body: fx('show-qwen3-14b.json') },
    { path: '/api/ps', body: ps },
    // Held at its sixth line: the first layer is part-way when the test looks.
    { method: 'POST', path: '/api/pull', body: fx('pull-llama3.2-1b.ndjson'), chunk: 'lines', headers: { 'content-type': 'application/x-ndjson' }, holdAfterChunks: 6 },
  ];
}

const app = serveSuite({ routes: () => routes() });

describe('the words of the Models screen', () => {
  it('says Ollama is down where its models would be, turns Pull off saying why, and says why the alias form has no model', async () => {
    // Nothing listens on port 9: Ollama is not running.
    await app.openApp('http://127.0.0.1:9');
    await app.page.getByTestId('models-open').click();
    const section = app.page.locator('section[aria-label="Models"]');
    await expect.poll(() => section.getByTestId('models-list-error').count()).toBe(1);
    expect(await section.getByTestId('models-list-error').textContent()).toMatch(/Ollama/);
    // Said once, there: not also at the top of the dialog, out of view at 390 px.
    expect(await app.page.getByTestId('models-screen-error').count()).toBe(0);
    expect(await section.getByTestId('models-list-title').textContent()).toBe('Ollama’s models');
    await app.page.getByTestId('pull-input').fill('llama3.2:1b');
    expect(await app.page.getByTestId('pull-button').isDisabled()).toBe(true);
    expect(await app.page.getByTestId('pull-off').textContent()).toBe('Pull is off while Ollama does not answer: see Ollama’s models below, and Try again there once it runs.');
    expect(await app.page.getByTestId('alias-no-models').textContent()).toBe('No model to choose: Ollama’s models could not be listed (see above).');
    await shootAtBothWidths(app.page, 'models-ollama-down', '[data-testid="models-list-error"]');
    await shootAtBothWidths(app.page, 'models-ollama-down-alias', '[data-testid="alias-no-models"]');
  });

  it('lists again on Try again once Ollama answers, and Pull is back', async () => {
    app.replay.setRoutes(routes().filter((r) => r.path !== '/api/tags').concat([{ path: '/api/tags', status: 500, body: '{"error":"busy"}' }]));
    await app.openApp();
    await app.page.getByTestId('models-open').click();
    await expect.poll(() => app.page.getByTestId('models-list-error').count()).toBe(1);
    app.replay.setRoutes(routes());
    await app.page.getByTestId('models-list-retry').click();
    await expect.poll(() => app.page.getByTestId('model-row').count()).toBe(2);
    expect(await app.page.getByTestId('models-list-error').count()).toBe(0);
    await app.page.getByTestId('pull-input').fill('llama3.2:1b');
    expect(await app.page.getByTestId('pull-button').isDisabled()).toBe(false);
    expect(await app.page.getByTestId('pull-off').count()).toBe(0);
  });

  it('says "kept loaded" for a model Ollama keeps for good, not a time centuries ahead', async () => {
    const ps = { models: [{ name: 'qwen3:8b', model: 'qwen3:8b', size: 6_000_000_000, size_vram: 6_000_000_000, context_length: 8192, expires_at: FOR_GOOD, digest: 'd' }] };
    app.replay.setRoutes(routes(JSON.stringify(ps)));
    await app.openApp();
    await app.page.getByTestId('models-open').click();
    const running = app.page.getByTestId('running-model');
    await expect.poll(() => running.textContent()).toContain('kept loaded');
    expect(await running.textContent()).not.toMatch(/unloads/);
    await shootAtBothWidths(app.page, 'models-running-kept', '[data-testid="running-model"]');
  });

  it('says a pull downloads its parts in plain words, not Ollama’s layer digests', async () => {
    await app.openApp();
    await app.page.getByTestId('models-open').click();
    await app.page.getByTestId('pull-input').fill('llama3.2:1b');
    await app.page.getByTestId('pull-button').click();
    await expect.poll(() => app.replay.held).toBe(1);
    const row = app.page.getByTestId('pull-progress');
    await expect.poll(() => row.textContent()).toContain('Downloading part 1');
    expect(await row.textContent()).not.toContain('74701a8c35f6');
    await shootAtBothWidths(app.page, 'models-pull-words', '[data-testid="pull-progress"]');
  });

  it('shows "Start from this model’s settings" as a button as wide as its words, not a field across the form', async () => {
    await app.openApp();
    await app.page.getByTestId('models-open').click();
    const button = app.page.getByTestId('alias-from-model');
    await expect.poll(() => button.count()).toBe(1);
    for (const width of [1280, 390]) {
      await app.page.setViewportSize({ width, height: 800 });
      const [own, form] = await Promise.all([button.boundingBox(), app.page.locator('form.mm-form').boundingBox()]);
      expect(own && form ? own.width / form.width : 1).toBeLessThan(0.75);
    }
    await shootAtBothWidths(app.page, 'models-alias-from-model', '[data-testid="alias-from-model"]');
  });
});
