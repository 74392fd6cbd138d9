/**
 * A server that sends its whole answer and closes the connection before Firebrand reads the body (a download
 * waiting on a slow disk, a reply read a moment later): undici's parser, paused by backpressure on the body's last
 * bytes, gets the socket's end. undici 7 asserted there that it was not paused and threw from the socket's 'end'
 * handler, where no caller can catch it, and the process ended: serve mode or the app's main process gone
 * (nodejs/undici#5360; fixed in undici 8 only, which needs Node 22; patches/undici+7.30.2.patch backports the
 * fix and `npm ci` applies it). The request runs in a process of its own, since the process's end is the failure.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const CHILD = join(import.meta.dirname, '../../support/undici-paused-end-child.ts');

describe('undici: the connection closes while the body waits to be read', () => {
  for (const mode of ['length', 'eof'] as const) {
    it(`delivers the whole body ${mode === 'length' ? 'with a Content-Length' : 'delimited by the close'}, and the process lives on`, () => {
      const run = spawnSync(process.execPath, ['--import', 'tsx', CHILD, mode], { encoding: 'utf8', timeout: 60_000 });
      expect(run.stderr).not.toMatch(/AssertionError|assert\(/);
      expect(run.status).toBe(0);
      expect(run.stdout.trim()).toBe(`200 ${64 * 1024}`);
    });
  }
});
