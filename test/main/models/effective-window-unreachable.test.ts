/**
 * Real-engines audit D2: while a llama-server started with `-c 16384` was down, the meter showed a made-up 4K window,
 * nearly full and amber, and said "llama-server did not report its n_ctx (/props)". The window it was started with
 * when last reached stands now, said as such; a server that was never reached still has no window.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { getDialect } from '../../../src/main/dialects/registry';
import { CapabilityCache, LLAMA_SERVER_PROPS_TTL_MS } from '../../../src/main/engine/capabilities';
import type { EngineConnection } from '../../../src/main/engine/types';
import { effectiveWindow, type EffectiveWindowDeps } from '../../../src/main/models/effective-window';
import type { ContextWindowResolver } from '../../../src/main/models/context-window';

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  server = undefined;
});

/** A llama-server's /props with the window it was started with. */
async function propsServer(nCtx: number): Promise<string> {
  server = createServer((req, res) => {
    if (req.url === '/props') res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ default_generation_settings: { n_ctx: nCtx }, modalities: { vision: false } }));
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function deps(baseUrl: string, clock: { now: number }): { deps: EffectiveWindowDeps; caps: CapabilityCache } {
  const connection: EngineConnection = { id: 'box', kind: 'llama-server', label: 'GPU box', baseUrl, dialect: getDialect('openai'), authHeaders: () => ({}) };
  const caps = new CapabilityCache(undefined, () => clock.now);
  const resolver = { resolve: () => Promise.reject(new Error('not Ollama')) } as unknown as ContextWindowResolver;
  return { caps, deps: { alias: () => undefined, connection: () => connection, capabilities: caps, resolver } };
}

describe('the window of a llama-server that cannot be reached', () => {
  it('is the one it was started with when last reached, said as such, until it answers again', async () => {
    const url = await propsServer(16384);
    const clock = { now: 1_000 };
    const { deps: d, caps } = deps(url, clock);
    expect(await effectiveWindow({ model: 'm' }, d)).toMatchObject({ contextWindow: 16384, source: 'server', reason: 'llama-server was started with n_ctx 16384.' });

    // Killed: the cached answer runs out, and a send's or a test's forget drops it too.
    await new Promise<void>((done) => server?.close(() => done()));
    server = undefined;
    clock.now += LLAMA_SERVER_PROPS_TTL_MS + 1;
    caps.forget('box');
    const down = await effectiveWindow({ model: 'm' }, d);
    expect(down.contextWindow).toBe(16384);
    expect(down.source).toBe('server');
    expect(down.reason).toContain('did not answer just now');
    expect(down.reason).toContain('16384');
  });

  it('is unknown for a server never reached at that address', async () => {
    const url = await propsServer(8192);
    const clock = { now: 1_000 };
    const { deps: d } = deps(url, clock);
    await new Promise<void>((done) => server?.close(() => done()));
    server = undefined;
    expect(await effectiveWindow({ model: 'm' }, d)).toMatchObject({ contextWindow: null, source: 'unknown' });
  });
});
