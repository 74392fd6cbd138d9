/**
 * A program that does not speak MCP (mcpstart #1): it printed a banner, a usage text or bytes on stdout, where MCP's
 * messages go, and Settings → Tools said "Starting…" until the start timeout, then "did not answer within 30 s".
 * Now it fails within a moment of falling silent, quoting what it printed; one that exits says so at once. A server
 * that prints a banner and then speaks MCP still starts. Real processes: the scripted server, Node and a shell.
 */
import { describe, expect, it } from 'vitest';
import { turnText, type Turn } from '../../../src/shared/turn';
import { addServer, alive, callUnstartable, logLines, scripted, stage, tidyEachTest, type Stage } from './helpers';

let st: Stage | undefined;
const { logFile } = tidyEachTest(() => {
  const done = st;
  st = undefined;
  return done;
});

// The start timeout is far beyond the poll's 30 s: only the new early failure can end these starts in time.
const patient = () => stage({ services: { mcp: { startTimeoutMs: 600_000 } } });

describe('a program that does not speak MCP', () => {
  it('prints a banner and keeps running: failed at once, quoting its first lines, and its process is gone', async () => {
    st = await patient();
    const log = logFile();
    const info = await addServer(st.services, scripted('not-mcp', log), 'failed');
    expect(info.error).toBe(
      'The server does not speak MCP: it printed “weather-api v2.1”, “Listening on http://localhost:3001/mcp”, “Press Ctrl+C to stop” and 1 more line where MCP’s messages go, and no message. Check that the command starts an MCP server on stdio; one reached at an address is added by its URL instead.',
    );
    // Quoted once: the log tail keeps the whole text, the reason does not repeat a line of it.
    expect(info.stderrTail).toContain('(type help for commands)');
    expect(info.error?.match(/Listening on/g)).toHaveLength(1);
    const pid = Number(logLines(log).find((l) => l.startsWith('pid '))?.slice(4));
    await expect.poll(() => alive(pid)).toBe(false);
  });

  it('prints bytes that are not text: failed at once, saying so', async () => {
    st = await patient();
    const info = await addServer(st.services, scripted('binary', logFile()), 'failed');
    expect(info.error).toBe('The server does not speak MCP: it printed bytes that are not text where MCP’s messages go, and no message. Check that the command starts an MCP server on stdio.');
  });

  it('a call to it gets the same reason, without waiting for the start timeout', async () => {
    st = await patient();
    const { result, turns } = await callUnstartable(st, scripted('not-mcp', logFile()), 'It is not an MCP server.');
    expect(result).toMatchObject({ isError: true });
    expect((result as { content: string }).content).toMatch(/^not-mcp could not start, so wait did not run: The server does not speak MCP: it printed “weather-api v2.1”/);
    expect(turnText(turns.at(-1) as Turn)).toBe('It is not an MCP server.');
  });

  it('prints its usage and exits: says so, quoting what it printed and its error line', async () => {
    st = await patient();
    const info = await addServer(st.services, scripted('usage-exit', logFile()), 'failed');
    expect(info.error).toBe(
      'The server exited with code 2 while starting, without speaking MCP: it printed “Usage: weather-server [--port N] [--verbose]” and “--port N the port to listen on”. Its last words: error: unknown option --stdio.',
    );
  });

  it('a shell that prints and keeps running is caught as well', async () => {
    st = await patient();
    const info = await addServer(st.services, { name: 'shell', transport: 'stdio', command: 'sh', args: ['-c', 'echo "Welcome to the notes server"; exec sleep 600'] }, 'failed');
    expect(info.error).toBe('The server does not speak MCP: it printed “Welcome to the notes server” where MCP’s messages go, and no message. Check that the command starts an MCP server on stdio.');
  });

  it('a prompt with no line end (a program waiting for a person) is caught as well', async () => {
    st = await patient();
    const info = await addServer(st.services, { name: 'asks', transport: 'stdio', command: 'sh', args: ['-c', 'printf "Enter your licence key: "; exec sleep 600'] }, 'failed');
    expect(info.error).toBe('The server does not speak MCP: it printed “Enter your licence key:” where MCP’s messages go, and no message. Check that the command starts an MCP server on stdio.');
  });

  it('still starts a server that prints a banner before it speaks MCP', async () => {
    st = await patient();
    const info = await addServer(st.services, scripted('garbage', logFile()));
    expect(info.error).toBeNull();
    expect(info.tools.map((t) => t.name)).toEqual(['wait']);
  });
});

describe('a program that exits at once', () => {
  it('a command the shell does not find: failed at once with the shell’s words', async () => {
    st = await patient();
    const info = await addServer(st.services, { name: 'shell', transport: 'stdio', command: 'sh', args: ['-c', 'firebrand-no-such-mcp-server --stdio'] }, 'failed');
    expect(info.error).toMatch(/^The server exited with code 127 while starting\. Its last words: .*firebrand-no-such-mcp-server: (command )?not found\.$/);
  });

  it('a program that throws at start: failed at once with its error line, not its traceback’s last', async () => {
    st = await patient();
    const info = await addServer(st.services, { name: 'crashes', transport: 'stdio', command: process.execPath, args: ['-e', 'throw new TypeError("config.apiKey is undefined")'] }, 'failed');
    expect(info.error).toBe('The server exited with code 1 while starting. Its last words: TypeError: config.apiKey is undefined.');
    expect(info.stderrTail).toContain('at ');
  });
});
