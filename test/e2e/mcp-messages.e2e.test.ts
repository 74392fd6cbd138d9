/**
 * Tools audit, mcp2, end to end in serve mode (Chromium, real servers): a server built on the MCP SDK that refuses
 * a call is quoted once on the card (it read "MCP error -32602: MCP error -32602: …") and a non-base64 image from a
 * server not built on it is said in words with the rest kept (the card showed zod's JSON dump); in Settings → Tools
 * a server switched off says its tools are not offered (it read "Tools (13 of 13 on)"), the line an import leaves
 * goes with the next change and says what to do about a name taken, and the form's "Add variable" is told apart
 * from "Add server". Screenshots at 1280 and 390 px.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { importEverything, startMcpUi, stopMcpUi, type McpUi } from './helpers/mcp-ui';
import { shootAtBothWidths } from './helpers/screenshots';
import { ollamaLines, send, waitIdle } from './helpers/ui-session';

const SDK_SERVER_BIN = resolve(import.meta.dirname, '../main/mcp/servers/sdk-server.mjs');
const SCRIPTED_BIN = resolve(import.meta.dirname, '../main/mcp/servers/scripted-server.mjs');

let s: McpUi | undefined;
afterEach(async () => {
  await stopMcpUi(s);
  s = undefined;
});

const start = (plan: string[]) => startMcpUi(plan, 'mcp2');

const call = (name: string, args: Record<string, unknown>) => ollamaLines([{ tool_calls: [{ function: { name, arguments: args } }] }]);

describe('Settings → Tools and tool cards say what a server did, in words', () => {
  it('imports, says what to do about a name taken, clears that line on the next change, and says a server is off', async () => {
    s = await start([]);
    const { page } = s;
    const { tools, item, file } = await importEverything(s);
    await expect.poll(() => tools.getByTestId('mcp-import-result').textContent()).toBe('Added everything.');

    // The same file again: the name is taken, and the line says what the user can do (there is no name box here).
    await tools.getByTestId('mcp-import-input').setInputFiles(file);
    await expect
      .poll(() => tools.getByTestId('mcp-import-result').textContent())
      .toBe(
        'Nothing was added. Skipped everything: There is a server named “everything” already (names are compared ignoring case). If this is another server, rename “everything” here first, or change its name in the file, and import the file again.',
      );
    await shootAtBothWidths(page, 'mcp-import-name-taken', '[data-testid="mcp-import-result"]');

    // The next change takes the line away; the server switched off says its tools are not offered.
    await item.getByTestId('mcp-server-toggle').uncheck();
    await expect.poll(() => tools.getByTestId('mcp-import-result').count()).toBe(0);
    await expect.poll(() => item.getByTestId('mcp-tools-summary').textContent()).toMatch(/^Tools \(\d+, none offered: the server is off\)$/);
    await expect.poll(() => item.getAttribute('data-state')).toBe('stopped');
    await shootAtBothWidths(page, 'mcp-server-off', '[data-testid="mcp-tools-summary"]');

    // The form: the variable's Add button is named apart from Add server, and its fields by their labels.
    await tools.getByTestId('mcp-add').click();
    const form = tools.getByTestId('mcp-form');
    await form.getByRole('button', { name: 'Add variable' }).click();
    await form.getByRole('textbox', { name: 'Environment variables: name' }).fill('API_KEY');
    expect(await form.getByRole('button', { name: 'Add', exact: true }).count()).toBe(0);
    expect(await form.getByRole('button', { name: 'Add server' }).count()).toBe(1);
    await form.getByLabel('Working folder (optional)').fill('/tmp');
    expect(await form.getByLabel('Call timeout (seconds)').inputValue()).toBe('60');
    await shootAtBothWidths(page, 'mcp-form-add-variable', '[data-testid="mcp-form"]');
  });

  it('a call an SDK server refuses is quoted once; an image that cannot be read is said in words, the rest kept', async () => {
    s = await start([call('region', { name: 'mars' }), call('wait', {}), ollamaLines([{ content: 'I could not look it up.' }])]);
    const { page, scratch } = s;
    const file = join(scratch, 'mcp.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          atlas: { command: process.execPath, args: [SDK_SERVER_BIN, 'tools'], alwaysAllow: ['region'] },
          charts: { command: process.execPath, args: [SCRIPTED_BIN, 'bad-image'], env: { SCRIPTED_LOG: join(scratch, 'log.txt') }, alwaysAllow: ['wait'] },
        },
      }),
    );
    await page.getByTestId('settings-open').click();
    const tools = page.getByTestId('settings-tools');
    await tools.getByTestId('mcp-import-input').setInputFiles(file);
    for (const name of ['atlas', 'charts']) await expect.poll(() => tools.locator(`[data-testid="mcp-server"][data-name="${name}"]`).getAttribute('data-state')).toBe('ready');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('settings-tools').count()).toBe(0);

    await send(page, 'Where is mars, and draw the chart');
    await waitIdle(page);
    const cards = page.locator('[data-card="tool-call"]');
    await expect.poll(() => cards.count()).toBe(2);
    const refused = cards.nth(0);
    // Polled: the answer's end can reach the page a publish before the cards' results are drawn (ci-137, a busy machine).
    await expect.poll(() => refused.getAttribute('data-result')).toBe('failed');
    const refusedText = await refused.getByTestId('tool-result').locator('pre').textContent();
    expect(refusedText).toBe('atlas could not run region: Unknown region “mars”; use one of: eu, us.');
    const chart = cards.nth(1);
    await expect.poll(() => chart.getAttribute('data-result')).toBe('done');
    expect(await chart.getByTestId('tool-result').locator('pre').textContent()).toBe(
      'Here is the chart:\n[The server sent an image that could not be read (its data is not valid base64); it was left out]\nTotal: 42',
    );
    await refused.getByTestId('tool-result').locator('summary').click();
    await chart.getByTestId('tool-result').locator('summary').click();
    await shootAtBothWidths(page, 'mcp-card-server-words', '[data-card="tool-call"]');
  });
});
