/**
 * Issue 19 end to end: serve mode in Chromium, the real server-everything from npm. Settings → Tools imports an
 * `mcpServers` file and shows the server ready with its tools; a chat's model calls `echo`, the approval card
 * names the server, the tool and the arguments, and the result comes back on the call's card. A tool switched off
 * and a conversation with tools off leave the next request without them.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EVERYTHING_BIN, importEverything, isTitle, startMcpUi, stopMcpUi, type McpUi } from './helpers/mcp-ui';
import { assistant, modelOption, ollamaLines, send, waitIdle } from './helpers/ui-session';

const FILESYSTEM_BIN = resolve(import.meta.dirname, '../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

let s: McpUi | undefined;
afterEach(async () => {
  await stopMcpUi(s);
  s = undefined;
});

type Body = { messages: { role: string; content: string }[]; tools?: { function: { name: string } }[] };

const start = (plan: string[]) => startMcpUi(plan, 'mcp');

const bodies = (session: McpUi) => session.replay.requests.filter((r) => r.path === '/api/chat' && !isTitle(r.body)).map((r) => JSON.parse(r.body) as Body);
const toolNames = (b: Body | undefined) => (b?.tools ?? []).map((t) => t.function.name);

describe('Settings → Tools and an MCP tool in a chat', () => {
  it('imports a server, shows it ready with its tools, and runs echo after the user allows it', async () => {
    const callEcho = ollamaLines([{ tool_calls: [{ function: { name: 'echo', arguments: { message: 'hi <b>from</b> the model' } } }] }]);
    s = await start([callEcho, ollamaLines([{ content: 'The server echoed it.' }])]);
    const { page } = s;
    const { tools, item } = await importEverything(s);
    expect(Number(await item.getAttribute('data-tools'))).toBeGreaterThan(5);
    await expect.poll(() => tools.getByTestId('mcp-import-result').textContent()).toContain('Added everything.');
    await item.locator('summary', { hasText: 'Tools' }).click();
    const echo = item.locator('[data-testid="mcp-tool"][data-name="echo"]');
    expect(await echo.textContent()).toContain('Echoes back the input string');
    // Switch one tool off: it is gone from the requests that follow.
    await item.locator('[data-testid="mcp-tool"][data-name="get-sum"]').getByTestId('mcp-tool-toggle').uncheck();
    await expect.poll(() => item.locator('[data-testid="mcp-tool"][data-name="get-sum"]').getByTestId('mcp-tool-toggle').isChecked()).toBe(false);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('settings-tools').count()).toBe(0);

    await send(page, 'Please echo something');
    const card = page.locator('[data-card="tool-approval"]');
    await card.getByTestId('tool-allow-once').waitFor();
    expect(await card.locator('.system-text').textContent()).toBe('Waiting for you. echo (from the tool server everything) wants to run.');
    expect(await card.locator('.tool-arg').allTextContents()).toEqual(['messagehi <b>from</b> the model']);
    // MCP hunt: the call's own card said "Waiting for the result…" as if it ran; it waits for the user.
    expect(await page.locator('[data-card="tool-call"]').first().locator('.tool-status').textContent()).toBe('Waiting for your approval…');
    // The run goes on while it waits for the user: no second answer can be started beside it, as while streaming.
    expect(await page.getByTestId('regenerate').isDisabled()).toBe(true);
    expect(await page.getByTestId('turn-edit').isDisabled()).toBe(true);
    await card.getByTestId('tool-allow-once').click();
    await waitIdle(page);
    await expect.poll(() => page.locator('[data-card="tool-call"]').first().getAttribute('data-result')).toBe('done');
    const toolCard = page.locator('[data-card="tool-call"]').first();
    expect(await toolCard.getByTestId('tool-result').textContent()).toContain('Echo: hi <b>from</b> the model');
    // The server's output is text, never markup.
    expect(await page.locator('[data-testid="chat"] b').count()).toBe(0);
    await expect.poll(() => assistant(page, 1).locator('[data-run="answer"]').textContent()).toContain('The server echoed it.');
    const sent = bodies(s);
    expect(toolNames(sent[0])).toContain('echo');
    expect(toolNames(sent[0])).not.toContain('get-sum');
    expect(sent[1]?.messages.at(-1)).toMatchObject({ role: 'tool', content: 'Echo: hi <b>from</b> the model' });

    // This conversation turns tools off: the next request carries none.
    await page.getByTestId('conversation-settings-open').click();
    await page.getByTestId('conversation-tools').uncheck();
    await page.getByTestId('conversation-settings-save').click();
    await send(page, 'No tools now');
    await expect.poll(() => bodies(s!).length).toBe(3);
    expect(bodies(s).at(-1)?.tools).toBeUndefined();
  });

  // Tools audit #5: Remove took the server and its saved secrets at once, with no question and no undo.
  it('asks before removing a server, saying its saved values go with it; Keep keeps it', async () => {
    s = await start([]);
    const { page, scratch } = s;
    const file = join(scratch, 'mcp.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'], env: { MY_TOKEN: 'secret' } } } }));
    await page.getByTestId('settings-open').click();
    const tools = page.getByTestId('settings-tools');
    await tools.getByTestId('mcp-import-input').setInputFiles(file);
    const item = tools.locator('[data-testid="mcp-server"][data-name="everything"]');
    await item.waitFor();
    await item.getByTestId('mcp-server-remove').click();
    await expect.poll(() => item.locator('.mcp-actions').textContent()).toContain('Remove everything? Its saved value goes with it.');
    await item.getByRole('button', { name: 'Keep everything' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('mcp-server-remove');
    expect(await item.count()).toBe(1);
    await item.getByTestId('mcp-server-remove').click();
    await item.getByTestId('mcp-server-remove-confirm').click();
    await expect.poll(() => item.count()).toBe(0);

    // A refused form says why inside the form, and Cancel takes the reason with it (it stayed under Tools after the
    // form was gone).
    await tools.getByTestId('mcp-add').click();
    await tools.getByTestId('mcp-form-name').fill('notes');
    await tools.getByTestId('mcp-form-save').click();
    await expect.poll(() => tools.getByTestId('mcp-form').getByTestId('mcp-form-error').textContent()).toBe('Enter the command that starts the server (for example npx or uvx).');
    expect(await tools.getByTestId('mcp-error').count()).toBe(0);
    await tools.getByTestId('mcp-form').getByRole('button', { name: 'Cancel' }).click();
    await tools.getByTestId('mcp-form').waitFor({ state: 'detached' });
    expect(await tools.getByRole('alert').count()).toBe(0);
  });

  it('asks again when a tool allowed in this chat is now another server’s tool of the same name', async () => {
    const callEcho = (message: string) => ollamaLines([{ tool_calls: [{ function: { name: 'echo', arguments: { message } } }] }]);
    s = await start([callEcho('first'), ollamaLines([{ content: 'Echoed.' }]), callEcho('second'), ollamaLines([{ content: 'Echoed again.' }])]);
    const { page, scratch } = s;
    const file = join(scratch, 'mcp.json');
    const server = { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] };
    writeFileSync(file, JSON.stringify({ mcpServers: { notes: server, other: server } }));
    await page.getByTestId('settings-open').click();
    await page.getByTestId('mcp-import-input').setInputFiles(file);
    const notes = page.locator('[data-testid="mcp-server"][data-name="notes"]');
    const other = page.locator('[data-testid="mcp-server"][data-name="other"]');
    await expect.poll(() => notes.getAttribute('data-state')).toBe('ready');
    await expect.poll(() => other.getAttribute('data-state')).toBe('ready');
    // Only `notes` on: its echo is offered as plain `echo`.
    await other.getByTestId('mcp-server-toggle').uncheck();
    await page.keyboard.press('Escape');

    await send(page, 'Echo first');
    const card = page.locator('[data-card="tool-approval"]');
    await card.getByTestId('tool-allow-conversation').click();
    await waitIdle(page);
    await expect.poll(() => assistant(page, 1).locator('[data-run="answer"]').textContent()).toContain('Echoed.');
    expect(await card.first().textContent()).toContain('from the tool server notes');

    // Now `other` gives the chat its `echo`: what was allowed was notes' echo, not this one.
    await page.getByTestId('settings-open').click();
    await notes.getByTestId('mcp-server-toggle').uncheck();
    await other.getByTestId('mcp-server-toggle').check();
    await expect.poll(() => other.getAttribute('data-state')).toBe('ready');
    await page.keyboard.press('Escape');
    await send(page, 'Echo second');
    await expect.poll(() => card.count()).toBe(2);
    expect(await card.nth(1).locator('.system-text').textContent()).toContain('echo (from the tool server other) wants to run.');
    expect(await card.nth(1).locator('.tool-arg').allTextContents()).toEqual(['messagesecond']);
    await card.nth(1).getByTestId('tool-deny').click();
    await waitIdle(page);
  });

  it('names every argument on the approval card, however long the ones before it', async () => {
    // A call's arguments come in the order the model wrote them: a long text first pushed the file to write off
    // the card (it was cut at 2000 characters), and the card asked to allow "write_file {content: …}".
    const content = 'Meeting notes for Tuesday. '.repeat(80);
    const plan = [ollamaLines([{ tool_calls: [{ function: { name: 'write_file', arguments: { content, path: '__DIR__/.bashrc' } } }] }])];
    s = await start(plan);
    const { page, scratch } = s;
    plan[0] = plan[0]!.split('__DIR__').join(scratch);
    const file = join(scratch, 'mcp.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { files: { command: process.execPath, args: [FILESYSTEM_BIN, scratch] } } }));
    await page.getByTestId('settings-open').click();
    await page.getByTestId('mcp-import-input').setInputFiles(file);
    await expect.poll(() => page.locator('[data-testid="mcp-server"][data-name="files"]').getAttribute('data-state')).toBe('ready');
    await page.keyboard.press('Escape');
    await send(page, 'Save my notes');
    const card = page.locator('[data-card="tool-approval"]');
    await card.getByTestId('tool-deny').waitFor();
    const shown = (await card.textContent()) ?? '';
    expect(await card.locator('.tool-arg', { hasText: 'path' }).locator('dd').textContent()).toBe(`${scratch}/.bashrc`);
    const written = (await card.locator('.tool-arg', { hasText: 'content' }).locator('dd').textContent()) ?? '';
    expect(written).toContain('Meeting notes for Tuesday.');
    expect(written).toMatch(/more characters/);
    expect(shown.length).toBeLessThan(1000);
    await card.getByTestId('tool-deny').click();
    await waitIdle(page);
    // The call's own card shows every argument whole, the long one in a box of its own that scrolls (tools audit
    // #10: 2 KB of it filled a phone's screen).
    await page.setViewportSize({ width: 390, height: 844 });
    const arg = page.locator('[data-card="tool-call"] .tool-arg', { hasText: 'content' }).locator('dd');
    expect(await arg.textContent()).toBe(content);
    const box = await arg.evaluate((el) => ({ height: el.clientHeight, scrolls: el.scrollHeight > el.clientHeight }));
    expect(box.scrolls).toBe(true);
    expect(box.height).toBeLessThan(844 / 3);
  });

  it('shows a long call’s progress on its card, and Stop cancels it', async () => {
    const longJob = ollamaLines([{ tool_calls: [{ function: { name: 'trigger-long-running-operation', arguments: { duration: 600, steps: 600 } } }] }]);
    s = await start([longJob]);
    const { page, scratch } = s;
    const file = join(scratch, 'mcp.json');
    // Imported with "always allow" for the long job (Cline's alwaysAllow): it runs without a card.
    writeFileSync(file, JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'], alwaysAllow: ['trigger-long-running-operation'] } } }));
    // The meter's measure of the new chat, by main, before the server's tools are on offer.
    const meter = page.getByTestId('context-meter');
    await expect.poll(() => meter.getAttribute('data-counted')).toBe('estimate');
    const without = Number(await meter.getAttribute('data-estimate'));
    await page.getByTestId('settings-open').click();
    await page.getByTestId('mcp-import-input').setInputFiles(file);
    const item = page.locator('[data-testid="mcp-server"][data-name="everything"]');
    await expect.poll(() => item.getAttribute('data-state')).toBe('ready');
    // Chat audit #2: the meter follows the tools on offer without a reload, both ways.
    await expect.poll(async () => Number(await meter.getAttribute('data-estimate'))).toBeGreaterThan(without + 500);
    await item.getByTestId('mcp-server-toggle').uncheck();
    await expect.poll(async () => Number(await meter.getAttribute('data-estimate'))).toBe(without);
    await item.getByTestId('mcp-server-toggle').check();
    await expect.poll(() => item.getAttribute('data-state')).toBe('ready');
    await expect.poll(async () => Number(await meter.getAttribute('data-estimate'))).toBeGreaterThan(without + 500);
    await page.keyboard.press('Escape');

    await send(page, 'Run the long job');
    const card = page.locator('[data-card="tool-call"]');
    await expect.poll(() => card.getByTestId('tool-progress').textContent()).toMatch(/^Running… \d+ of 600$/);
    await page.getByTestId('composer-stop').click();
    await waitIdle(page);
    // Chat audit #4: stopped by the user, not failed.
    await expect.poll(() => card.getAttribute('data-result')).toBe('stopped');
    expect(await card.locator('.tool-status').textContent()).toBe('Stopped');
    expect(await card.getByTestId('tool-result').textContent()).toContain('Stopped by the user; everything was asked to cancel the call.');
  });

  // Left over from the resilience audit: a page whose link to serve mode dropped reads the open chat again once back,
  // and a tool call still running lost its "Running…" (and with it Stop), reading "Waiting for the result…" as if the
  // call had not started, until it ended; a tool that reports no progress never got it back.
  it('shows a call still running as running after the page’s link drops and comes back, and Stop still stops it', async () => {
    // One step of 3000 s: the tool says nothing until it ends, so only main can tell the page it runs.
    const silentJob = ollamaLines([{ tool_calls: [{ function: { name: 'trigger-long-running-operation', arguments: { duration: 3000, steps: 1 } } }] }]);
    s = await start([silentJob]);
    const { page, scratch } = s;
    const file = join(scratch, 'mcp.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'], timeout: 3600, alwaysAllow: ['trigger-long-running-operation'] } } }));
    await page.getByTestId('settings-open').click();
    await page.getByTestId('mcp-import-input').setInputFiles(file);
    await expect.poll(() => page.locator('[data-testid="mcp-server"][data-name="everything"]').getAttribute('data-state')).toBe('ready');
    await page.keyboard.press('Escape');
    // The page's sockets, so the test can drop the link as a network blip would, serve mode running on; `__opens`
    // counts the links made, each once the page has handled it (a link back has started the page's catching up).
    await page.addInitScript(() => {
      const Native = window.WebSocket;
      const w = window as unknown as { __sockets: WebSocket[]; __opens: number };
      w.__sockets = [];
      w.__opens = 0;
      window.WebSocket = class extends Native {
        constructor(url: string | URL, protocols?: string | string[]) {
          super(url, protocols);
          w.__sockets.push(this);
          this.addEventListener('open', () => setTimeout(() => w.__opens++, 0));
        }
      };
    });
    await page.reload();
    await modelOption(page, 'llama3.2:3b').waitFor({ state: 'attached' });

    await send(page, 'Run the quiet job');
    const card = page.locator('[data-card="tool-call"]');
    await expect.poll(() => card.getAttribute('data-running')).toBe('true');
    expect(await card.getByTestId('tool-progress').textContent()).toBe('Running…');
    await page.evaluate(() => (window as unknown as { __sockets: WebSocket[] }).__sockets.forEach((ws) => ws.close()));
    await page.waitForFunction(() => (window as unknown as { __opens: number }).__opens === 2, undefined, { timeout: 30_000 });
    // Back: the call still runs in main, and the card and Stop say so.
    await expect.poll(() => card.getAttribute('data-running')).toBe('true');
    expect(await card.locator('.tool-name').textContent()).toBe('trigger-long-running-operation');
    expect(await card.getByTestId('tool-progress').textContent()).toBe('Running…');
    await page.getByTestId('composer-stop').click();
    await waitIdle(page);
    await expect.poll(() => card.getAttribute('data-result')).toBe('stopped');
  });
});
