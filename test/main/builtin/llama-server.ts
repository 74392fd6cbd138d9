/**
 * The real llama-server (../shared/tools/llama-server/llama-server.gz, or $LLAMA_SERVER) for the comparison of
 * the built-in engine with it: unpacked once into <tmp>, one process per scripted model on a free port, ready when
 * `/health` answers 200. `found.path` is null (with why) where there is no binary: the comparison then skips.
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const GZ = resolve(fileURLToPath(new URL('../../../../shared/tools/llama-server/llama-server.gz', import.meta.url)));

export function llamaServerBinary(): { path: string } | { path: null; why: string } {
  if (process.env.LLAMA_SERVER) return existsSync(process.env.LLAMA_SERVER) ? { path: process.env.LLAMA_SERVER } : { path: null, why: `$LLAMA_SERVER (${process.env.LLAMA_SERVER}) does not exist` };
  if (!existsSync(GZ)) return { path: null, why: `no llama-server: $LLAMA_SERVER is not set and ${GZ} is not there` };
  const path = join(tmpdir(), 'firebrand-builtin-llama-server', 'llama-server');
  if (!existsSync(path)) {
    mkdirSync(join(path, '..'), { recursive: true });
    const partial = `${path}.${process.pid}.partial`;
    writeFileSync(partial, gunzipSync(readFileSync(GZ)));
    chmodSync(partial, 0o755);
    renameSync(partial, path);
  }
  return { path };
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const a = srv.address();
      srv.close(() => done(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

export async function startLlamaServer(binary: string, model: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn(binary, ['-m', model, '--host', '127.0.0.1', '--port', String(port), '--jinja', '-np', '1', '-t', '1', '--no-ui'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  // Ready is a state the server reports; the deadline only catches a server that never loads.
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`llama-server exited before it was ready:\n${err}`);
    if (await fetch(`${url}/health`).then((r) => r.ok, () => false)) return { url, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`llama-server did not get ready:\n${err}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
