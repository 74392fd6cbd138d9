/**
 * A stdio program that writes only to stderr and never answers `initialize` ("Error: missing API key", then it
 * waits): Settings → Tools read "Starting…" and nothing else until the start timeout, though the program had said
 * what was wrong at once. Now the row gets each line it writes while it starts (pushed to the window, not only
 * there when asked), and a failure quotes what this run wrote, not a line left from the run before it.
 * Real processes: a small program written to a temp folder, which writes to stderr whatever the test appends to a
 * file, and the real server-everything from npm.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { McpServerInfo, McpServerInput } from '../../../src/shared/mcp';
import { addServer, everything, server, stage, tidyEachTest, type Stage } from './helpers';

let st: Stage | undefined;
const { scratchDir } = tidyEachTest(() => {
  const done = st;
  st = undefined;
  return done;
});

/** Writes to stderr what is appended to the file named by its argument, as it is appended; never reads stdin. */
const ECHOER = `
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
const file = process.argv[2];
let at = 0;
const look = () => {
  const fd = openSync(file, 'r');
  const size = fstatSync(fd).size;
  if (size > at) {
    const bytes = Buffer.alloc(size - at);
    readSync(fd, bytes, 0, bytes.length, at);
    at = size;
    process.stderr.write(bytes);
  }
  closeSync(fd);
};
look();
setInterval(look, 20);
`;

/** A server running the echoer, and the file whose lines it writes to stderr (starting with `first`). */
function echoer(first: string): { input: McpServerInput; say: (text: string) => void; file: string } {
  const dir = scratchDir();
  const program = join(dir, 'echoer.mjs');
  const file = join(dir, `say-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(program, ECHOER);
  writeFileSync(file, first);
  return { input: { name: 'weather', transport: 'stdio', command: process.execPath, args: [program, file] }, say: (text) => appendFileSync(file, text), file };
}

/** The starting line the window was sent for the server (Settings re-renders from these events alone). */
const sentLines = (s: Stage, id: string): (string | null)[] =>
  s.events.filter((e) => e.channel === 'mcp:changed').map((e) => (e.payload as { servers: McpServerInfo[] }).servers.find((x) => x.id === id)?.startingLine ?? null);

describe('a program that writes only to stderr while it starts', () => {
  it('its row shows the last line it wrote, as it writes it, until it is stopped', async () => {
    st = await stage({ services: { mcp: { startTimeoutMs: 600_000 } } });
    const s = st.services;
    const { input, say } = echoer('Starting the weather server\n');
    const saved = await s.handlers['mcp:save'](input);
    await expect.poll(() => sentLines(st!, saved.id)).toContain('Starting the weather server');
    expect((await server(s, saved.id))?.state).toBe('starting');

    say('Error: missing API key\n');
    await expect.poll(() => sentLines(st!, saved.id).at(-1)).toBe('Error: missing API key');
    // A progress bar: colours left out, a carriage return starts the line again, a line not ended yet counts.
    say('\u001b[33mDownloading 10%\rDownloading 55%');
    await expect.poll(() => sentLines(st!, saved.id).at(-1)).toBe('Downloading 55%');
    expect(await server(s, saved.id)).toMatchObject({ state: 'starting', startingLine: 'Downloading 55%' });

    await s.handlers['mcp:set-enabled']({ id: saved.id, enabled: false });
    expect(await server(s, saved.id)).toMatchObject({ state: 'stopped', startingLine: null });
  });

  it('fails at the start timeout naming the line, and a restart names what the new run wrote, not the old line', async () => {
    st = await stage({ services: { mcp: { startTimeoutMs: 3000 } } });
    const s = st.services;
    const { input, file } = echoer('Error: missing API key\n');
    const info = await addServer(s, input, 'failed');
    expect(info.error).toBe('The server did not answer within 3 s of starting. Its last words: Error: missing API key.');
    expect(info.startingLine).toBeNull();

    // The user set the key: the program now says something else, and still never answers.
    writeFileSync(file, 'Reading the key from the keychain…\n');
    await s.handlers['mcp:restart']({ id: info.id });
    await expect.poll(async () => (await server(s, info.id))?.error).not.toBeNull();
    const again = await server(s, info.id);
    expect(again?.error).toBe('The server did not answer within 3 s of starting. Its last words: Reading the key from the keychain…');
    // The server log keeps both runs.
    expect(again?.stderrTail).toContain('Error: missing API key');
  });
});

describe('a real MCP server that logs to stderr while it starts', () => {
  it('is ready, and its row has no starting line once it is', async () => {
    st = await stage();
    const info = await addServer(st.services, everything());
    expect(info.stderrTail).toContain('Starting default (STDIO) server...');
    expect(info.startingLine).toBeNull();
    expect(info.tools.length).toBeGreaterThan(0);
  });
});
