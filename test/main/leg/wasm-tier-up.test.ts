/**
 * The first HTTP response main reads (the model list, at start) no longer sets off a ~200 ms TurboFan compile of
 * undici's WebAssembly parser on a background thread, which on a 2-core machine ran beside the window drawing its
 * first screen (bench/start). Each case runs in a fresh Node process that loads the leg's undici, sends one request
 * to a server of its own and reports the CPU its threads other than the main one have used. The control resets the
 * budget to V8's default first, so the test also shows the compile it avoids happens on this machine.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const LEG = new URL('../../../src/main/leg/undici.ts', import.meta.url).pathname;
const PROC_STAT = new URL('../../../src/main/workers/proc-stat.ts', import.meta.url).pathname;
/** Node 20's own budget (`node --v8-options`), which undici's parser uses up within one response. */
const V8_DEFAULT_BUDGET = 1_800_000;

/**
 * Prints `done <ms>` once the threads besides the main one have used `enough` ms of CPU, or `after <ms>` when
 * `quietMs` have passed without that. Polls every 20 ms: the compile runs on V8's own thread, whenever it is let.
 */
const CHILD = `
const { setFlagsFromString } = await import('node:v8');
const { readdirSync } = await import('node:fs');
const { createServer } = await import('node:http');
const { request } = await import(${JSON.stringify(LEG)});
const { procStatFields, STAT } = await import(${JSON.stringify(PROC_STAT)});
const [resetBudget, enough, quietMs] = process.argv.slice(1);
if (resetBudget !== '-') setFlagsFromString('--wasm-tiering-budget=' + resetBudget);
const otherThreadsCpu = () => readdirSync('/proc/self/task').filter((t) => Number(t) !== process.pid).reduce((sum, t) => {
  const f = procStatFields('/proc/self/task/' + t + '/stat');
  return sum + (f ? (Number(f[STAT.utime]) + Number(f[STAT.stime])) * 10 : 0);
}, 0);
const server = createServer((_q, res) => res.end('{"models":[]}'));
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const before = otherThreadsCpu();
const answer = await request('http://127.0.0.1:' + server.address().port + '/api/tags');
await answer.body.text();
const t0 = performance.now();
for (;;) {
  const used = otherThreadsCpu() - before;
  if (used >= Number(enough)) { console.log('done ' + used); break; }
  if (performance.now() - t0 >= Number(quietMs)) { console.log('after ' + used); break; }
  await new Promise((r) => setTimeout(r, 20));
}
server.close();
`;

async function runChild(resetBudget: number | '-', enoughMs: number, quietMs: number): Promise<{ verdict: 'done' | 'after'; cpuMs: number; wallMs: number }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD, String(resetBudget), String(enoughMs), String(quietMs)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const m = /^(done|after) (\d+)/m.exec(out);
  if (code !== 0 || !m) throw new Error(`the child ended with ${code}: ${out}`);
  return { verdict: m[1] as 'done' | 'after', cpuMs: Number(m[2]), wallMs: performance.now() - t0 };
}

describe.runIf(process.platform === 'linux')('undici’s WebAssembly parser in main', () => {
  it('is not compiled by TurboFan after the first response, which it was with V8’s default budget', async () => {
    // Backstop 60 s: the compile waits for a core on a busy machine.
    const control = await runChild(V8_DEFAULT_BUDGET, 100, 60_000);
    expect(control.verdict).toBe('done');
    // Watched for three times as long as the control took to show its compile (at least 3 s).
    const deferred = await runChild('-', 100, Math.max(3000, 3 * control.wallMs));
    expect(deferred).toMatchObject({ verdict: 'after' });
    expect(deferred.cpuMs).toBeLessThan(60);
  }, 180_000);
});
