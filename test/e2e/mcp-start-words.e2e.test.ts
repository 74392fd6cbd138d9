/**
 * mcpstart, end to end in serve mode (Chromium, real processes): a program added in Settings → Tools that prints
 * something other than MCP said "Starting…" until the start timeout, then a vague reason; its row now says what it
 * printed as soon as it falls silent. A server's URL typed as a host and port ("127.0.0.1:3001/mcp") was refused
 * ("it starts with http:// or https://"); it is taken as http://, and the row says so, as a connection's does.
 * Screenshots at 1280 and 390 px.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addNodeServer, EVERYTHING_BIN, startMcpUi, stopMcpUi, type McpUi } from './helpers/mcp-ui';
import { shootAtBothWidths } from './helpers/screenshots';

const SCRIPTED_BIN = resolve(import.meta.dirname, '../main/mcp/servers/scripted-server.mjs');

let s: McpUi | undefined;
let child: ChildProcess | undefined;
afterEach(async () => {
  await stopMcpUi(s);
  child?.kill('SIGKILL');
  s = child = undefined;
});

/** server-everything over Streamable HTTP on a free port; resolves with the port once it listens. */
async function serveEverything(): Promise<number> {
  const port = await new Promise<number>((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as AddressInfo;
      probe.close(() => done(free));
    });
  });
  child = spawn(process.execPath, [EVERYTHING_BIN, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((done, fail) => {
    let out = '';
    const check = (d: Buffer) => {
      out += d.toString();
      if (/listening on port|running on port/i.test(out)) done();
    };
    child?.stdout?.on('data', check);
    child?.stderr?.on('data', check);
    child?.once('exit', (code) => fail(new Error(`server-everything exited ${code}: ${out}`)));
  });
  return port;
}

describe('Settings → Tools, adding a server', () => {
  it('a program that does not speak MCP fails at once, quoting what it printed', async () => {
    s = await startMcpUi([], 'mcpstart');
    const { page } = s;
    const { item } = await addNodeServer(s, 'weather', [SCRIPTED_BIN, 'not-mcp']);
    await expect.poll(() => item.getAttribute('data-state')).toBe('failed');
    expect(await item.getByTestId('mcp-server-error').textContent()).toBe(
      'The server does not speak MCP: it printed “weather-api v2.1”, “Listening on http://localhost:3001/mcp”, “Press Ctrl+C to stop” and 1 more line where MCP’s messages go, and no message. Check that the command starts an MCP server on stdio; one reached at an address is added by its URL instead.',
    );
    expect(await item.getByTestId('mcp-server-state').textContent()).toBe('Failed');
    await shootAtBothWidths(page, 'mcp-not-mcp', '[data-testid="mcp-server-error"]');
  });

  it('an address typed as a host and port is saved as http://, and the row says so; what is no address is refused', async () => {
    const port = await serveEverything();
    s = await startMcpUi([], 'mcpurl');
    const { page } = s;
    await page.getByTestId('settings-open').click();
    const tools = page.getByTestId('settings-tools');
    await tools.getByTestId('mcp-add').click();
    const form = tools.getByTestId('mcp-form');
    await form.getByLabel('Server name', { exact: true }).fill('remote');
    await form.getByLabel('How to reach it', { exact: true }).selectOption('http');
    // A host without its port cannot be guessed at: refused, saying what is.
    await form.getByLabel('Server URL', { exact: true }).fill('localhost/mcp');
    await form.getByRole('button', { name: 'Add server' }).click();
    await expect
      .poll(() => form.getByTestId('mcp-form-error').textContent())
      .toBe('“localhost/mcp” is not an address Firebrand can reach: it starts with http:// or https://, or is a host and port (such as localhost:3001/mcp, taken as http://).');

    await form.getByLabel('Server URL', { exact: true }).fill(`127.0.0.1:${port}/mcp`);
    await form.getByRole('button', { name: 'Add server' }).click();
    const item = tools.locator('[data-testid="mcp-server"][data-name="remote"]');
    await expect.poll(() => item.getAttribute('data-state')).toBe('ready');
    expect(await item.locator('.mcp-target').textContent()).toBe(`http://127.0.0.1:${port}/mcp`);
    expect(await item.getByTestId('mcp-server-note').textContent()).toBe(
      `Saved as http://127.0.0.1:${port}/mcp: an address typed without http:// or https:// is taken as http://, which local servers speak.`,
    );
    await shootAtBothWidths(page, 'mcp-url-assumed-http', '[data-testid="mcp-server-note"]');
    // The next change here takes the note away.
    await item.getByTestId('mcp-server-toggle').uncheck();
    await expect.poll(() => item.getByTestId('mcp-server-note').count()).toBe(0);
  });
});
