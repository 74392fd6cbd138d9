/**
 * Issue 19: servers start when first needed (or with Firebrand when the user asks), keep their tool list across
 * restarts so a chat can offer tools without starting anything, and are named by the collision rule when two
 * servers offer the same tool. Import adds the servers of an `mcpServers` file. Real server-everything.
 */
import { createServices } from '../../../src/main/services';
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addServer, alive, callAnswer, EVERYTHING_BIN, everything, filesystem, MODEL, server, settled, stage, textAnswer, type Stage } from './helpers';

let st: Stage | undefined;
afterEach(async () => {
  await st?.close();
  st = undefined;
});

describe('when servers start', () => {
  it('a restarted Firebrand offers the tools it knew without starting the server; the first call starts it', async () => {
    st = await stage();
    const first = await addServer(st.services, everything());
    await st.services.handlers['mcp:set-tool']({ id: first.id, tool: 'echo', alwaysAllow: true });
    // Quit, and start again on the same data folder.
    st.services.close();
    await st.services.closed;
    st.services = createServices({ dataDir: st.dir, ollamaUrl: st.replay.url, log: () => {}, chat: { titles: false } });
    const s = st.services;
    const again = await server(s, first.id);
    expect(again).toMatchObject({ state: 'stopped', toolsKnown: true });
    expect(again?.tools.find((t) => t.name === 'echo')?.alwaysAllow).toBe(true);

    const plain = await s.handlers['chat:send']({ conversationId: null, text: 'hi', model: MODEL });
    await settled(st, plain.conversationId);
    expect(st.bodies().at(-1)?.tools?.map((t) => t.function.name)).toContain('echo');
    expect((await server(s, first.id))?.state).toBe('stopped');

    st.plan.push(callAnswer('echo', { message: 'wake up' }), textAnswer('It woke.'));
    const call = await s.handlers['chat:send']({ conversationId: plain.conversationId, text: 'echo', model: MODEL });
    const turns = await settled(st, call.conversationId);
    expect(turns.filter((t) => t.role === 'tool').at(-1)?.blocks[0]).toMatchObject({ content: 'Echo: wake up', isError: false });
    expect((await server(s, first.id))?.state).toBe('ready');
  });

  it('starts with Firebrand when the user asked', async () => {
    st = await stage();
    const info = await addServer(st.services, everything('everything', { startWithApp: true }));
    st.services.close();
    await st.services.closed;
    st.services = createServices({ dataDir: st.dir, ollamaUrl: st.replay.url, log: () => {}, chat: { titles: false } });
    await expect.poll(async () => (await server(st!.services, info.id))?.state).toBe('ready');
  });
});

describe('Restart', () => {
  it('starts a new process and ends the old one', async () => {
    st = await stage();
    const s = st.services;
    const info = await addServer(s, everything());
    const before = s.mcp.host(info.id).pid as number;
    const restarted = await s.handlers['mcp:restart']({ id: info.id });
    expect(restarted.state).toBe('starting');
    await expect.poll(async () => (await server(s, info.id))?.state).toBe('ready');
    expect(s.mcp.host(info.id).pid).not.toBe(before);
    await expect.poll(() => alive(before)).toBe(false);
  });
});

describe('editing a server', () => {
  // Tools audit #9: "Run without asking" for write_file stayed ticked after the server was pointed at another
  // folder, so the tool wrote there without a question.
  it('asks again before a tool runs once the server runs something else, not after a rename', async () => {
    const notes = mkdtempSync(join(tmpdir(), 'firebrand-fs-notes-'));
    const other = mkdtempSync(join(tmpdir(), 'firebrand-fs-other-'));
    try {
      st = await stage();
      const s = st.services;
      const info = await addServer(s, filesystem(notes));
      await s.handlers['mcp:set-tool']({ id: info.id, tool: 'write_file', alwaysAllow: true });
      const allowed = async () => (await server(s, info.id))?.tools.find((t) => t.name === 'write_file')?.alwaysAllow;

      await s.handlers['mcp:save']({ ...filesystem(notes, 'my files'), id: info.id });
      expect(await allowed()).toBe(true);

      await s.handlers['mcp:save']({ ...filesystem(other, 'my files'), id: info.id });
      await expect.poll(async () => (await server(s, info.id))?.state).toBe('ready');
      expect(await allowed()).toBe(false);
    } finally {
      rmSync(notes, { recursive: true, force: true });
      rmSync(other, { recursive: true, force: true });
    }
  });
});

describe('two servers with the same tool', () => {
  it('offers both as server_tool, and a call reaches the right one', async () => {
    st = await stage();
    const s = st.services;
    await addServer(s, everything('alpha'));
    const beta = await addServer(s, everything('beta'));
    const listed = await s.handlers['mcp:list']({});
    expect(listed.map((x) => x.tools.find((t) => t.name === 'echo')?.offeredAs)).toEqual(['alpha_echo', 'beta_echo']);
    await s.handlers['mcp:set-tool']({ id: beta.id, tool: 'echo', alwaysAllow: true });
    st.plan.push(callAnswer('beta_echo', { message: 'to beta' }), textAnswer('ok'));
    const sent = await s.handlers['chat:send']({ conversationId: null, text: 'echo', model: MODEL });
    const turns = await settled(st, sent.conversationId);
    expect(turns.find((t) => t.role === 'tool')?.blocks[0]).toMatchObject({ name: 'beta_echo', content: 'Echo: to beta' });
    // With alpha's echo switched off, beta's is unique again: it gets its own name back.
    await s.handlers['mcp:set-tool']({ id: listed[0]?.id ?? '', tool: 'echo', enabled: false });
    expect((await server(s, beta.id))?.tools.find((t) => t.name === 'echo')?.offeredAs).toBe('echo');
  });

  it('shows in Settings the name the model sees for a tool named like a built-in one', async () => {
    st = await stage();
    const s = st.services;
    const info = await addServer(s, everything('web'));
    // As if the server had a `fetch_url` of its own: the built-in keeps its name, this one is prefixed.
    s.mcp.store.update(info.id, { tools: [{ name: 'fetch_url', description: 'Fetches.', inputSchema: { type: 'object' } }] });
    expect((await server(s, info.id))?.tools[0]?.offeredAs).toBe('web_fetch_url');
    const sent = await s.handlers['chat:send']({ conversationId: null, text: 'hi', model: MODEL });
    await settled(st, sent.conversationId);
    expect(st.bodies()[0]?.tools?.map((t) => t.function.name)).toEqual(['read_document', 'fetch_url', 'current_datetime', 'web_fetch_url']);
  });
});

describe('import', () => {
  it('adds the servers of an mcpServers file, starts them, and skips a name that exists', async () => {
    st = await stage();
    const s = st.services;
    await addServer(s, everything('everything'));
    const file = JSON.stringify({
      mcpServers: {
        Everything: { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] },
        imported: { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'], alwaysAllow: ['echo'] },
        broken: { args: [] },
      },
    });
    expect(await s.handlers['mcp:import']({ text: file })).toEqual({
      added: ['imported'],
      skipped: [
        { name: 'broken', reason: 'it has neither a "command" nor a "url"' },
        // The server already there is named as it is (tools audit #8: the message quoted the new name).
        // An import has no box to pick a name in (mcp2 #4): it says what the user can do instead.
        {
          name: 'Everything',
          reason:
            'There is a server named “everything” already (names are compared ignoring case). If this is another server, rename “everything” here first, or change its name in the file, and import the file again.',
        },
      ],
    });
    const imported = (await s.handlers['mcp:list']({})).find((x) => x.name === 'imported');
    await expect.poll(async () => (await server(s, imported?.id ?? ''))?.state).toBe('ready');
    expect((await server(s, imported?.id ?? ''))?.tools.find((t) => t.name === 'echo')?.alwaysAllow).toBe(true);
    expect(() => s.handlers['mcp:import']({ text: 'not json' })).toThrow(/The file is not JSON/);
  });
});

