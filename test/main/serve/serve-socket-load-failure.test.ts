/**
 * Serve mode loads its socket side after it listens (bench/start). If that load fails, the process stays up,
 * the log says why no page can reach main, and a socket asked for is closed instead of left hanging.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import type { Services } from '../../../src/main/services';

let dir: string | undefined;
afterEach(() => {
  vi.doUnmock('../../../src/main/serve/serve-socket');
  vi.resetModules();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('keeps serving, logs why, and closes a socket when the socket side does not load', async () => {
  vi.resetModules();
  vi.doMock('../../../src/main/serve/serve-socket', () => {
    throw new Error('serve-socket is missing from the build');
  });
  const { startServe } = await import('../../../src/main/serve/serve-server');
  dir = mkdtempSync(join(tmpdir(), 'firebrand-serve-fail-'));
  mkdirSync(join(dir, 'renderer'));
  writeFileSync(join(dir, 'renderer', 'index.html'), '<!doctype html><title>Firebrand</title>');
  const lines: string[] = [];
  // The services are never needed: nothing reaches them without the socket side.
  const serve = await startServe({ services: new Promise<Services>(() => {}), rendererDir: join(dir, 'renderer'), port: 0, log: (l) => lines.push(l) });
  try {
    await expect.poll(() => lines.join('\n')).toContain('the socket side did not load, so no page can reach main: ');
    expect((await fetch(serve.url)).status).toBe(200);
    const outcome = await new Promise<string>((resolve) => {
      const ws = new WebSocket(`${serve.origin.replace('http', 'ws')}/ipc?token=${serve.token}`, { origin: serve.origin });
      ws.once('open', () => resolve('open'));
      ws.once('error', () => resolve('closed'));
      ws.once('close', () => resolve('closed'));
    });
    expect(outcome).toBe('closed');
  } finally {
    await serve.close();
  }
});
