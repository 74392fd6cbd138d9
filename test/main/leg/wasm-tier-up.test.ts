/**
 * The first HTTP response main reads (the model list, at start) no longer sets off a ~200 ms TurboFan compile of
 * undici's WebAssembly parser on a background thread, which on a 2-core machine ran beside the window drawing its
 * first screen (bench/start). Each case runs in a fresh Node process that loads the leg's undici, sends requests
 * to a server of its own and reports the CPU its threads other than the main one have used. The control turns
 * V8's tier-up back on first, so the test also shows the compile it avoids happens on this machine.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const LEG = new URL('../../../src/main/leg/undici.ts', import.meta.url).pathname;
const PROC_STAT = new URL('../../../src/main/workers/proc-stat.ts', import.meta.url).pathname;

/**
 * Prints `done <ms>` once one thread besides the main one has used `enough` ms of CPU since the requests (the
 * compile runs on one of V8's threads, whenever it is let), or `after <ms>` (the most any of them used) when
 * `quietMs` have passed without that. Polls every 100 ms, so the polling itself adds little background work.
 */
const CHILD = `
const { setFlagsFromString } = await import('node:v8');
const { readdirSync } = await import('node:fs');
const { createServer } = await import('node:http');
const { request } = await import(${JSON.stringify(LEG)});
const { procStatFields, STAT } = await import(${JSON.stringify(PROC_STAT)});
const [flag, requests, enough, quietMs] = process.argv.slice(1);
if (flag !== '-') setFlagsFromString(flag);
const otherThreads = () => new Map(readdirSync('/proc/self/task').filter((t) => Number(t) !== process.pid).map((t) => {
  const f = procStatFields('/proc/self/task/' + t + '/stat');
  return [t, f ? (Number(f[STAT.utime]) + Number(f[STAT.stime])) * 10 : 0];
}));
const server = createServer((_q, res) => res.end('{"models":[]}'));
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const before = otherThreads();
for (let i = 0; i < Number(requests); i++) {
  const answer = await request('http://127.0.0.1:' + server.address().port + '/api/tags');
  await answer.body.text();
}
const t0 = performance.now();
for (;;) {
  const most = Math.max(0, ...[...otherThreads()].map(([t, ms]) => ms - (before.get(t) ?? 0)));
  if (most >= Number(enough)) { console.log('done ' + most); break; }
  if (performance.now() - t0 >= Number(quietMs)) { console.log('after ' + most); break; }
  await new Promise((r) => setTimeout(r, 100));
}
server.close();
`;

async function runChild(flag: string, requests: number, enoughMs: number, quietMs: number): Promise<{ verdict: 'done' | 'after'; cpuMs: number; wallMs: number }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD, '--', flag, String(requests), String(enoughMs), String(quietMs)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    // Killed past any wait the test gives it (60 s at most, and its start), so a failing run leaves no process behind.
    timeout: 120_000,
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const m = /^(done|after) (\d+)/m.exec(out);
  if (code !== 0 || !m) throw new Error(`the child ended with ${code}: ${out}`);
  return { verdict: m[1] as 'done' | 'after', cpuMs: Number(m[2]), wallMs: performance.now() - t0 };
}

/**
 * CPU one thread besides the main one must use to count as the compile. The test first asked for 120 ms; on the host
 * of December 6 the compile took 70–90 ms and never reached it, while without tier-up no thread besides the main one
 * used more than 20 ms, after 1 request or 200 (/proc counts in 10 ms ticks).
 */
const COMPILE_MS = 50;

describe.runIf(process.platform === 'linux')('undici’s WebAssembly parser in main', () => {
  it('is not compiled by TurboFan after the first response, nor after 200, as it was with tier-up on', async () => {
    // Turning --liftoff-only off again leaves tier-up off (setting it turned that off), so all three are named.
    // Backstop 60 s: the compile waits for a core on a busy machine.
    const control = await runChild('--no-liftoff-only --wasm-tier-up --wasm-dynamic-tiering', 1, COMPILE_MS, 60_000);
    expect(control.verdict).toBe('done');
    // Each watched for three times as long as the control took to show its compile (3 to 40 s).
    const quietMs = Math.min(40_000, Math.max(3000, 3 * control.wallMs));
    expect(await runChild('-', 1, COMPILE_MS, quietMs)).toMatchObject({ verdict: 'after' });
    // With a larger tiering budget instead, the compile came within a few dozen requests.
    expect(await runChild('-', 200, COMPILE_MS, quietMs)).toMatchObject({ verdict: 'after' });
  }, 240_000);
});
