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

  it('serves the renderer with the token, with a strict CSP, and a cookie for the assets', async () => {
    const res = await fetch(serve.url);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('unsafe-eval');
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect((await fetch(`${serve.origin}/index.html`, { headers: { cookie } })).status).toBe(200);
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
