/**
 * The model manager as a user meets it, in serve mode against an Ollama replay: pull a model and watch the
 * progress, make an alias, create it in Ollama, find it in the model picker and chat through it.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ollamaRoutes, TAGS_BODY } from '../replay-server/ollama-wire';
import { startReplayServer, type ReplayRoute } from '../replay-server/replay-server';
import { startServeProcess } from './helpers/serve-process';
import { expectPicked, modelOption, pickerValues, pickModel } from './helpers/picker';
import { answerRequests } from './helpers/ui-session';
import { serveSuite } from './helpers/serve-suite';
import { shootAtBothWidths } from './helpers/screenshots';

const fx = (p: string) => readFileSync(new URL(`../fixtures/ollama-models/${p}`, import.meta.url), 'utf8');
const ANSWER = ['Code', ' first', ', always.'];

function tagsWith(name: string, digest: string): string {
  const tags = JSON.parse(TAGS_BODY) as { models: Record<string, unknown>[] };
  const base = tags.models[1] ?? {};
  return JSON.stringify({ models: [...tags.models, { ...base, name, model: name, digest }] });
}

/** Pull lines written before the pull is held (when asked): 40% of the first layer, the bar part-way. */
const PULL_HOLD = 10;

function routes(tags = TAGS_BODY, holdPull = false): ReplayRoute[] {
  return [
    ...ollamaRoutes(ANSWER).filter((r) => r.path !== '/api/tags'),
    { path: '/api/tags', body: tags },
    { method: 'POST', path: '/api/show', body: fx('show-qwen3-14b.json') },
    { path: '/api/ps', body: '{"models":[]}' },
    // ~30 lines at a realistic pace; a test that must see the bar part-way holds the pull there.
    {
      method: 'POST',
      path: '/api/pull',
      body: fx('pull-llama3.2-1b.ndjson'),
      chunk: 'lines',
      delayMs: 120,
      headers: { 'content-type': 'application/x-ndjson' },
      ...(holdPull ? { holdAfterChunks: PULL_HOLD } : {}),
    },
    { method: 'POST', path: '/api/create', body: '{"status":"success"}' },
  ];
}

const app = serveSuite({ routes: () => routes() });

describe('the model manager in serve mode', () => {
  it('pulls a model with live progress, makes an alias, creates it in Ollama and chats through it', async () => {
    app.replay.setRoutes(routes(TAGS_BODY, true));
    await app.openApp();
    await app.page.getByTestId('models-open').click();
    await expect.poll(() => app.page.getByTestId('model-row').count()).toBe(2);

    // Pull: the bar is seen part-way (the server holds the pull there until the test has looked), then done.
    await app.page.getByTestId('pull-input').fill('llama3.2:1b');
    await app.page.getByTestId('pull-button').click();
    const bar = app.page.getByTestId('pull-progress');
    await expect.poll(() => app.replay.held).toBe(1);
    await expect.poll(async () => Number(await bar.getAttribute('data-percent'))).toBeGreaterThan(0);
    const partway = Number(await bar.getAttribute('data-percent'));
    expect(partway).toBeLessThan(100);
    await expect.poll(() => app.page.getByTestId('pull-stats').textContent()).toMatch(/GiB/);
    expect(await bar.getAttribute('data-state')).not.toBe('done');
    app.replay.setRoutes(routes());
    app.replay.release();
    await expect.poll(() => bar.getAttribute('data-state')).toBe('done');
    expect(await bar.getAttribute('data-percent')).toBe('100');
    expect(JSON.parse(app.replay.requests.find((r) => r.path === '/api/pull')?.body ?? '{}')).toEqual({ model: 'llama3.2:1b', stream: true });

    // Alias: model, system prompt, a parameter, think mode, context.
    await app.page.getByTestId('alias-name').fill('coder');
    await app.page.getByTestId('alias-model').selectOption('qwen3:8b');
    await app.page.getByTestId('alias-system').fill('Answer with code first.');
    await app.page.getByTestId('alias-temperature').fill('0.2');
    await app.page.getByTestId('alias-think').selectOption('low');
    await app.page.getByTestId('alias-context').fill('16384');
    await app.page.getByTestId('alias-save').click();
    const item = app.page.getByTestId('alias-item').filter({ hasText: 'coder' });
    await expect.poll(() => item.getByTestId('alias-status').getAttribute('data-status')).toBe('not-materialized');

    // Create it in Ollama; from then on /api/tags lists it.
    app.replay.setRoutes(routes(tagsWith('coder:latest', 'c0de')));
    await item.getByTestId('alias-materialize').click();
    await expect.poll(() => item.getByTestId('alias-status').getAttribute('data-status')).toBe('in-sync');
    const create = app.replay.requests.find((r) => r.path === '/api/create');
    expect(create?.body).toBe('{"model":"coder","from":"qwen3:8b","system":"Answer with code first.","parameters":{"temperature":0.2,"num_ctx":16384},"stream":false}');

    // The alias is offered in the model picker like any model, and a message goes through it.
    await app.page.getByTestId('models-close').click();
    // One entry for the alias: its Ollama copy (coder:latest) is the alias, not a second model (issue 17).
    await expect.poll(() => pickerValues(app.page)).toContain('coder');
    expect(await pickerValues(app.page)).not.toContain('coder:latest');
    await pickModel(app.page, 'coder');
    await app.page.getByTestId('composer-input').fill('Reverse a string in Python');
    await app.page.getByTestId('composer-send').click();
    // The chat screen is being reworked by others: check the answer's text, not its test ids.
    await expect.poll(() => app.page.locator('main').innerText()).toContain(ANSWER.join(''));
    const chats = app.replay.requests.filter((r) => r.path === '/api/chat').map((r) => JSON.parse(r.body) as { model?: string });
    expect(chats[0]).toMatchObject({ model: 'coder' });

    // Its Ollama copy disappears: Ollama says "try pulling it first", which cannot work for a name only Firebrand
    // knows. The answer offers to make it again from its base model instead (issue 17), and that works.
    await expect.poll(() => app.page.locator('[data-testid="turn"][data-role="assistant"][data-status="done"]').count()).toBe(1);
    app.replay.setRoutes([
      ...routes(TAGS_BODY).filter((r) => r.path !== '/api/chat'),
      { method: 'POST', path: '/api/chat', status: 404, body: '{"error":"model \\"coder\\" not found, try pulling it first"}' },
    ]);
    await app.page.getByTestId('composer-input').fill('Again please');
    await app.page.getByTestId('composer-send').click();
    const recreate = app.page.getByTestId('alias-recreate');
    await expect.poll(() => recreate.textContent()).toBe('Recreate coder from qwen3:8b and try again');
    expect(await app.page.getByTestId('turn-error').last().textContent()).not.toContain('try pulling');
    const creates = app.replay.requests.filter((r) => r.path === '/api/create').length;
    app.replay.setRoutes(routes(tagsWith('coder:latest', 'c0de')));
    await recreate.click();
    await expect.poll(() => app.replay.requests.filter((r) => r.path === '/api/create').length).toBe(creates + 1);
    await expect.poll(() => app.page.locator('[data-testid="turn"][data-role="assistant"]').last().getAttribute('data-status')).toBe('done');
  });

  it('says on a first run that an Ollama has no models yet and how to pull one, where the banner’s Open Models leads, until one is pulled (first-run hunt)', async () => {
    // Before: the screen's "Models" heading stood over nothing.
    app.replay.setRoutes(routes('{"models":[]}'));
    await app.openApp();
    await app.page.getByRole('button', { name: 'Open Models' }).click();
    const none = app.page.getByTestId('models-none');
    await expect.poll(() => none.textContent()).toBe(
      'This Ollama has no models yet. Pull one above by its name in the Ollama library (ollama.com/library), such as llama3.2:1b (1.3 GB); it is then in the composer’s model list.',
    );
    app.replay.setRoutes(routes());
    await app.page.getByTestId('pull-input').fill('llama3.2:1b');
    await app.page.getByTestId('pull-button').click();
    await expect.poll(() => app.page.getByTestId('pull-progress').getAttribute('data-state')).toBe('done');
    await expect.poll(() => app.page.getByTestId('model-row').count()).toBe(2);
    expect(await none.count()).toBe(0);
  });

  it('cancels a pull and says a server error mid-pull in its own words', async () => {
    // The pull is held part-way and never let go: it is still running when Cancel is pressed, on any machine.
    app.replay.setRoutes(routes(TAGS_BODY, true));
    await app.openApp();
    await app.page.getByTestId('models-open').click();
    await app.page.getByTestId('pull-input').fill('llama3.2:1b');
    await app.page.getByTestId('pull-button').click();
    await expect.poll(async () => Number(await app.page.getByTestId('pull-progress').getAttribute('data-percent'))).toBeGreaterThan(0);
    await app.page.getByTestId('pull-cancel').click();
    await expect.poll(() => app.page.getByTestId('pull-progress').getAttribute('data-state')).toBe('cancelled');
    // Ollama keeps what arrived (a second pull goes on from it): the row says so, in the words of its button.
    expect(await app.page.getByTestId('pull-cancelled').textContent()).toBe('Cancelled. Ollama keeps what arrived: Pull again goes on from there.');
    await shootAtBothWidths(app.page, 'pull-cancelled', '[data-testid="pull-cancelled"]');

    app.replay.setRoutes([...routes().filter((r) => r.path !== '/api/pull'), { method: 'POST', path: '/api/pull', body: fx('pull-error-mid-pull.ndjson'), chunk: 'lines', delayMs: 30 }]);
    await app.page.getByRole('button', { name: 'Dismiss' }).click();
    await app.page.getByTestId('pull-input').fill('llama3.2:1b');
    await app.page.getByTestId('pull-button').click();
    await expect.poll(() => app.page.getByTestId('pull-error').textContent()).toContain('no space left on device');

    // A pull refused at once says it failed: no "starting, 0 B / 0 B" under a bar that keeps moving (issue 17).
    await app.page.getByRole('button', { name: 'Dismiss' }).click();
    app.replay.setRoutes([...routes().filter((r) => r.path !== '/api/pull'), { method: 'POST', path: '/api/pull', status: 404, body: '{"error":"pull model manifest: file does not exist"}' }]);
    await app.page.getByTestId('pull-input').fill('no-such-model');
    await app.page.getByTestId('pull-button').click();
    await expect.poll(() => app.page.getByTestId('pull-error').textContent()).toContain('file does not exist');
    const failed = app.page.getByTestId('pull-progress');
    expect(await failed.getAttribute('data-state')).toBe('error');
    expect(await failed.locator('progress').count()).toBe(0);
    expect(await failed.textContent()).not.toContain('0 B / 0 B');
    expect(await failed.textContent()).not.toContain('starting');
  });

  it('keeps the GPU memory typed while the probe is still looking, and saves it', async () => {
    // An nvidia-smi that answers only when the test lets it: the user types before the probe is done, as on a
    // machine whose driver takes seconds to wake. (It also gives up when the data folder is removed.)
    const bin = join(app.dataDir, 'bin');
    const release = join(app.dataDir, 'release-probe');
    mkdirSync(bin);
    writeFileSync(join(bin, 'nvidia-smi'), `#!/bin/sh\nwhile [ ! -e '${release}' ] && [ -d '${bin}' ]; do sleep 0.05; done\necho '0, NVIDIA GeForce RTX 4090, 24564, 1024, 23540'\n`, { mode: 0o755 });
    app.serve = await startServeProcess({ dataDir: app.dataDir, ollamaUrl: app.replay.url, env: { PATH: `${bin}:${process.env.PATH ?? ''}`, FIREBRAND_GPU_PROBE_TIMEOUT_MS: '600000' } });
    await app.page.goto(app.serve.url);
    await app.page.getByTestId('settings-open').click();
    expect(await app.page.getByTestId('gpu-found').textContent()).toContain('Looking for GPUs');
    await app.page.getByTestId('gpu-override').fill('12');
    writeFileSync(release, '');
    await expect.poll(() => app.page.getByTestId('gpu-found').textContent()).toContain('nvidia-smi: NVIDIA GeForce RTX 4090');
    // The probe's late answer did not replace what was typed (it used to empty the field, so Save cleared the setting).
    expect(await app.page.getByTestId('gpu-override').inputValue()).toBe('12');
    await app.page.getByTestId('settings-save').click();
    await app.page.getByTestId('settings-dialog').waitFor({ state: 'detached' });
    await app.page.getByTestId('settings-open').click();
    await expect.poll(() => app.page.getByTestId('gpu-found').textContent()).toContain('Set by hand: 12');
    expect(await app.page.getByTestId('gpu-override').inputValue()).toBe('12');
  });

  it('works out the context window with its arithmetic and keeps the user’s choice', async () => {
    await app.openApp();
    // The GPU memory lives in Settings and applies to every model (issue 17); 12 typed there is 12 GiB.
    await app.page.getByTestId('settings-open').click();
    await app.page.getByTestId('gpu-override').fill('12');
    await app.page.getByTestId('settings-save').click();
    await app.page.getByTestId('settings-dialog').waitFor({ state: 'detached' });
    await app.page.getByTestId('models-open').click();
    // Each model says the window its next message carries, and why, without asking.
    // The source with its reason, so a failure says why the row fell back.
    const windowOf = app.page.locator('[data-testid="model-row"][data-model="qwen3:8b"]').getByTestId('model-window');
    await expect.poll(async () => `${await windowOf.getAttribute('data-source')}: ${await windowOf.getAttribute('title')}`).toMatch(/^recommended: /);
    await app.page.locator('[data-testid="model-row"][data-model="qwen3:8b"]').getByTestId('model-details').click();
    await app.page.getByTestId('context-recommend').click();
    await expect.poll(() => app.page.getByTestId('context-message').textContent()).toMatch(/tokens fit on the GPU/);
    await expect.poll(() => app.page.getByTestId('context-lines').textContent()).toContain('KV cache per token');
    await expect.poll(() => app.page.getByTestId('context-gpu').textContent()).toContain('12.0 GiB (set by hand in Settings)');
    await app.page.getByTestId('context-use').click();
    await expect.poll(() => app.page.getByTestId('context-saved').textContent()).toContain('reloads');
    await expect.poll(() => app.page.getByTestId('context-stored').textContent()).toContain('recommended');
  });

  it('says where the window is chosen that one past the GPU runs partly on the CPU, and keeps it (settings fix 1)', async () => {
    await app.openApp();
    await app.page.getByTestId('settings-open').click();
    await app.page.getByTestId('gpu-override').fill('8');
    await app.page.getByTestId('settings-save').click();
    await app.page.getByTestId('settings-dialog').waitFor({ state: 'detached' });
    await app.page.getByTestId('models-open').click();
    await app.page.locator('[data-testid="model-row"][data-model="qwen3:8b"]').getByTestId('model-details').click();
    await app.page.getByTestId('context-recommend').click();
    await expect.poll(() => app.page.getByTestId('context-message').textContent()).toMatch(/tokens fit on the GPU/);
    const fits = (await app.page.getByTestId('context-use').textContent())?.match(/Use ([\d,]+) tokens/)?.[1];
    expect(fits).toBeDefined();
    // Before, 40,960 (the trained context) was kept without a word, and Ollama ran part of the model on the CPU.
    await app.page.getByTestId('context-custom').fill('40960');
    await expect.poll(() => app.page.getByTestId('context-typed-fit').textContent()).toMatch(
      new RegExp(`^${fits} tokens fit your GPU; 40,960 needs ~[\\d.]+ GiB, more than the 8\\.0 GiB free — it will run partly on the CPU, slower\\.$`),
    );
    await app.page.getByTestId('context-keep').click();
    await expect.poll(() => app.page.getByTestId('context-saved').textContent()).toContain('Kept 40,960 tokens');
    await expect.poll(() => app.page.getByTestId('context-stored-fit').textContent()).toContain('it will run partly on the CPU');
    // The row says what the next message carries: the kept window, and that it runs partly on the CPU.
    const row = app.page.locator('[data-testid="model-row"][data-model="qwen3:8b"]').getByTestId('model-window');
    await expect.poll(() => row.getAttribute('data-window')).toBe('40960');
    await expect.poll(() => row.textContent()).toContain(`More than the ${fits} tokens that fit your GPU: the model runs partly on the CPU, slower.`);
    // The window that fits says nothing.
    await app.page.getByTestId('context-custom').fill(fits ?? '');
    await expect.poll(() => app.page.getByTestId('context-typed-fit').count()).toBe(0);
  });

  it('says why a typed window is not kept: not a window, or beyond what the model was trained for (models audit #2, #4)', async () => {
    await app.openApp();
    await app.page.getByTestId('models-open').click();
    await app.page.locator('[data-testid="model-row"][data-model="qwen3:8b"]').getByTestId('model-details').click();
    await app.page.getByTestId('context-custom').fill('16384');
    await app.page.getByTestId('context-keep').click();
    await expect.poll(() => app.page.getByTestId('context-saved').textContent()).toContain('Kept 16,384 tokens');
    // Before, these did nothing, and "Kept 16K tokens" stayed as if they had been kept.
    for (const typed of ['0', '-5', '1.5', 'abc', '100']) {
      await app.page.getByTestId('context-custom').fill(typed);
      await app.page.getByTestId('context-keep').click();
      await expect.poll(() => app.page.getByTestId('context-problem').textContent()).toBe('A window is a whole number of tokens, at least 256.');
      expect(await app.page.getByTestId('context-saved').count()).toBe(0);
    }
    // Before, 1,000,000 was kept for a model trained for 40,960, and every request carried it as num_ctx.
    await app.page.getByTestId('context-custom').fill('1000000');
    await app.page.getByTestId('context-keep').click();
    await expect.poll(() => app.page.getByTestId('context-problem').textContent()).toBe(
      'qwen3:8b was trained for a context of 40,960 tokens, so a 1,000,000-token window is more than it can use. Keep 40,960 or less.',
    );
    await expect.poll(() => app.page.getByTestId('context-stored').textContent()).toContain('16,384 tokens');
    await app.page.getByTestId('context-custom').fill('40960');
    await app.page.getByTestId('context-keep').click();
    await expect.poll(() => app.page.getByTestId('context-saved').textContent()).toContain('Kept 40,960 tokens');
    expect(await app.page.getByTestId('context-problem').count()).toBe(0);
  });
});

/** A llama-server on the replay server, beside its Ollama routes: started with -c 2048, one model loaded. */
const LLAMA_ROUTES: ReplayRoute[] = [
  { path: '/health', body: '{"status":"ok"}' },
  { path: '/props', body: JSON.stringify({ default_generation_settings: { n_ctx: 2048 }, chat_template: '{{ messages }}' }) },
  { path: '/v1/models', body: '{"object":"list","data":[{"id":"other.gguf","object":"model"}]}' },
];

/** Adds a llama-server connection at the replay server and, where asked, makes it the active one (then reloads). */
async function addLlamaServer(use: boolean): Promise<string> {
  const id = await app.page.evaluate((url) => window.firebrand.connections.save({ kind: 'llama-server', label: 'Local llama', baseUrl: url }).then((c) => c.id), app.replay.url);
  if (use) {
    await app.page.evaluate((c) => window.firebrand.settings.update({ activeConnectionId: c }), id);
    await app.page.reload();
  }
  return id;
}

const coderAlias = { name: 'small', connectionId: 'ollama', model: 'llama3.2:3b', systemPrompt: '', parameters: {}, thinkMode: 'off' as const, contextWindow: 6000 };

describe('aliases and connections (models audit)', () => {
  it('refuses an alias named like a model of its connection, and says why in the form (#1)', async () => {
    await app.openApp();
    await app.page.getByTestId('models-open').click();
    await expect.poll(() => app.page.getByTestId('model-row').count()).toBe(2);
    await app.page.getByTestId('alias-name').fill('qwen3:8b');
    await app.page.getByTestId('alias-model').selectOption('llama3.2:3b');
    await app.page.getByTestId('alias-save').click();
    await expect.poll(() => app.page.getByTestId('alias-problem').textContent()).toContain('“qwen3:8b” is already the name of a model here (qwen3:8b)');
    expect(await app.page.getByTestId('alias-item').count()).toBe(0);
    // In another case too: Ollama takes it for the same name, and "Create in Ollama" would write over the model
    // (second models audit #1).
    await app.page.getByTestId('alias-name').fill('Qwen3:8B');
    await app.page.getByTestId('alias-save').click();
    await expect.poll(() => app.page.getByTestId('alias-problem').textContent()).toContain('“Qwen3:8B” is already the name of a model here (qwen3:8b)');
    expect(await app.page.getByTestId('alias-item').count()).toBe(0);
    // Main refuses it too, with `:latest` spelled out, in words the form can show.
    const refused = await app.page.evaluate((a) => window.firebrand.aliases.create(a).then(() => 'saved', (e: Error) => e.message), { ...coderAlias, name: 'qwen3:8b' });
    expect(refused).toContain('would hide it');
  });

  it('asks before deleting an alias, as a model’s Delete… does (second models audit #6)', async () => {
    await app.openApp();
    await app.page.evaluate((a) => window.firebrand.aliases.create(a), coderAlias);
    await app.page.getByTestId('models-open').click();
    const alias = app.page.locator('[data-testid="alias-item"][data-alias="small"]');
    // Before, one click deleted it, with its system prompt, parameters and window.
    await alias.getByTestId('alias-delete').click();
    expect(await alias.getByTestId('alias-delete-question').textContent()).toBe('Delete the alias small? Its system prompt, parameters and window go with it.');
    await expect.poll(() => app.page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('alias-delete-keep');
    await alias.getByTestId('alias-delete-keep').click();
    await expect.poll(() => app.page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('alias-delete');
    expect(await app.page.evaluate(() => window.firebrand.aliases.list({}).then((l) => l.map((a) => a.name)))).toEqual(['small']);
    await alias.getByTestId('alias-delete').click();
    await alias.getByTestId('alias-delete-confirm').click();
    await expect.poll(() => app.page.getByTestId('alias-item').count()).toBe(0);
    expect(await app.page.evaluate(() => window.firebrand.aliases.list({}))).toEqual([]);
  });

  it('edits an alias of another connection on that connection, with its models (#2)', async () => {
    app.replay.setRoutes([...routes(), ...LLAMA_ROUTES]);
    await app.openApp();
    await app.page.evaluate((a) => window.firebrand.aliases.create(a), coderAlias);
    await addLlamaServer(true);
    await app.page.getByTestId('models-open').click();
    await app.page.getByTestId('alias-edit').click();
    await expect.poll(() => app.page.getByTestId('alias-model').locator('option').allTextContents()).toEqual(['llama3.2:3b', 'qwen3:8b']);
    expect(await app.page.getByTestId('alias-model').inputValue()).toBe('llama3.2:3b');
    await expect.poll(() => app.page.getByTestId('alias-connection').textContent()).toContain('another connection');
    await app.page.getByTestId('alias-system').fill('Be brief.');
    await app.page.getByTestId('alias-save').click();
    // The row said "small" before the save too: wait for the save itself (ci-137 read the list before it landed).
    await expect
      .poll(() => app.page.evaluate(() => window.firebrand.aliases.list({})))
      .toMatchObject([{ name: 'small', connectionId: 'ollama', model: 'llama3.2:3b', systemPrompt: 'Be brief.' }]);
    await expect.poll(() => app.page.getByTestId('alias-item').textContent()).toContain('small');
    // Ollama's own actions stay with Ollama's aliases: a new alias is of llama-server's models, which Ollama cannot
    // start from, while the Ollama alias can still be created there.
    await expect.poll(() => app.page.getByTestId('alias-from-model').count()).toBe(0);
    expect(await app.page.getByTestId('alias-item').getByTestId('alias-materialize').count()).toBe(1);
  });

  it('shows llama-server’s own window on the Models screen and keeps Ollama’s actions away from it (#3)', async () => {
    app.replay.setRoutes([...routes(), ...LLAMA_ROUTES]);
    await app.openApp();
    await addLlamaServer(true);
    app.replay.requests.length = 0;
    await app.page.getByTestId('models-open').click();
    const row = app.page.locator('[data-testid="model-row"][data-model="other.gguf"]');
    await expect.poll(() => row.getByTestId('model-window').getAttribute('data-source')).toBe('server');
    expect(await row.getByTestId('model-window').getAttribute('data-window')).toBe('2048');
    expect(await row.getByTestId('model-window').textContent()).toContain('llama-server was started with n_ctx 2048');
    expect(await row.getByTestId('model-details').count()).toBe(0);
    expect(await row.getByTestId('model-delete').count()).toBe(0);
    expect(await app.page.getByTestId('pull-input').count()).toBe(0);
    expect(await app.page.getByTestId('running-none').textContent()).toContain('keeps its own model loaded');
    // Nothing of this screen asked Ollama.
    expect(app.replay.requests.filter((r) => r.path.startsWith('/api/')).map((r) => r.path)).toEqual([]);
    // Restarted with another -c while the screen stays open: the row follows it (second models audit #3: it kept
    // n_ctx 2048 until the screen was opened again). The server watch looks every few seconds.
    app.replay.setRoutes([...routes(), ...LLAMA_ROUTES.map((r) => (r.path === '/props' ? { ...r, body: JSON.stringify({ default_generation_settings: { n_ctx: 4096 } }) } : r))]);
    await expect.poll(() => row.getByTestId('model-window').getAttribute('data-window')).toBe('4096');
    expect(await row.getByTestId('model-window').textContent()).toContain('llama-server was started with n_ctx 4096');
  });

  it('updates a model’s row as soon as a window is kept or forgotten (#4)', async () => {
    await app.openApp();
    await app.page.getByTestId('models-open').click();
    const row = app.page.locator('[data-testid="model-row"][data-model="qwen3:8b"]');
    await row.getByTestId('model-window').waitFor();
    await row.getByTestId('model-details').click();
    await app.page.getByTestId('context-custom').fill('16384');
    await app.page.getByRole('button', { name: 'Keep this window' }).click();
    await expect.poll(() => row.getByTestId('model-window').getAttribute('data-window')).toBe('16384');
    expect(await row.getByTestId('model-window').getAttribute('data-source')).toBe('user');
    await app.page.getByRole('button', { name: 'Forget' }).click();
    await expect.poll(() => row.getByTestId('model-window').getAttribute('data-source')).not.toBe('user');
  });

  it('keeps a window for the second Ollama in use: its row, the meter and num_ctx carry it (context audit #1)', async () => {
    // Before, the window was saved for the Ollama in Settings: "Kept 3,072 tokens" was said, while the row, the
    // meter and the request kept the default.
    const gpuBox = await startReplayServer(routes());
    try {
      await app.openApp();
      const id = await app.page.evaluate((url) => window.firebrand.connections.save({ kind: 'ollama', label: 'GPU box', baseUrl: url }).then((c) => c.id), gpuBox.url);
      await app.page.evaluate((c) => window.firebrand.settings.update({ activeConnectionId: c }), id);
      await app.page.reload();
      await app.page.getByTestId('models-open').click();
      const row = app.page.locator('[data-testid="model-row"][data-model="qwen3:8b"]');
      await row.getByTestId('model-window').waitFor();
      await row.getByTestId('model-details').click();
      await app.page.getByTestId('context-custom').fill('3072');
      await app.page.getByTestId('context-keep').click();
      await expect.poll(() => app.page.getByTestId('context-saved').textContent()).toContain('Kept 3,072 tokens');
      await expect.poll(() => row.getByTestId('model-window').getAttribute('data-source')).toBe('user');
      expect(await row.getByTestId('model-window').getAttribute('data-window')).toBe('3072');
      await expect.poll(() => app.page.getByTestId('context-stored').textContent()).toContain('3,072 tokens');
      await app.page.getByTestId('models-close').click();
      await pickModel(app.page, 'qwen3:8b');
      await expect.poll(() => app.page.getByTestId('context-meter').getAttribute('data-window')).toBe('3072');
      await app.page.getByTestId('composer-input').fill('hello window');
      await app.page.getByTestId('composer-send').click();
      await expect.poll(() => answerRequests(gpuBox).length).toBe(1);
      expect(answerRequests(gpuBox)[0]).toMatchObject({ options: { num_ctx: 3072 } });
      expect(answerRequests(app.replay)).toEqual([]);
    } finally {
      await gpuBox.close();
    }
  });

  it('keeps the picker wide enough to read an alias at 390 px, with the alias’s think note beside or under it (#8)', async () => {
    app.serve = await startServeProcess({ dataDir: app.dataDir, ollamaUrl: app.replay.url });
    await app.page.setViewportSize({ width: 390, height: 844 });
    await app.page.goto(app.serve.url);
    await app.page.evaluate((a) => window.firebrand.aliases.create(a), { ...coderAlias, name: 'tiny', model: 'qwen3:8b' });
    await app.page.reload();
    await pickModel(app.page, 'tiny');
    await expect.poll(() => app.page.getByTestId('think-set-by').textContent()).toBe('think off (alias tiny)');
    const picker = app.page.getByTestId('model-picker');
    // It showed "t…" here: the note took the row's width.
    expect((await picker.boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(100);
    expect(await picker.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    expect(await app.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });

  it('follows a renamed alias when its chat is reopened, and says so when a chat’s alias is gone (#6)', async () => {
    await app.openApp();
    const alias = await app.page.evaluate((a) => window.firebrand.aliases.create(a), coderAlias);
    await app.page.reload();
    await pickModel(app.page, 'small');
    await app.page.getByTestId('composer-input').fill('Hello');
    await app.page.getByTestId('composer-send').click();
    await expect.poll(() => app.page.locator('[data-testid="turn"][data-role="assistant"][data-status="done"]').count()).toBe(1);
    await app.page.getByTestId('models-open').click();
    await app.page.getByTestId('alias-edit').click();
    await app.page.getByTestId('alias-name').fill('tiny');
    await app.page.getByTestId('alias-save').click();
    await expect.poll(() => app.page.getByTestId('alias-item').getAttribute('data-alias')).toBe('tiny');
    await app.page.getByTestId('models-close').click();
    await app.page.getByTestId('new-chat').click();
    await pickModel(app.page, 'qwen3:8b');
    await app.page.getByTestId('conversation-item').first().click();
    await expectPicked(app.page, 'tiny');
    expect(await app.page.getByTestId('model-picker').getAttribute('data-value')).toBe(`alias:${alias.id}`);
    await app.page.getByTestId('composer-input').fill('Again');
    await app.page.getByTestId('composer-send').click();
    await expect.poll(() => app.page.locator('[data-testid="turn"][data-role="assistant"][data-status="done"]').count()).toBe(2);
    const chats = app.replay.requests.filter((r) => r.path === '/api/chat').map((r) => JSON.parse(r.body) as { model?: string; options?: { num_ctx?: number } });
    expect(chats.at(-1)).toMatchObject({ model: 'llama3.2:3b', options: { num_ctx: 6000 } });

    // The alias deleted: the chat says what answers now instead of switching in silence.
    await app.page.evaluate((id) => window.firebrand.aliases.delete({ id }), alias.id);
    await app.page.getByTestId('new-chat').click();
    await app.page.reload();
    // Opened with the model list here, the chat says so at once (open-conversation.ts); one opened before it says so
    // as the list comes, which test/renderer/model-list-after-open.test.ts checks without a race.
    await modelOption(app.page, 'qwen3:8b').waitFor({ state: 'attached' });
    await app.page.getByTestId('conversation-item').first().click();
    await expect.poll(() => app.page.locator('body').innerText()).toContain('This chat was answered by tiny, which is not offered now; your next message goes to');
  });
});
