/**
 * Serve mode in Chromium against an Ollama stand-in whose model can use tools, for the MCP e2e files
 * (mcp.e2e.test.ts, mcp-messages.e2e.test.ts): the n-th chat request gets the n-th planned answer, then "Done.";
 * the title lane's requests get that too. `scratch` is a folder for the servers files a test writes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Locator } from 'playwright-core';
import { TAGS_BODY } from '../../replay-server/ollama-wire';
import { startReplayServer, type ReplayRoute } from '../../replay-server/replay-server';
import { launchChromium, openPage } from './browser';
import { startServeProcess } from './serve-process';
import { modelOption, ollamaLines, stopUi, type UiSession } from './ui-session';

export type McpUi = UiSession & { scratch: string };

/** The real server-everything from npm. */
export const EVERYTHING_BIN = resolve(import.meta.dirname, '../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');

/** The title lane's request (after the first answer) caps its answer; chat steps do not. */
export const isTitle = (body: string): boolean => (JSON.parse(body) as { options?: { num_predict?: number } }).options?.num_predict !== undefined;

/** `name`: a word for the temporary folders' names. */
export async function startMcpUi(plan: string[], name: string): Promise<McpUi> {
  const base: ReplayRoute[] = [
    { path: '/api/tags', body: TAGS_BODY },
    { path: '/api/version', body: '{"version":"0.12.6"}' },
    { path: '/api/ps', body: '{"models":[]}' },
    { method: 'POST', path: '/api/show', body: JSON.stringify({ capabilities: ['completion', 'tools'] }) },
  ];
  const chat = (body: string): ReplayRoute => ({ method: 'POST', path: '/api/chat', body, chunk: 'lines', headers: { 'content-type': 'application/x-ndjson' } });
  const fallback = ollamaLines([{ content: 'Done.' }]);
  const replay = await startReplayServer([...base, chat(fallback)]);
  replay.setOnRequest((req) => {
    if (req.path === '/api/chat') replay.setRoutes([...base, chat((isTitle(req.body) ? undefined : plan.shift()) ?? fallback)]);
  });
  const browser = await launchChromium();
  const dataDir = mkdtempSync(join(tmpdir(), `firebrand-ui-${name}-`));
  const scratch = mkdtempSync(join(tmpdir(), `firebrand-ui-${name}-files-`));
  const serve = await startServeProcess({ dataDir, ollamaUrl: replay.url });
  const page = await openPage(browser, { viewport: { width: 1280, height: 900 } });
  await page.goto(serve.url);
  await modelOption(page, 'llama3.2:3b').waitFor({ state: 'attached' });
  return { browser, replay, page, serve, dataDir, scratch };
}

export async function stopMcpUi(s: McpUi | undefined): Promise<void> {
  if (!s) return;
  await stopUi(s);
  rmSync(s.scratch, { recursive: true, force: true });
}

/**
 * Settings → Tools opened, and a Claude Desktop servers file with server-everything imported there, waited for until
 * the server is ready. `tools`: the Tools section; `item`: the server's row; `file`: the file (to import again).
 */
export async function importEverything(s: McpUi): Promise<{ tools: Locator; item: Locator; file: string }> {
  const file = join(s.scratch, 'claude_desktop_config.json');
  writeFileSync(file, JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] } } }));
  await s.page.getByTestId('settings-open').click();
  const tools = s.page.getByTestId('settings-tools');
  await tools.getByTestId('mcp-import-input').setInputFiles(file);
  const item = tools.locator('[data-testid="mcp-server"][data-name="everything"]');
  await tools.locator('[data-testid="mcp-server"][data-name="everything"][data-state="ready"]').waitFor();
  return { tools, item, file };
}

/**
 * Settings → Tools opened, and a stdio server added by its form: `name`, run as Node with `args` (one per line). Not
 * waited for: a test looks at how it starts. `tools`: the Tools section; `item`: the server's row.
 */
export async function addNodeServer(s: McpUi, name: string, args: string[]): Promise<{ tools: Locator; item: Locator }> {
  await s.page.getByTestId('settings-open').click();
  const tools = s.page.getByTestId('settings-tools');
  await tools.getByTestId('mcp-add').click();
  const form = tools.getByTestId('mcp-form');
  await form.getByLabel('Server name', { exact: true }).fill(name);
  await form.getByLabel('Command', { exact: true }).fill(process.execPath);
  await form.getByLabel('Arguments, one per line', { exact: true }).fill(args.join('\n'));
  await form.getByRole('button', { name: 'Add server' }).click();
  return { tools, item: tools.locator(`[data-testid="mcp-server"][data-name="${name}"]`) };
}
