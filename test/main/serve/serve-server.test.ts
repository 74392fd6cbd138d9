import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startServe, type RunningServe } from '../../../src/main/serve/serve-server';
import { createServices, type Services } from '../../../src/main/services';

let dir: string;
let services: Services;
let serve: RunningServe;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'firebrand-serve-'));
  const renderer = join(dir, 'renderer');
  mkdirSync(renderer);
  writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>Firebrand</title>');
  mkdirSync(join(renderer, 'assets'));
  writeFileSync(join(renderer, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(dir, 'secret.txt'), 'outside the renderer');
  services = createServices({ dataDir: join(dir, 'data'), log: () => {} });
  serve = await startServe({ services, rendererDir: renderer, port: 0, log: () => {} });
});
afterAll(async () => {
  await serve.close();
  services.close();
  rmSync(dir, { recursive: true, force: true });
});

function socket(query: string, origin?: string): Promise<{ ws: WebSocket; status: 'open' } | { status: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${serve.origin.replace('http', 'ws')}/ipc${query}`, origin ? { origin } : {});
    ws.once('open', () => resolve({ ws, status: 'open' }));
    ws.once('unexpected-response', (_req, res) => resolve({ status: res.statusCode ?? 0 }));
    ws.once('error', () => resolve({ status: -1 }));
  });
}

describe('serve mode', () => {
  it('listens on 127.0.0.1 and prints a URL carrying its token', () => {
    expect(serve.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{20,}$/);
  });

  it('refuses a page request without the token, or with a wrong one', async () => {
    expect((await fetch(`${serve.origin}/`)).status).toBe(401);
    expect((await fetch(`${serve.origin}/?token=nope`)).status).toBe(401);
  });

  it('serves the renderer with the token, with a strict CSP; its scripts load without one; no cookie carries the token', async () => {
    const res = await fetch(serve.url);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('unsafe-eval');
    // Issue 15: cookies ignore ports, so a token cookie went to every other service on 127.0.0.1. None is set
    // now, and the one earlier versions set is cleared.
    const cookies = res.headers.getSetCookie();
    expect(cookies.join('\n')).not.toContain(serve.token);
    expect(cookies).toEqual([expect.stringMatching(/^firebrand_token=;.*Max-Age=0/)]);
    expect((await fetch(`${serve.origin}/index.html`)).status).toBe(401);
    expect((await fetch(`${serve.origin}/assets/app.js`)).status).toBe(200);
  });

  it('lets the browser keep the hashed assets for good, and never the page', async () => {
    expect((await fetch(serve.url)).headers.get('cache-control')).toBe('no-store');
    expect((await fetch(`${serve.origin}/assets/app.js`)).headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    // The page spelled as a path under assets/ is still the page: it asks for the token and is never kept.
    expect((await fetch(`${serve.origin}/assets/..%2findex.html`)).status).toBe(401);
    const spelled = await fetch(`${serve.origin}/assets/..%2findex.html?token=${serve.token}`);
    expect(spelled.status).toBe(200);
    expect(spelled.headers.get('cache-control')).toBe('no-store');
  });

  it('never serves a file outside the renderer folder', async () => {
    const res = await fetch(`${serve.origin}/..%2fsecret.txt?token=${serve.token}`);
    expect(res.status).toBe(404);
  });

  it('refuses sockets without the token or from a foreign origin', async () => {
    expect(await socket('')).toEqual({ status: 403 });
    expect(await socket('?token=wrong')).toEqual({ status: 403 });
    expect(await socket(`?token=${serve.token}`, 'http://evil.example')).toEqual({ status: 403 });
  });

  it('carries the contract over the socket: invokes answer, bad calls are refused', async () => {
    const conn = await socket(`?token=${serve.token}`, serve.origin);
    if (conn.status !== 'open') throw new Error(`socket refused: ${conn.status}`);
    const answers: unknown[] = [];
    conn.ws.on('message', (data) => answers.push(JSON.parse(data.toString())));
    conn.ws.send(JSON.stringify({ t: 'invoke', id: 1, channel: 'settings:get', payload: {} }));
    conn.ws.send(JSON.stringify({ t: 'invoke', id: 2, channel: 'shell:run', payload: {} }));
    conn.ws.send(JSON.stringify({ t: 'invoke', id: 3, channel: 'conversations:open', payload: { conversationId: 5 } }));
    await expect.poll(() => answers.length).toBe(3);
    const byId = new Map(answers.map((a) => [(a as { id: number }).id, (a as { result: unknown }).result]));
    expect(byId.get(1)).toMatchObject({ ok: true, value: { ollamaUrl: 'http://127.0.0.1:11434' } });
    expect(byId.get(2)).toMatchObject({ ok: false, error: { code: 'unknown-channel' } });
    expect(byId.get(3)).toMatchObject({ ok: false, error: { code: 'invalid-payload' } });
    conn.ws.close();
  });
});

describe('serve mode started with --host localhost', () => {
  it('accepts a browser that opened it as http://127.0.0.1:PORT (its Origin is the host it came in on)', async () => {
    const other = await startServe({ services, rendererDir: join(dir, 'renderer'), port: 0, host: 'localhost', log: () => {} });
    try {
      const port = new URL(other.url).port;
      const ws = new WebSocket(`ws://127.0.0.1:${port}/ipc?token=${other.token}`, { origin: `http://127.0.0.1:${port}` });
      const status = await new Promise<string | number>((done) => {
        ws.once('open', () => done('open'));
        ws.once('unexpected-response', (_req, res) => done(res.statusCode ?? 0));
        ws.once('error', () => done(-1));
      });
      expect(status).toBe('open');
      ws.close();
      expect((await fetch(`http://127.0.0.1:${port}/?token=${other.token}`)).status).toBe(200);
    } finally {
      await other.close();
    }
  });
});

describe('serve mode listening while its services still load', () => {
  it('serves the page at once, and a socket opened meanwhile loses nothing it sends: its requests wait for them', async () => {
    let provide: (s: Services) => void = () => {};
    const loading = new Promise<Services>((r) => (provide = r));
    const early = await startServe({ services: loading, rendererDir: join(dir, 'renderer'), port: 0, log: () => {} });
    try {
      expect((await fetch(early.url)).status).toBe(200);
      const ws = new WebSocket(`${early.origin.replace('http', 'ws')}/ipc?token=${early.token}`, { origin: early.origin });
      const answers: unknown[] = [];
      ws.on('message', (data) => answers.push(JSON.parse(data.toString())));
      // The socket opens at once (a page's first requests leave while serve mode still loads), and what it sends
      // waits for the services; a page file is still served meanwhile.
      await new Promise((opened) => ws.once('open', opened));
      ws.send(JSON.stringify({ t: 'invoke', id: 1, channel: 'settings:get', payload: {} }));
      ws.send(JSON.stringify({ t: 'invoke', id: 2, channel: 'conversations:list', payload: {} }));
      expect((await fetch(`${early.origin}/assets/app.js`)).status).toBe(200);
      expect(answers).toEqual([]);
      provide(services);
      await expect.poll(() => answers.length).toBe(2);
      expect(answers).toMatchObject([
        { id: 1, result: { ok: true, value: { ollamaUrl: 'http://127.0.0.1:11434' } } },
        { id: 2, result: { ok: true, value: [] } },
      ]);
      ws.close();
    } finally {
      await early.close();
    }
  });
});
