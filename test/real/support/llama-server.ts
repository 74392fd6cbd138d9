/**
 * A real llama.cpp `llama-server` for the real-server tier: found at $LLAMA_SERVER, else unpacked once from the
 * workspace's shared/tools/llama-server/llama-server.gz into a cache folder. Each server runs one scripted model on
 * a free 127.0.0.1 port and is ready when `/health` answers 200 (state, not time).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';

const ROOT = resolve(import.meta.dirname, '../../..');
/** Where the development workspace (and CI) keeps the shared tools: beside the repository. */
export const SHARED_GZ = resolve(ROOT, '../shared/tools/llama-server/llama-server.gz');

export type BinaryLookup = { path: string; from: string } | { path: null; why: string };

/** $LLAMA_SERVER (a user's own build), else the workspace's gzip unpacked to <tmp>; else why there is none. */
export function findLlamaServer(): BinaryLookup {
  const own = process.env.LLAMA_SERVER;
  if (own) {
    return existsSync(own) ? { path: own, from: '$LLAMA_SERVER' } : { path: null, why: `$LLAMA_SERVER is set to ${own}, which does not exist` };
  }
  if (!existsSync(SHARED_GZ)) return { path: null, why: `no llama-server: $LLAMA_SERVER is not set and ${SHARED_GZ} is not there` };
  const gz = readFileSync(SHARED_GZ);
  const digest = createHash('sha256').update(gz).digest('hex').slice(0, 16);
  const dir = join(tmpdir(), 'firebrand-llama-server', digest);
  const path = join(dir, 'llama-server');
  if (!existsSync(path)) {
    mkdirSync(dir, { recursive: true });
    const partial = `${path}.${process.pid}.partial`;
    writeFileSync(partial, gunzipSync(gz));
    chmodSync(partial, 0o755);
    renameSync(partial, path);
  }
  return { path, from: SHARED_GZ };
}

export interface LlamaServerOptions {
  model: string;
  /** `--reasoning-format`; default `deepseek` (reasoning in `reasoning_content`). */
  reasoningFormat?: 'deepseek' | 'none' | 'auto';
  /** `-c`: the context size; default the model's trained context. */
  ctx?: number;
  /** The name `/v1/models` lists (`--alias`). */
  alias?: string;
  /** Reuse a port (a restart keeps the address the app was given). */
  port?: number;
  /** `-t`: generation threads (default 2). */
  threads?: number;
  /**
   * `--cache-ram` in MiB: 0 turns off the host-memory prompt cache (builds since late 2025 keep a slot's earlier
   * prompts there and restore the best match), so the one slot holds only the last prompt, as older builds did.
   */
  cacheRam?: number;
}

export interface LlamaServer {
  url: string;
  port: number;
  options: LlamaServerOptions;
  /** Everything the server printed (for failure messages). */
  output(): string;
  /** Ends the process: SIGTERM for a clean stop, SIGKILL for a crash. Resolves once it has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Stops and starts again on the same port with changed options (another `-c`, another model). */
  restart(change: Partial<LlamaServerOptions>): Promise<LlamaServer>;
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolvePort(port));
    });
  });
}

function binary(): string {
  const found = findLlamaServer();
  if (found.path === null) throw new Error(`real tier: ${found.why}`);
  return found.path;
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Starts llama-server and resolves once `/health` says the model is loaded. */
export async function startLlamaServer(options: LlamaServerOptions): Promise<LlamaServer> {
  const port = options.port ?? (await freePort());
  const args = ['-m', options.model, '--host', '127.0.0.1', '--port', String(port), '--jinja', '-np', '1', '-t', String(options.threads ?? 2), '--temp', '0', '--no-ui'];
  args.push('--reasoning-format', options.reasoningFormat ?? 'deepseek');
  if (options.ctx !== undefined) args.push('-c', String(options.ctx));
  if (options.alias) args.push('--alias', options.alias);
  if (options.cacheRam !== undefined) args.push('--cache-ram', String(options.cacheRam));
  const child = spawn(binary(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const stop = (signal: NodeJS.Signals = 'SIGTERM') =>
    new Promise<void>((done) => {
      if (exited(child)) return done();
      // A server asked to stop while a request is still being served may wait on it for good (a clean-clone CI run
      // hung 120 s in a restart between two UI tests, and the next test then met the old model): after a backstop
      // long enough for any clean stop, it is killed, which is what ends a hung server for a user too.
      const backstop = signal === 'SIGKILL' ? undefined : setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.once('exit', () => {
        if (backstop) clearTimeout(backstop);
        done();
      });
      child.kill(signal);
    });
  // Ready is a state the server reports; the deadline is only a backstop for a server that never loads.
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited(child)) throw new Error(`llama-server exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${out.slice(-3000)}`);
    // Each ask has its own backstop: a server that took the connection but never answers would otherwise hold this
    // loop past its deadline (fetch waits minutes for headers).
    const ok = await fetch(`${url}/health`, { signal: AbortSignal.timeout(5_000) }).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) {
      await stop('SIGKILL');
      throw new Error(`llama-server did not report ready on ${url}:\n${out.slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const server: LlamaServer = {
    url,
    port,
    options,
    output: () => out,
    stop,
    restart: async (change) => {
      await stop();
      return startLlamaServer({ ...options, ...change, port });
    },
  };
  return server;
}

/** Stops every server given (those not started are skipped), for afterAll. */
export async function stopAll(servers: readonly (LlamaServer | undefined)[]): Promise<void> {
  await Promise.all(servers.map((s) => s?.stop()));
}
