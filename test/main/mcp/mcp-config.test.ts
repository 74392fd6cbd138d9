/**
 * Issue 19: what a server runs with, and where its secrets go. A stdio server gets only what the user configured
 * (plus PATH, HOME and the like), not Firebrand's own environment; env and header values are stored like API
 * keys: never shown back, never in the settings row, a step record or an export. Over http, Streamable HTTP is
 * tried first and the older SSE transport answers where a server only speaks that (real server-everything).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addServer, callAnswer, EVERYTHING_BIN, everything, MODEL, server, settled, stage, textAnswer, type Stage } from './helpers';

let st: Stage | undefined;
let child: ChildProcess | undefined;
afterEach(async () => {
  await st?.close();
  child?.kill('SIGKILL');
  st = child = undefined;
});

const SECRET = 'sk-test-5f0e1d2c3b4a';

describe('what a stdio server runs with', () => {
  it('gets its configured environment and nothing of Firebrand’s own; the value is never shown back or recorded', async () => {
    process.env['FIREBRAND_TEST_PARENT_SECRET'] = 'parent-only';
    try {
      st = await stage();
      const s = st.services;
      const info = await addServer(s, everything('everything', { env: [{ name: 'MY_TOKEN', value: SECRET }] }));
      expect(info.envNames).toEqual(['MY_TOKEN']);
      expect(JSON.stringify(await s.handlers['mcp:list']({}))).not.toContain(SECRET);

      await s.handlers['mcp:set-tool']({ id: info.id, tool: 'get-env', alwaysAllow: true });
      st.plan.push(callAnswer('get-env', {}), textAnswer('Checked.'));
      const sent = await s.handlers['chat:send']({ conversationId: null, text: 'env?', model: MODEL });
      const turns = await settled(st, sent.conversationId);
      const env = JSON.parse(String((turns[2]?.blocks[0] as { content: string }).content)) as Record<string, string>;
      expect(env['MY_TOKEN']).toBe(SECRET);
      expect(env['PATH']).toBe(process.env['PATH']);
      expect(env['FIREBRAND_TEST_PARENT_SECRET']).toBeUndefined();

      // The value lives in the secret store only: not in the settings table, not in the server's list.
      const row = s.db.prepare("SELECT value FROM settings WHERE key = 'mcp.servers'").get() as { value: string };
      expect(row.value).toContain('MY_TOKEN');
      expect(row.value).not.toContain(SECRET);
      expect(readFileSync(join(st.dir, 'secrets.json'), 'utf8')).toContain(SECRET);

      // Saving again without a value keeps it; listing the name without a value for a new one is refused.
      await s.handlers['mcp:save']({ id: info.id, name: 'everything', transport: 'stdio', env: [{ name: 'MY_TOKEN' }] });
      expect(readFileSync(join(st.dir, 'secrets.json'), 'utf8')).toContain(SECRET);
      await expect(s.handlers['mcp:save']({ id: info.id, name: 'everything', transport: 'stdio', env: [{ name: 'MY_TOKEN' }, { name: 'OTHER' }] })).rejects.toThrow('Enter a value for the environment variable OTHER.');
      // Removed from the list: removed from the store.
      await s.handlers['mcp:save']({ id: info.id, name: 'everything', transport: 'stdio', env: [] });
      expect(readFileSync(join(st.dir, 'secrets.json'), 'utf8')).not.toContain(SECRET);
      await s.handlers['mcp:delete']({ id: info.id });
      expect(await s.handlers['mcp:list']({})).toEqual([]);
    } finally {
      delete process.env['FIREBRAND_TEST_PARENT_SECRET'];
    }
  });

  it('keeps header values out of every request record and export, and sends them only to the server', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const mcpServer = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(404).end('no MCP here');
    });
    await new Promise<void>((r) => mcpServer.listen(0, '127.0.0.1', () => r()));
    try {
      st = await stage();
      const s = st.services;
      const url = `http://127.0.0.1:${(mcpServer.address() as AddressInfo).port}/mcp`;
      const info = await addServer(s, { name: 'remote', transport: 'http', url, headers: [{ name: 'Authorization', value: `Bearer ${SECRET}` }] }, 'failed');
      expect(info.headerNames).toEqual(['Authorization']);
      expect(info.error).toContain(`${url} did not answer as an MCP server`);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.every((h) => h.authorization === `Bearer ${SECRET}`)).toBe(true);

      const sent = await s.handlers['chat:send']({ conversationId: null, text: 'hello', model: MODEL });
      await settled(st, sent.conversationId);
      const exported = await s.handlers['conversations:export']({ conversationId: sent.conversationId, format: 'json' });
      expect(exported.text).not.toContain(SECRET);
      const steps = s.db.prepare('SELECT * FROM steps').all();
      expect(JSON.stringify(steps)).not.toContain(SECRET);
      expect(st.replay.requests.some((r) => JSON.stringify(r).includes(SECRET))).toBe(false);
    } finally {
      mcpServer.close();
    }
  });
});

/** server-everything over http, on a free port (the way a user runs a remote server). */
async function serveEverything(mode: 'streamableHttp' | 'sse'): Promise<number> {
  const port = await new Promise<number>((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const p = (probe.address() as AddressInfo).port;
      probe.close(() => resolve(p));
    });
  });
  child = spawn(process.execPath, [EVERYTHING_BIN, mode], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const check = (d: Buffer) => {
      out += d.toString();
      if (/listening on port|running on port/i.test(out)) resolve();
    };
    child?.stdout?.on('data', check);
    child?.stderr?.on('data', check);
    child?.once('exit', (code) => reject(new Error(`server-everything ${mode} exited ${code}: ${out}`)));
  });
  return port;
}

describe('http servers', () => {
  it('speaks Streamable HTTP to a server that does', async () => {
    const port = await serveEverything('streamableHttp');
    st = await stage();
    const info = await addServer(st.services, { name: 'remote', transport: 'http', url: `http://127.0.0.1:${port}/mcp` });
    expect(info.protocol).toBe('streamable-http');
    expect(info.tools.map((t) => t.name)).toContain('echo');
    const result = await st.services.mcp.host(info.id).call('echo', { message: 'over http' }, { signal: new AbortController().signal });
    expect(result.content).toEqual([{ type: 'text', text: 'Echo: over http' }]);
  });

  // mcpstart #2: an address typed without its scheme was refused ("it starts with http:// or https://"), though a
  // connection's is taken as http://.
  it('takes an address typed as a host and port as http://, and refuses what cannot be an address, saying why', async () => {
    const port = await serveEverything('streamableHttp');
    st = await stage();
    const info = await addServer(st.services, { name: 'remote', transport: 'http', url: ` 127.0.0.1:${port}/mcp ` });
    expect(info.url).toBe(`http://127.0.0.1:${port}/mcp`);
    expect(info.tools.map((t) => t.name)).toContain('echo');
    // An edit that types it so again keeps the same address.
    const edited = await st.services.handlers['mcp:save']({ id: info.id, name: 'remote', transport: 'http', url: `127.0.0.1:${port}/mcp` });
    expect(edited.url).toBe(`http://127.0.0.1:${port}/mcp`);

    const refusal = async (url: string) => {
      try {
        await st?.services.handlers['mcp:save']({ name: `r-${url}`, transport: 'http', url });
        return 'saved';
      } catch (err) {
        return (err as Error).message;
      }
    };
    const cannot = (url: string) => `“${url}” is not an address Firebrand can reach: it starts with http:// or https://, or is a host and port (such as localhost:3001/mcp, taken as http://).`;
    expect(await refusal('  ')).toBe('Enter the server’s address, for example http://localhost:3001/mcp.');
    // No port: a local server's cannot be guessed; a name alone is not an address; another scheme is not reached.
    expect(await refusal('localhost/mcp')).toBe(cannot('localhost/mcp'));
    expect(await refusal('my notes server')).toBe(cannot('my notes server'));
    expect(await refusal('ws://127.0.0.1:3001/mcp')).toBe(cannot('ws://127.0.0.1:3001/mcp'));
    expect((await st.services.handlers['mcp:list']({})).map((x) => x.name)).toEqual(['remote']);
  });

  it('falls back to SSE for a server that only speaks the older transport', async () => {
    const port = await serveEverything('sse');
    st = await stage();
    const info = await addServer(st.services, { name: 'legacy', transport: 'http', url: `http://127.0.0.1:${port}/sse` });
    expect(info.protocol).toBe('sse');
    const result = await st.services.mcp.host(info.id).call('get-sum', { a: 2, b: 3 }, { signal: new AbortController().signal });
    expect(JSON.stringify(result.content)).toContain('5');
    expect((await server(st.services, info.id))?.state).toBe('ready');
  });
});
