/**
 * The Models screen's rows as a user meets them (models round 2), in serve mode against an Ollama replay: a model's
 * Details fold when clicked again; the focus stays where the user was as a pull or a download changes state (Pull,
 * Cancel, Pull again, Dismiss, Pause, Resume) and as a models-folder file is renamed, where it fell to <body> with
 * the button that went; a llama-server model's row shows its size and parameters, not a lone "—"; an alias's
 * buttons stand apart; a name refused at once comes back to the Pull box.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ollamaRoutes, TAGS_BODY } from '../replay-server/ollama-wire';
import type { ReplayRoute } from '../replay-server/replay-server';
import { generateScriptedModel } from '../support/scripted-gguf/generate';
import { SCRIPTS } from '../support/scripted-gguf/scripts';
import { shootAtBothWidths } from './helpers/screenshots';
import { serveSuite } from './helpers/serve-suite';

const fx = (p: string) => readFileSync(new URL(`../fixtures/ollama-models/${p}`, import.meta.url), 'utf8');
// Real llama-server captures, shared by the project; read in place, never copied.
const CONFORMANCE = resolve(import.meta.dirname, '../../../shared/conformance/llama-server');

function routes(pull: Partial<ReplayRoute> = {}): ReplayRoute[] {
  return [
    ...ollamaRoutes(['Hi']).filter((r) => r.path !== '/api/tags'),
    { path: '/api/tags', body: TAGS_BODY },
    { method: 'POST', path: '/api/show', body: fx('show-qwen3-14b.json') },
    { path: '/api/ps', body: '{"models":[]}' },
    // Held part-way: still running when Cancel is pressed, on any machine.
    { method: 'POST', path: '/api/pull', body: fx('pull-llama3.2-1b.ndjson'), chunk: 'lines', headers: { 'content-type': 'application/x-ndjson' }, holdAfterChunks: 10, ...pull },
  ];
}

const app = serveSuite({ routes });

/** The focused control's test id (its tag where it has none: BODY when the focus fell). */
const focused = () => app.page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? '');

async function open(): Promise<void> {
  await app.openApp();
  await app.page.getByTestId('models-open').click();
}

describe('the rows of the Models screen', () => {
  it("folds a model's Details when Details is clicked again, and says whether they are open (aria-expanded)", async () => {
    await open();
    const row = app.page.locator('[data-testid="model-row"][data-model="qwen3:8b"]');
    const details = row.getByTestId('model-details');
    expect(await details.getAttribute('aria-expanded')).toBe('false');
    await details.click();
    await expect.poll(() => row.getByTestId('model-details-view').count()).toBe(1);
    expect(await details.getAttribute('aria-expanded')).toBe('true');
    expect(await details.getAttribute('aria-controls')).toBe(await row.getByTestId('model-details-view').getAttribute('id'));
    // Before, the second click asked for them again and they stayed open.
    await details.click();
    await expect.poll(() => row.getByTestId('model-details-view').count()).toBe(0);
    expect(await details.getAttribute('aria-expanded')).toBe('false');
    expect(await focused()).toBe('model-details');
  });

  it('keeps the focus on a pull: Pull → its Cancel → "Pull again" in its place → the new pull\'s Cancel; Dismiss → the Pull box', async () => {
    await open();
    await app.page.getByTestId('pull-input').fill('llama3.2:1b');
    await app.page.getByTestId('pull-button').click();
    // Pull disables as the box empties: the focus fell to <body>.
    await expect.poll(focused).toBe('pull-cancel');
    await expect.poll(() => app.replay.held).toBe(1);
    await app.page.keyboard.press('Enter');
    await expect.poll(() => app.page.getByTestId('pull-progress').getAttribute('data-state')).toBe('cancelled');
    expect(await focused()).toBe('pull-retry');
    await shootAtBothWidths(app.page, 'models-pull-cancelled', '[data-testid="pull-progress"]');
    await app.page.keyboard.press('Enter');
    await expect.poll(() => app.page.getByTestId('pull-progress').getAttribute('data-state')).toBe('running');
    await expect.poll(focused).toBe('pull-cancel');
    await app.page.keyboard.press('Enter');
    await expect.poll(() => app.page.getByTestId('pull-progress').getAttribute('data-state')).toBe('cancelled');
    await app.page.keyboard.press('Tab');
    expect(await focused()).toBe('pull-dismiss');
    await app.page.keyboard.press('Enter');
    await expect.poll(() => app.page.getByTestId('pull-progress').count()).toBe(0);
    await expect.poll(focused).toBe('pull-input');
  });

  it('keeps the focus on Enter in the Pull box, for the next name', async () => {
    await open();
    await app.page.getByTestId('pull-input').fill('llama3.2:1b');
    await app.page.keyboard.press('Enter');
    await expect.poll(() => app.page.getByTestId('pull-progress').count()).toBe(1);
    expect(await focused()).toBe('pull-input');
  });

  it('gives a name refused at once back to the Pull box, to be corrected', async () => {
    app.replay.setRoutes([...routes().filter((r) => r.path !== '/api/pull'), { method: 'POST', path: '/api/pull', status: 404, body: '{"error":"pull model manifest: file does not exist"}' }]);
    await open();
    const box = app.page.getByTestId('pull-input');
    await box.fill('lama3.2:1b');
    await app.page.getByTestId('pull-button').click();
    await expect.poll(() => app.page.getByTestId('pull-error').textContent()).toContain('no model by that name');
    // Before, the box stayed empty and the misspelt name had to be typed again.
    await expect.poll(() => box.inputValue()).toBe('lama3.2:1b');
    await box.fill('llama3.2:1b');
    await app.page.getByTestId('pull-button').click();
    await expect.poll(() => app.page.getByTestId('pull-error').count()).toBe(2);
    await expect.poll(() => box.inputValue()).toBe('llama3.2:1b');
  });

  it('keeps the focus on Pause as it turns into Resume, and back', async () => {
    // A file server that sends part of the file and then holds: the download runs until paused, on any machine.
    const model = readFileSync(generateScriptedModel(SCRIPTS.plain));
    const files: Server = createServer((req, res) => {
      const from = Number(/bytes=(\d+)-/.exec(req.headers.range ?? '')?.[1] ?? 0);
      const rest = model.subarray(from);
      res.writeHead(from > 0 ? 206 : 200, {
        'accept-ranges': 'bytes',
        'content-length': String(rest.length),
        ...(from > 0 ? { 'content-range': `bytes ${from}-${model.length - 1}/${model.length}` } : {}),
      });
      if (req.method === 'HEAD') res.end();
      else res.write(rest.subarray(0, 4096));
    });
    await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
    try {
      const a = files.address();
      await open();
      await app.page.getByTestId('library-download-url').fill(`http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}/m/plain-dl.gguf`);
      await app.page.getByTestId('library-download-start').click();
      const row = app.page.getByTestId('library-download-progress');
      await expect.poll(() => row.getAttribute('data-state')).toBe('running');
      await row.getByTestId('library-download-pause').focus();
      await app.page.keyboard.press('Enter');
      await expect.poll(() => row.getAttribute('data-state')).toBe('paused');
      // Before, Pause went and Resume came as another button: the focus fell to <body>.
      expect(await focused()).toBe('library-download-resume');
      await shootAtBothWidths(app.page, 'models-download-paused', '[data-testid="library-download-progress"]');
      await app.page.keyboard.press('Enter');
      await expect.poll(() => row.getAttribute('data-state')).toBe('running');
      expect(await focused()).toBe('library-download-pause');
      await row.getByTestId('library-download-cancel').click();
    } finally {
      files.closeAllConnections();
      await new Promise((r) => files.close(r));
    }
  });

  it('keeps the focus through Rename…: in the name, then on the renamed file\'s Rename…, and on Rename… after Cancel', async () => {
    mkdirSync(join(app.dataDir, 'models'), { recursive: true });
    writeFileSync(join(app.dataDir, 'models', 'plain.gguf'), readFileSync(generateScriptedModel(SCRIPTS.plain)));
    await open();
    const row = app.page.locator('[data-testid="library-item"][data-file="plain.gguf"]');
    await row.getByTestId('library-rename').click();
    await expect.poll(focused).toBe('library-rename-input');
    await row.getByTestId('library-rename-cancel').click();
    await expect.poll(focused).toBe('library-rename');
    await app.page.keyboard.press('Enter');
    await expect.poll(focused).toBe('library-rename-input');
    await app.page.getByTestId('library-rename-input').fill('plain-renamed.gguf');
    await app.page.keyboard.press('Tab');
    await app.page.keyboard.press('Enter');
    const renamed = app.page.locator('[data-testid="library-item"][data-file="plain-renamed.gguf"]');
    await expect.poll(() => renamed.count()).toBe(1);
    // Before, the row came back under its new name and the focus fell to <body>.
    await expect.poll(() => app.page.evaluate(() => `${document.activeElement?.getAttribute('data-testid')} in ${document.activeElement?.closest('[data-file]')?.getAttribute('data-file')}`)).toBe(
      'library-rename in plain-renamed.gguf',
    );
  });

  it("spaces an alias's buttons apart, with its question's, and puts its auto-compact choice under them, at 1280 and 390 px", async () => {
    await app.openApp();
    await app.page.evaluate(() =>
      window.firebrand.aliases.create({ name: 'small', connectionId: 'ollama', model: 'llama3.2:3b', systemPrompt: '', parameters: {}, thinkMode: 'off', contextWindow: 6000 }),
    );
    await app.page.getByTestId('models-open').click();
    const alias = app.page.locator('[data-testid="alias-item"][data-alias="small"]');
    /** The px between each button and the next where they share a line; the auto-compact label's top less the buttons' bottom. */
    const layout = () =>
      alias.evaluate((li) => {
        const boxes = [...li.querySelectorAll('button')].map((b) => b.getBoundingClientRect());
        const gaps = boxes.slice(1).flatMap((b, i) => (Math.abs(b.top - (boxes[i]?.top ?? 0)) < 2 ? [Math.round(b.left - (boxes[i]?.right ?? 0))] : []));
        const label = li.querySelector('label')?.getBoundingClientRect();
        return { gaps, below: Math.round((label?.top ?? 0) - Math.max(...boxes.map((b) => b.bottom))) };
      });
    for (const width of [1280, 390]) {
      await app.page.setViewportSize({ width, height: 844 });
      await alias.getByTestId('alias-delete').waitFor();
      // Before, Edit, "Create in Ollama" and Delete… touched (0 px), and "Summarize older turns on its own" ran on
      // beside them and broke over two lines.
      const row = await layout();
      expect(row.gaps.length).toBeGreaterThan(0);
      for (const gap of row.gaps) expect(gap).toBeGreaterThanOrEqual(4);
      expect(row.below).toBeGreaterThanOrEqual(0);
      await alias.getByTestId('alias-delete').click();
      await alias.getByTestId('alias-delete-keep').waitFor();
      const asking = await layout();
      for (const gap of asking.gaps) expect(gap).toBeGreaterThanOrEqual(4);
      await alias.getByTestId('alias-delete-keep').click();
    }
    await shootAtBothWidths(app.page, 'models-alias-row', '[data-testid="alias-item"]');
  });

  it.skipIf(!existsSync(CONFORMANCE))("shows a llama-server model's size and parameters from its /v1/models, never a lone \"—\"", async () => {
    app.replay.setRoutes([
      ...routes(),
      { path: '/health', body: '{"status":"ok"}' },
      { path: '/props', body: JSON.stringify({ default_generation_settings: { n_ctx: 4096 }, chat_template: '{{ messages }}' }) },
      { path: '/v1/models', body: readFileSync(resolve(CONFORMANCE, 'v1-models-deepseek.json'), 'utf8') },
    ]);
    await app.openApp();
    const id = await app.page.evaluate((url) => window.firebrand.connections.save({ kind: 'llama-server', label: 'Local llama', baseUrl: url }).then((c) => c.id), app.replay.url);
    await app.page.evaluate((c) => window.firebrand.settings.update({ activeConnectionId: c }), id);
    await app.page.reload();
    await app.page.getByTestId('models-open').click();
    const row = app.page.locator('[data-testid="model-row"][data-model="scripted-a-plain.gguf"]');
    await expect.poll(() => row.getByTestId('model-facts').textContent()).toBe('2.6 MiB · 674K');
    expect(await row.innerText()).not.toMatch(/^—$/m);
    await shootAtBothWidths(app.page, 'models-llama-server-row', '[data-testid="model-row"]');
  });
});
