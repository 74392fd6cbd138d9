import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authHeaders } from '../../../src/main/connections/auth';
import { describeProbeError, probeJson } from '../../../src/main/connections/probe-http';
import { testConnection } from '../../../src/main/connections/test-connection';
import { listOllamaModels } from '../../../src/main/models/ollama-models';
import { createServices, type Services } from '../../../src/main/services';
import { TAGS_BODY } from '../../replay-server/ollama-wire';
import { startReplayServer, type ReplayServer } from '../../replay-server/replay-server';
import { conformance } from '../engine/helpers';

let replay: ReplayServer;
let dir: string;
let services: Services | undefined;
beforeEach(async () => {
  replay = await startReplayServer();
  dir = mkdtempSync(join(tmpdir(), 'firebrand-conn-'));
});
afterEach(async () => {
  services?.close();
  services = undefined;
  await replay.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('connections', () => {
  it('puts auth in headers the way each kind wants', () => {
    expect(authHeaders('openai-compatible', 'k')).toEqual({ authorization: 'Bearer k' });
    expect(authHeaders('llama-server', undefined)).toEqual({});
    expect(authHeaders('anthropic', 'k')).toEqual({ 'anthropic-version': '2023-06-01', 'x-api-key': 'k' });
  });

  it('tests Ollama: version and model count', async () => {
    replay.setRoutes([{ path: '/api/version', body: '{"version":"0.12.6"}' }, { path: '/api/tags', body: TAGS_BODY }]);
    const out = await testConnection('ollama', replay.url, {});
    expect(out).toMatchObject({ ok: true, version: '0.12.6' });
    expect(out.ok && out.modelCount).toBeGreaterThan(0);
  });

  it('tests llama-server from its recorded /health, /props and /v1/models', async () => {
    replay.setRoutes([
      { path: '/health', body: conformance('health-deepseek.json') },
      { path: '/props', body: conformance('props-deepseek.json') },
      { path: '/v1/models', body: conformance('v1-models-deepseek.json') },
    ]);
    expect(await testConnection('llama-server', replay.url, {})).toMatchObject({ ok: true, version: 'b10587-3f545bec', modelCount: 1 });
  });

  it('reports the exact failure: the server message, or that nothing answers', async () => {
    replay.setRoutes([{ path: '/v1/models', status: 401, body: '{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}' }]);
    expect(await testConnection('anthropic', replay.url, {})).toEqual({ ok: false, error: `${replay.url}/v1/models answered HTTP 401: invalid x-api-key` });
    // A proxy's page is named by its title, not shown as markup.
    replay.setRoutes([{ path: '/v1/models', status: 502, body: '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body><center><h1>502 Bad Gateway</h1></center></body>\r\n</html>\r\n', headers: { 'content-type': 'text/html' } }]);
    expect(await testConnection('openai-compatible', replay.url, {})).toEqual({ ok: false, error: `${replay.url}/v1/models answered HTTP 502: a web page ("502 Bad Gateway")` });
    const down = await testConnection('openai-compatible', 'http://127.0.0.1:9', {});
    expect(down.ok).toBe(false);
    expect(!down.ok && down.error).toMatch(/Cannot reach/);
  });

  it('names the whole address a failed probe asked, and says "not JSON" when /health answers a web page (models audit #7)', async () => {
    replay.setRoutes([{ path: '/health', body: '<!DOCTYPE HTML>\n<html><body>Directory listing</body></html>', headers: { 'content-type': 'text/html' } }]);
    expect(await testConnection('llama-server', replay.url, {})).toEqual({ ok: false, error: `${replay.url}/health did not answer JSON; is this the right kind of server?` });
    replay.setRoutes([{ path: '/nothing', body: '' }]);
    const missing = await testConnection('openai-compatible', `${replay.url}/v1`, {});
    expect(missing).toMatchObject({ ok: false });
    expect(!missing.ok && missing.error).toMatch(new RegExp(`^${replay.url}/v1/v1/models answered HTTP 404`));
  });

  it('says a server of another kind is one: a llama-server added as Ollama, an Ollama added as llama-server (first-hour audit F4)', async () => {
    // Before: "…/api/version answered HTTP 404: File Not Found", and the banner "Ollama at … answered 404 when asked
    // for its models.", with nothing about the kind chosen.
    const notFound = { status: 404, body: '{"error":{"message":"File Not Found","type":"not_found_error","code":404}}' };
    replay.setRoutes([
      { path: '/health', body: conformance('health-deepseek.json') },
      { path: '/v1/models', body: conformance('v1-models-deepseek.json') },
      { path: '/api/version', ...notFound },
      { path: '/api/tags', ...notFound },
    ]);
    const hint = 'It is not Ollama: it lists its models at /v1/models, as llama-server and other OpenAI-compatible servers do. Add it in Settings → Connections as llama-server (or openai-compatible).';
    expect(await testConnection('ollama', replay.url, {})).toEqual({ ok: false, error: `${replay.url}/api/version answered HTTP 404: File Not Found. ${hint}` });
    await expect(listOllamaModels(replay.url)).rejects.toThrow(`Ollama at ${replay.url} answered 404 when asked for its models. ${hint}`);

    replay.setRoutes([{ path: '/api/version', body: '{"version":"0.12.6"}' }, { path: '/api/tags', body: TAGS_BODY }, { path: '/health', ...notFound }]);
    expect(await testConnection('llama-server', replay.url, {})).toEqual({
      ok: false,
      error: `${replay.url}/health answered HTTP 404: File Not Found. It is Ollama 0.12.6, not llama-server: add it in Settings → Connections as ollama, or give its address as the Ollama address.`,
    });
  });

  it('saves an OpenAI-compatible or llama-server address without a trailing /v1, which Firebrand adds itself (models audit #7)', async () => {
    services = createServices({ dataDir: dir, ollamaUrl: replay.url, log: () => {} });
    const h = services.handlers;
    replay.setRoutes([{ path: '/v1/models', body: '{"object":"list","data":[{"id":"m","object":"model"}]}' }]);
    const lms = await h['connections:save']({ kind: 'openai-compatible', label: 'LM Studio', baseUrl: `${replay.url}/v1/` });
    expect(lms.baseUrl).toBe(replay.url);
    expect((await h['connections:save']({ kind: 'llama-server', label: 'llama', baseUrl: `${replay.url}/V1` })).baseUrl).toBe(replay.url);
    expect(await h['connections:test']({ id: lms.id })).toMatchObject({ ok: true, modelCount: 1 });
    // An address typed but not saved yet is tested the same way.
    expect(await h['connections:test']({ id: lms.id, baseUrl: `${replay.url}/v1` })).toMatchObject({ ok: true, modelCount: 1 });
  });

  it('reads a connection saved with /v1 before it was stripped as it is saved now, key and all', async () => {
    services = createServices({ dataDir: dir, ollamaUrl: replay.url, log: () => {} });
    const h = services.handlers;
    replay.setRoutes([{ path: '/v1/models', body: '{"object":"list","data":[{"id":"m","object":"model"}]}' }]);
    const saved = await h['connections:save']({ kind: 'openai-compatible', label: 'vLLM', baseUrl: replay.url, apiKey: 'sk-old' });
    // As an older Firebrand left it: the address as typed, /v1 and all.
    const row = services.db.prepare("SELECT value FROM settings WHERE key = 'engine.connections'").get() as { value: string };
    const list = (JSON.parse(row.value) as { baseUrl: string }[]).map((c) => ({ ...c, baseUrl: `${c.baseUrl}/v1` }));
    services.db.prepare("UPDATE settings SET value = ? WHERE key = 'engine.connections'").run(JSON.stringify(list));
    expect(await h['connections:list']({})).toContainEqual(expect.objectContaining({ id: saved.id, baseUrl: replay.url, hasApiKey: true }));
    expect(await h['connections:test']({ id: saved.id })).toMatchObject({ ok: true, modelCount: 1 });
    expect(replay.requests.at(-1)?.headers['authorization']).toBe('Bearer sk-old');
  });

  it('lists the default Ollama connection from the ollamaUrl setting, saves others with keys never returned', async () => {
    services = createServices({ dataDir: dir, ollamaUrl: replay.url, log: () => {} });
    const h = services.handlers;
    expect(await h['connections:list']({})).toEqual([
      { id: 'ollama', kind: 'ollama', label: 'Ollama', baseUrl: replay.url, hasApiKey: false, builtIn: true },
      // The built-in engine is always there; its address is the models folder.
      { id: 'builtin', kind: 'builtin', label: 'Built-in (llama.cpp)', baseUrl: join(dir, 'models'), hasApiKey: false, builtIn: true },
    ]);
    const saved = await h['connections:save']({ kind: 'openai-compatible', label: 'LM Studio', baseUrl: 'http://10.0.0.5:1234/', apiKey: 'abc' });
    expect(saved).toMatchObject({ kind: 'openai-compatible', baseUrl: 'http://10.0.0.5:1234', hasApiKey: true });
    expect(await h['connections:save']({ id: saved.id, kind: 'openai-compatible', label: 'LM Studio', baseUrl: 'http://10.0.0.5:1234', apiKey: '' })).toMatchObject({ hasApiKey: false });
    expect(await h['connections:delete']({ id: saved.id })).toEqual({ deleted: true });
    expect(await h['connections:list']({})).toHaveLength(2);
  });
});

describe('connections: settings audit', () => {
  // Settings audit #5: a double-click on Add connection saved two identical rows, told apart only by their order.
  it('refuses a second connection of the same kind to the same server, naming the one saved', async () => {
    services = createServices({ dataDir: dir, ollamaUrl: replay.url, log: () => {} });
    const h = services.handlers;
    const first = await h['connections:save']({ kind: 'llama-server', label: 'Real llama', baseUrl: 'http://127.0.0.1:8080' });
    await expect(async () => h['connections:save']({ kind: 'llama-server', label: 'Dbl', baseUrl: 'http://127.0.0.1:8080/' })).rejects.toThrow(
      '"Real llama" already connects to http://127.0.0.1:8080 as llama-server: edit that one instead.',
    );
    // The built-in Ollama's address counts too; another kind at the same address, or an edit of the one saved, does not.
    await expect(async () => h['connections:save']({ kind: 'ollama', label: 'Again', baseUrl: replay.url })).rejects.toThrow('"Ollama" already connects to');
    await h['connections:save']({ kind: 'openai-compatible', label: 'Same box', baseUrl: 'http://127.0.0.1:8080' });
    await h['connections:save']({ id: first.id, kind: 'llama-server', label: 'Renamed', baseUrl: 'http://127.0.0.1:8080' });
    expect((await h['connections:list']({})).map((c) => c.label)).toEqual(['Ollama', 'Built-in (llama.cpp)', 'Same box', 'Renamed']);
  });

  // Settings polish #1: a connection added with its name left empty was named by its kind's id ("llama-server").
  it("names a connection added without a name by its kind's readable name, unique among the connections", async () => {
    services = createServices({ dataDir: dir, ollamaUrl: replay.url, log: () => {} });
    const h = services.handlers;
    expect((await h['connections:save']({ kind: 'llama-server', label: '', baseUrl: 'http://127.0.0.1:8080' })).label).toBe('llama.cpp server');
    expect((await h['connections:save']({ kind: 'llama-server', label: '  ', baseUrl: 'http://127.0.0.1:8081' })).label).toBe('llama.cpp server 2');
    // The built-in Ollama's name is taken too.
    const second = await h['connections:save']({ kind: 'ollama', label: '', baseUrl: 'http://10.0.0.5:11434' });
    expect(second.label).toBe('Ollama 2');
    // An edit with the name emptied keeps the saved name, not a new one.
    expect((await h['connections:save']({ id: second.id, kind: 'ollama', label: '', baseUrl: 'http://10.0.0.6:11434' })).label).toBe('Ollama 2');
    // A kind's examples in brackets are no part of its name.
    expect((await h['connections:save']({ kind: 'openai-compatible', label: '', baseUrl: 'http://10.0.0.5:1234' })).label).toBe('OpenAI-compatible');
    expect((await h['connections:list']({})).map((c) => c.label)).toEqual(['Ollama', 'Built-in (llama.cpp)', 'llama.cpp server', 'llama.cpp server 2', 'Ollama 2', 'OpenAI-compatible']);
  });

  // Settings audit #10: a server that takes the connection and never answers read "The request to … failed: The
  // operation was aborted due to timeout".
  it('says a probe that gets no answer in time ran out of time, in its own limit', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as AddressInfo;
      const err = await probeJson(`http://127.0.0.1:${port}`, '/health', {}, undefined, 300).catch((e: unknown) => e);
      expect(describeProbeError(err)).toBe('The server did not answer within 0.3 s.');
      // Of a saved connection, its name (Test connection of the address it was saved with).
      expect(describeProbeError(err, { name: 'Silent', baseUrl: `http://127.0.0.1:${port}` })).toBe('Silent did not answer within 0.3 s.');
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});
