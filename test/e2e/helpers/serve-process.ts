import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

export interface ServeProcess {
  url: string;
  origin: string;
  token: string;
  child: ChildProcess;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

const ROOT = resolve(import.meta.dirname, '../../..');

/** Starts the built serve mode (`out/main/serve.js`) as its own process, as a user would. */
export async function startServeProcess(opts: { dataDir: string; ollamaUrl?: string; extraArgs?: string[]; env?: NodeJS.ProcessEnv }): Promise<ServeProcess> {
  const args = [resolve(ROOT, 'out/main/serve.js'), '--port', '0', '--data-dir', opts.dataDir];
  if (opts.ollamaUrl) args.push('--ollama', opts.ollamaUrl);
  args.push(...(opts.extraArgs ?? []));
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], ...(opts.env ? { env: { ...process.env, ...opts.env } } : {}) });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const url = await new Promise<string>((resolvePromise, reject) => {
    // A backstop against a serve process that never prints its address; starting takes seconds on a busy machine.
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${out}`)), 120_000);
    const check = () => {
      const m = /serving at (http:\/\/\S+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolvePromise(m[1]);
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${out}`));
    });
  });
  const parsed = new URL(url);
  return {
    url,
    origin: parsed.origin,
    token: parsed.searchParams.get('token') ?? '',
    child,
    output: () => out,
    stop: (signal = 'SIGTERM') =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', () => done());
        child.kill(signal);
      }),
  };
}
