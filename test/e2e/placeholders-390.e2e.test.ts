/**
 * At a phone's width (390 px) the Models screen cut its inputs' placeholders: the built-in library's path box read
 * "/path/to/model.gguf (or dro" and its download box "https://…/model.gguf or hf:o", squeezed beside their select
 * and button. Every input with a placeholder on the Models and Settings screens (the MCP server form and the
 * connection editor in Settings too) shows it whole. In serve mode against an Ollama replay.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ollamaRoutes, TAGS_BODY } from '../replay-server/ollama-wire';
import { cutPlaceholders } from './helpers/page-checks';
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

/** The page at a phone's width, once the layout has settled (the sidebar slides into a drawer). */
async function narrow(): Promise<void> {
  await app.page.setViewportSize({ width: 390, height: 844 });
  await app.page.waitForFunction(() => document.getAnimations().length === 0);
}

describe('placeholders at 390 px', () => {
  it('are whole in every input of the Models screen: the library path and download boxes, Pull, the context window', async () => {
    await app.openApp();
    await app.page.getByTestId('models-open').click();
    await app.page.locator('[data-testid="model-row"][data-model="qwen3:8b"]').getByTestId('model-details').click();
    for (const id of ['library-add-path', 'library-download-url', 'pull-input', 'context-custom']) await app.page.getByTestId(id).waitFor();
    await narrow();
    expect(await cutPlaceholders(app.page, '[data-testid="models-screen"]')).toEqual([]);
    await shootAtBothWidths(app.page, 'models-placeholders', '[data-testid="library-add-path"]');
  });

  it('are whole in every input of Settings: connections (adding and editing), GPU memory, the models folder, an MCP server', async () => {
    await app.openApp();
    await app.page.getByTestId('settings-open').click();
    const dialog = '[data-testid="settings-dialog"]';
    await app.page.getByTestId('models-folder').waitFor();
    await narrow();
    expect(await cutPlaceholders(app.page, dialog)).toEqual([]);
    await app.page.getByTestId('mcp-add').click();
    await app.page.getByTestId('mcp-form-command').waitFor();
    expect(await cutPlaceholders(app.page, dialog)).toEqual([]);
    await app.page.getByTestId('mcp-form-transport').selectOption('http');
    await app.page.getByTestId('mcp-form-url').waitFor();
    expect(await cutPlaceholders(app.page, dialog)).toEqual([]);
    await app.page.getByTestId('connection-add-kind').selectOption('openai-compatible');
    await app.page.getByTestId('connection-add-label').fill('LM Studio');
    await app.page.getByTestId('connection-add').click();
    await app.page.getByRole('button', { name: 'Edit LM Studio' }).click();
    await app.page.getByTestId('connection-edit-key').waitFor();
    expect(await cutPlaceholders(app.page, dialog)).toEqual([]);
  });
});
