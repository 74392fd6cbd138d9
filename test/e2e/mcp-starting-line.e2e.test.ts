/**
 * Settings → Tools in serve mode (Chromium, a real process): a program that says "Error: missing API key" on stderr
 * and then waits, never answering, read "Starting…" and nothing else until the start timeout. Its row now says what
 * it wrote while it starts, and the line goes when the server is switched off. Screenshots at 1280 and 390 px.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addNodeServer, startMcpUi, stopMcpUi, type McpUi } from './helpers/mcp-ui';
import { shootAtBothWidths } from './helpers/screenshots';

let s: McpUi | undefined;
afterEach(async () => {
  await stopMcpUi(s);
  s = undefined;
});

/** Says what is wrong on stderr, then waits without reading its input, as a server missing its key may. */
const MISSING_KEY = `process.stderr.write('Error: missing API key\\n');\nsetInterval(() => undefined, 1 << 30);\n`;

describe('Settings → Tools, a server that is starting', () => {
  it('shows the last line the program wrote, and not once the server is off', async () => {
    s = await startMcpUi([], 'mcp-starting-line');
    const { page, scratch } = s;
    const program = join(scratch, 'missing-key.mjs');
    writeFileSync(program, MISSING_KEY);
    const { item } = await addNodeServer(s, 'weather', [program]);
    const line = item.getByTestId('mcp-server-starting-line');
    await expect.poll(() => line.textContent()).toBe('It says: “Error: missing API key”');
    expect(await item.getByTestId('mcp-server-state').textContent()).toBe('Starting…');
    await shootAtBothWidths(page, 'mcp-starting-line', '[data-testid="mcp-server-starting-line"]');

    await item.getByTestId('mcp-server-toggle').uncheck();
    await expect.poll(() => item.getByTestId('mcp-server-state').textContent()).toBe('Off');
    expect(await line.count()).toBe(0);
  });
});
