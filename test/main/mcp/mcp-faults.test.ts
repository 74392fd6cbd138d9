/**
 * Issue 19: a server that misbehaves ends that call with a clear error and never blocks the chat. A server killed
 * mid-call, one that never answers a call (the per-call timeout, cancelled on the server), one that exits at
 * start (its own stderr shown), one that prints garbage, and Stop while a call runs. Real processes throughout:
 * server-everything from npm and a small scripted server (test/main/mcp/servers/scripted-server.mjs).
 */
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolProgress } from '../../../src/shared/mcp';
import { turnText, type Turn } from '../../../src/shared/turn';
import { addServer, alive, callAnswer, callUnstartable, tidyEachTest, everything, EVERYTHING_BIN, logLines, MODEL, pendingCard, scripted, server, settled, stage, textAnswer, type Stage } from './helpers';

let st: Stage | undefined;
const { logFile } = tidyEachTest(() => {
  const done = st;
  st = undefined;
  return done;
});
const progressOf = (s: Stage) => s.events.filter((e) => e.channel === 'chat:tool-progress').map((e) => e.payload as ToolProgress);

describe('an MCP server that misbehaves', () => {
  it('killed mid-call: the call ends with an error the model reads, the chat goes on, the server comes back', async () => {
    st = await stage();
    const s = st.services;
    const info = await addServer(s, everything());
    await s.handlers['mcp:set-tool']({ id: info.id, tool: 'trigger-long-running-operation', alwaysAllow: true });
    const firstPid = s.mcp.host(info.id).pid as number;
    st.plan.push(callAnswer('trigger-long-running-operation', { duration: 600, steps: 600 }), textAnswer('The server went away.'));
    const sent = await s.handlers['chat:send']({ conversationId: null, text: 'Run the long job', model: MODEL });
    // The job reports progress (shown on the card) until the server dies.
    await expect.poll(() => progressOf(st as Stage).some((p) => p.state === 'running' && p.progress !== null && p.total === 600)).toBe(true);
    process.kill(firstPid, 'SIGKILL');

    const turns = await settled(st, sent.conversationId);
    expect(turns.map((t) => t.source ?? t.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(turns[2]?.blocks[0]).toMatchObject({ isError: true, content: expect.stringContaining('everything stopped while trigger-long-running-operation ran: The server was ended by SIGKILL.') });
    expect(turnText(turns[3] as Turn)).toBe('The server went away.');
    expect(progressOf(st).at(-1)?.state).toBe('done');
    // Restarted after the crash (with backoff), as a new process.
    await expect.poll(async () => (await server(s, info.id))?.state).toBe('ready');
    expect(s.mcp.host(info.id).pid).not.toBe(firstPid);
  });

  it('never answers: the call times out, the server is told to cancel it, and the chat goes on', async () => {
    st = await stage();
    const s = st.services;
    const log = logFile();
    const info = await addServer(s, scripted('hang-calls', log, { timeoutSeconds: 1 }));
    expect(info.tools.map((t) => t.name)).toEqual(['wait']);
    await s.handlers['mcp:set-tool']({ id: info.id, tool: 'wait', alwaysAllow: true });
    st.plan.push(callAnswer('wait', { seconds: 5 }), textAnswer('It never answered.'));
    const sent = await s.handlers['chat:send']({ conversationId: null, text: 'wait', model: MODEL });
    const turns = await settled(st, sent.conversationId);
    expect(turns[2]?.blocks[0]).toMatchObject({ isError: true, content: 'hang-calls did not answer wait within 1 s; the call was cancelled.' });
    expect(turnText(turns[3] as Turn)).toBe('It never answered.');
    await expect.poll(() => logLines(log).some((l) => l.startsWith('notification notifications/cancelled'))).toBe(true);
    // A hung call does not take the server down: it stays ready for the next one.
    expect((await server(s, info.id))?.state).toBe('ready');
  });

  it('Stop while a call runs: the server is told to cancel it, and the answer ends stopped', async () => {
    st = await stage();
    const s = st.services;
    const log = logFile();
    const info = await addServer(s, scripted('hang-calls', log));
    await s.handlers['mcp:set-tool']({ id: info.id, tool: 'wait', alwaysAllow: true });
    st.plan.push(callAnswer('wait', {}));
    const sent = await s.handlers['chat:send']({ conversationId: null, text: 'wait', model: MODEL });
    await expect.poll(() => logLines(log).includes('call wait')).toBe(true);
    expect(await s.handlers['chat:stop']({ turnId: sent.assistantTurn.id })).toEqual({ stopped: true });
    const turns = await settled(st, sent.conversationId);
    // Stopped, not failed (chat audit #4: its card read a red "Failed"): the result says so, as the user's doing.
    expect(turns.at(-1)?.blocks[0]).toMatchObject({ isError: true, stopped: true, content: 'Stopped by the user; hang-calls was asked to cancel the call.' });
    await expect.poll(() => logLines(log).some((l) => l.startsWith('notification notifications/cancelled'))).toBe(true);
  });

  it('exits at start: failed, with the server’s own stderr, and a call gets that reason at once', async () => {
    st = await stage();
    const s = st.services;
    const info = await addServer(s, scripted('exit-at-start', logFile()), 'failed');
    expect(info.error).toBe('The server exited with code 3 while starting. Its last words: fatal: MY_API_KEY is not set.');
    expect(info.stderrTail).toContain('fatal: MY_API_KEY is not set');
    expect(info.toolsKnown).toBe(false);
    // No tools were ever listed, so none is offered: the chat goes on without them.
    const sent = await s.handlers['chat:send']({ conversationId: null, text: 'hi', model: MODEL });
    const turns = await settled(st, sent.conversationId);
    expect(turnText(turns.at(-1) as Turn)).toBe('Done.');
    expect((st.bodies()[0]?.tools ?? []).map((t) => t.function.name)).toEqual(['read_document', 'fetch_url', 'current_datetime']);
  });

  it('a command that does not exist: failed, saying so', async () => {
    st = await stage();
    const info = await addServer(st.services, { name: 'typo', transport: 'stdio', command: 'firebrand-no-such-mcp-server', args: [] }, 'failed');
    expect(info.error).toBe('Could not start “firebrand-no-such-mcp-server”: no such program (is it installed and on the PATH?).');
  });

  // MCP hunt: a working folder that is not there failed as "no such program" for the command (Node's spawn says
  // ENOENT for either), so the user looked for a fault in a command that was fine.
  it('a working folder that does not exist: failed, naming the folder, not the program', async () => {
    st = await stage();
    const folder = join(tmpdir(), 'firebrand-no-such-folder', 'notes');
    const info = await addServer(st.services, { name: 'notes', transport: 'stdio', command: process.execPath, args: [EVERYTHING_BIN, 'stdio'], cwd: folder }, 'failed');
    expect(info.error).toBe(`Could not start “${process.execPath}”: its working folder “${folder}” does not exist.`);
    // A file where the folder should be (Node's spawn says ENOTDIR, and the message was "spawn ENOTDIR").
    const file = EVERYTHING_BIN;
    const onFile = await addServer(st.services, { name: 'on-a-file', transport: 'stdio', command: process.execPath, args: [EVERYTHING_BIN, 'stdio'], cwd: file }, 'failed');
    expect(onFile.error).toBe(`Could not start “${process.execPath}”: its working folder “${file}” is not a folder.`);
  });

  // MCP hunt: the whole command line typed into Command (as README's own example reads, "npx -y
  // @modelcontextprotocol/server-filesystem /home/me/notes") was "no such program (is it installed…?)", though npx
  // was; the command box takes the program alone.
  it('a whole command line typed as the command: failed, saying where the arguments go', async () => {
    st = await stage();
    const command = 'firebrand-no-such-mcp-server -y @modelcontextprotocol/server-filesystem /home/me/notes';
    const info = await addServer(st.services, { name: 'files', transport: 'stdio', command, args: [] }, 'failed');
    expect(info.error).toBe(
      `Could not start “${command}”: no such program. The command is the program alone (here “firebrand-no-such-mcp-server”); its arguments go under Arguments, one per line.`,
    );
  });

  it('a call to a server that fails when it starts gets the reason as its result', async () => {
    st = await stage();
    // Its tools were listed on a better day: they are still offered, and a call tries to start it.
    const { result, turns } = await callUnstartable(st, scripted('exit-at-start', logFile()), 'It could not start.');
    expect(result).toMatchObject({ isError: true, content: 'exit-at-start could not start, so wait did not run: The server exited with code 3 while starting. Its last words: fatal: MY_API_KEY is not set.' });
    expect(turnText(turns.at(-1) as Turn)).toBe('It could not start.');
  });

  it('prints garbage: the lines go to its log tail, the protocol goes on', async () => {
    st = await stage();
    const info = await addServer(st.services, scripted('garbage', logFile()));
    expect(info.tools.map((t) => t.name)).toEqual(['wait']);
    expect(info.stderrTail).toContain('Starting up... this is not JSON-RPC');
  });

  it('never answers at start: failed after the start timeout, and its process is gone', async () => {
    st = await stage({ services: { mcp: { startTimeoutMs: 2000 } } });
    const log = logFile();
    const info = await addServer(st.services, scripted('hang-init', log), 'failed');
    expect(info.error).toBe('The server did not answer within 2 s of starting.');
    const pid = Number(logLines(log).find((l) => l.startsWith('pid '))?.slice(4));
    await expect.poll(() => alive(pid)).toBe(false);
  });
});

describe('editing or removing a server while its tool runs (tools audit #2)', () => {
  /** A chat whose call to the scripted server's `wait` is running (it never answers). */
  async function running(log: string) {
    st = await stage();
    const s = st.services;
    const info = await addServer(s, scripted('hang-calls', log));
    await s.handlers['mcp:set-tool']({ id: info.id, tool: 'wait', alwaysAllow: true });
    st.plan.push(callAnswer('wait', {}), textAnswer('Noted.'));
    const sent = await s.handlers['chat:send']({ conversationId: null, text: 'wait', model: MODEL });
    await expect.poll(() => logLines(log).includes('call wait')).toBe(true);
    return { s, info, sent, pid: s.mcp.host(info.id).pid as number };
  }

  it('a new timeout, name or "start with Firebrand" leaves the server and its running call alone', async () => {
    const log = logFile();
    const { s, info, sent, pid } = await running(log);
    await s.handlers['mcp:save']({ id: info.id, name: 'waiter', transport: 'stdio', timeoutSeconds: 120, startWithApp: true });
    expect(s.mcp.host(info.id).pid).toBe(pid);
    // The call was still running: the user's Stop is what ends it.
    expect(await s.handlers['chat:stop']({ turnId: sent.assistantTurn.id })).toEqual({ stopped: true });
    const turns = await settled(st!, sent.conversationId);
    expect(turns.at(-1)?.blocks[0]).toMatchObject({ stopped: true, content: 'Stopped by the user; waiter was asked to cancel the call.' });
  });

  it('a changed program restarts the server, and the call it ends says the user restarted it', async () => {
    const log = logFile();
    const { s, info, sent, pid } = await running(log);
    await s.handlers['mcp:save']({ ...scripted('hang-calls', log), id: info.id, env: [{ name: 'SCRIPTED_LOG', value: log }, { name: 'EXTRA', value: '1' }] });
    const turns = await settled(st!, sent.conversationId);
    expect(turns[2]?.blocks[0]).toMatchObject({ isError: true, content: 'hang-calls was restarted by the user to apply its changed settings while wait ran, so the call did not finish.' });
    await expect.poll(() => alive(pid)).toBe(false);
  });

  it('a call ended by Remove says the user removed the server', async () => {
    const { s, info, sent } = await running(logFile());
    await s.handlers['mcp:delete']({ id: info.id });
    const turns = await settled(st!, sent.conversationId);
    expect(turns[2]?.blocks[0]).toMatchObject({ isError: true, content: 'hang-calls was removed by the user while wait ran, so the call did not finish.' });
  });
});

// Tools audit #4: allowed after its server was removed, the call said "The server could not start" and a host
// was made for the deleted server. Then the card went on offering Allow for a server that no longer existed: it is
// withdrawn now, as it is when the server or the tool is switched off.
describe('a card waiting when its server is removed or switched off', () => {
  async function waiting() {
    st = await stage();
    const s = st.services;
    const log = logFile();
    const info = await addServer(s, scripted('hang-calls', log));
    st.plan.push(callAnswer('wait', {}), textAnswer('It is gone.'));
    const sent = await s.handlers['chat:send']({ conversationId: null, text: 'wait', model: MODEL });
    await expect.poll(() => pendingCard(st!, sent.conversationId)).toBeDefined();
    return { s, log, info, sent, card: pendingCard(st, sent.conversationId)! };
  }
  const approve = (s: Stage['services'], card: Turn) =>
    s.handlers['chat:approve-tool']({ conversationId: card.conversationId, turnId: String(card.meta['turnId']), toolCallId: String(card.meta['toolCallId']), decision: 'allow-once' });

  it('Remove withdraws the card: no Allow is offered, the call does not run, and the model is told why', async () => {
    const { s, log, info, sent, card } = await waiting();
    await s.handlers['mcp:delete']({ id: info.id });
    const turns = await settled(st!, sent.conversationId);
    const settledCard = turns.find((t) => t.source === 'tool-approval');
    expect(settledCard?.meta).toMatchObject({ state: 'withdrawn', withdrawn: 'server-removed' });
    expect(turnText(settledCard!)).toBe('wait (from the tool server hang-calls) did not run: its tool server was removed in Settings → Tools while it waited for your approval: {}');
    expect(turns.find((t) => t.role === 'tool')?.blocks[0]).toMatchObject({
      isError: true,
      notRun: true,
      content: 'Not run: the user removed the tool server hang-calls before deciding on this call. Do not retry it; answer without it.',
    });
    expect(turnText(turns.at(-1)!)).toBe('It is gone.');
    expect(await approve(s, card)).toEqual({ applied: false });
    expect(() => s.mcp.host(info.id)).toThrow('no longer configured');
    expect(logLines(log).filter((l) => l.startsWith('pid'))).toHaveLength(1);
  });

  it('switching the server off withdraws the card; switching it on again does not bring the call back', async () => {
    const { s, info, sent, card } = await waiting();
    await s.handlers['mcp:set-enabled']({ id: info.id, enabled: false });
    const turns = await settled(st!, sent.conversationId);
    expect(turns.find((t) => t.source === 'tool-approval')?.meta).toMatchObject({ state: 'withdrawn', withdrawn: 'server-off' });
    expect(turns.find((t) => t.role === 'tool')?.blocks[0]).toMatchObject({ content: 'Not run: the user switched the tool server hang-calls off before deciding on this call. Do not retry it; answer without it.' });
    await s.handlers['mcp:set-enabled']({ id: info.id, enabled: true });
    expect(await approve(s, card)).toEqual({ applied: false });
  });

  it('switching the tool off withdraws its card; a rename of the server does not', async () => {
    const { s, info, sent } = await waiting();
    await s.handlers['mcp:save']({ ...scripted('hang-calls', logFile()), id: info.id, name: 'renamed', timeoutSeconds: 90 });
    expect(pendingCard(st!, sent.conversationId)).toBeDefined();
    await s.handlers['mcp:set-tool']({ id: info.id, tool: 'wait', enabled: false });
    const turns = await settled(st!, sent.conversationId);
    expect(turns.find((t) => t.source === 'tool-approval')?.meta).toMatchObject({ state: 'withdrawn', withdrawn: 'tool-off' });
    expect(turns.find((t) => t.role === 'tool')?.blocks[0]).toMatchObject({ content: 'Not run: the user switched wait off before deciding on this call. Do not retry it; answer without it.' });
  });
});

// Tools audit #7: a call made within the back-off after a crash failed at once ("is not running … Firebrand starts
// it again in 1 s"), and the server's last words ran into the next sentence with no full stop.
describe('a call right after its server crashed', () => {
  it('starts the server again and runs; the reason for the crash ends with a full stop', async () => {
    st = await stage();
    const s = st.services;
    const log = logFile();
    const info = await addServer(s, scripted('crash-once', log));
    await s.handlers['mcp:set-tool']({ id: info.id, tool: 'wait', alwaysAllow: true });
    st.plan.push(callAnswer('wait', {}), callAnswer('wait', {}), textAnswer('It came back.'));
    const sent = await s.handlers['chat:send']({ conversationId: null, text: 'wait twice', model: MODEL });
    const turns = await settled(st, sent.conversationId);
    const results = turns.filter((t) => t.role === 'tool').map((t) => t.blocks[0]);
    expect(results[0]).toMatchObject({ isError: true, content: 'crash-once stopped while wait ran: The server exited with code 7. Its last words: about to crash hard.' });
    expect(results[1]).toMatchObject({ isError: false, content: 'done waiting' });
  });
});

// Tools audit #8: failure reasons that pointed away from the cause.
describe('why a server failed, in words that point at the cause', () => {
  it('quotes the error line of a program that prints its usage after it', async () => {
    st = await stage();
    const info = await addServer(st.services, everything('bad', { args: [EVERYTHING_BIN, 'bogus-transport'] }), 'failed');
    expect(info.error).toMatch(/Its last words: Unknown transport: bogus-transport\.$/);
  });

  it('says the connection was refused where nothing listens at the address', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    st = await stage();
    const url = `http://127.0.0.1:${port}/mcp`;
    const info = await addServer(st.services, { name: 'remote', transport: 'http', url }, 'failed');
    expect(info.error).toBe(`${url} did not answer as an MCP server: the connection was refused: nothing is listening at that address. Check that the server is running and the port is right.`);
  });
});

describe('a server that is slow to start', () => {
  it('never holds the chat: the request goes without its tools after a short wait', async () => {
    // It never answers `initialize`, and its start timeout is far away: only the bounded wait lets the chat go.
    st = await stage({ services: { mcp: { startTimeoutMs: 600_000, prepareWaitMs: 200 } } });
    const info = await st.services.handlers['mcp:save'](scripted('hang-init', logFile()));
    const sent = await st.services.handlers['chat:send']({ conversationId: null, text: 'hi', model: MODEL });
    const turns = await settled(st, sent.conversationId);
    expect(turnText(turns.at(-1) as Turn)).toBe('Done.');
    expect((st.bodies()[0]?.tools ?? []).map((t) => t.function.name)).toEqual(['read_document', 'fetch_url', 'current_datetime']);
    expect((await server(st.services, info.id))?.state).toBe('starting');
  });
});

describe('quitting', () => {
  it('leaves no server process behind, not even a child of one that ignores SIGTERM', async () => {
    st = await stage();
    const s = st.services;
    const log = logFile();
    const stubborn = await addServer(s, scripted('stubborn', log));
    const ready = await addServer(s, everything());
    await expect.poll(() => logLines(log).some((l) => l.startsWith('child '))).toBe(true);
    const pids = [
      ...logLines(log).flatMap((l) => (/^(pid|child) \d+$/.test(l) ? [Number(l.split(' ')[1])] : [])),
      s.mcp.host(ready.id).pid as number,
    ];
    expect(pids).toHaveLength(3);
    expect(pids.every(alive)).toBe(true);
    expect(stubborn.state).toBe('ready');
    await st.close();
    st = undefined;
    await expect.poll(() => pids.filter(alive)).toEqual([]);
  });
});
