/**
 * The first HTTP response main reads (the model list, at start) no longer sets off a ~200 ms TurboFan compile of
 * undici's WebAssembly parser on a background thread, which on a 2-core machine ran beside the window drawing its
 * first screen (bench/start). Each case runs in a fresh Node process that loads the leg's undici, sends requests
 * to a server of its own, and has V8 print each WebAssembly function it compiles (`--trace-wasm-compilation-times`).
 *
 * The test reads what was compiled, never how long anything took: it ran at a 50 ms CPU threshold over a quiet
 * watch, and failed once at a load of 10-14. A tier-up is set off on the main thread while the parser runs and
 * compiled by a job on V8's worker pool. The child has one pool thread (`--v8-pool-size=1`), which runs jobs in the
 * order they were posted, so once the requests are done it sets off a tier-up of a tiny module of its own (the
 * barrier, with tier-up turned back on for it): when the barrier's TurboFan line is printed, any compile the parser
 * set off has been printed before it. The control turns V8's tier-up on before the first request, so the test also
 * shows the compile it avoids happens on this machine, and comes before the barrier's.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const LEG = new URL('../../../src/main/leg/undici.ts', import.meta.url).pathname;

/** Turning --liftoff-only off again leaves tier-up off (setting it turned that off), so all three are named. */
const TIER_UP = '--no-liftoff-only --wasm-tier-up --wasm-dynamic-tiering';

/**
 * (func (export "spin") (param i32) (result i32) (local i32) counts its local up to the parameter in a loop: a few
 * million turns use up V8's tiering budget (1.8 M "bytes executed") and set off its TurboFan compile.
 */
const BARRIER_WASM = [
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version
  0x01, 0x06, 0x01, 0x60, 0x01, 0x7f, 0x01, 0x7f, // type: (i32) -> i32
  0x03, 0x02, 0x01, 0x00, // function 0 has type 0
  0x07, 0x08, 0x01, 0x04, 0x73, 0x70, 0x69, 0x6e, 0x00, 0x00, // export "spin"
  0x0a, 0x19, 0x01, 0x17, 0x01, 0x01, 0x7f, // code: one body of 23 bytes, one i32 local
  0x03, 0x40, 0x20, 0x01, 0x41, 0x01, 0x6a, 0x21, 0x01, 0x20, 0x01, 0x20, 0x00, 0x49, 0x0d, 0x00, 0x0b, // loop
  0x20, 0x01, 0x0b, // local.get 1, end
];

/**
 * Sends the requests through an Agent of its own and closes it (the parser runs at a connection's end too), then
 * turns tier-up back on and spins the barrier until the parent has seen its TurboFan line and closes stdin.
 */
const CHILD = `
const { setFlagsFromString } = await import('node:v8');
const { createServer } = await import('node:http');
const { Agent, request } = await import(${JSON.stringify(LEG)});
const [flag, requests] = process.argv.slice(1);
if (flag !== '-') setFlagsFromString(flag);
setFlagsFromString('--trace-wasm-compilation-times');
const server = createServer((_q, res) => res.end('{"models":[]}'));
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const dispatcher = new Agent();
for (let i = 0; i < Number(requests); i++) {
  const answer = await request('http://127.0.0.1:' + server.address().port + '/api/tags', { dispatcher });
  await answer.body.text();
}
await dispatcher.close();
server.close();
for (const f of ${JSON.stringify(TIER_UP)}.split(' ')) setFlagsFromString(f);
const { instance } = await WebAssembly.instantiate(new Uint8Array(${JSON.stringify(BARRIER_WASM)}));
let stop = false;
process.stdin.on('end', () => (stop = true)).resume();
while (!stop) {
  instance.exports.spin(4_000_000);
  await new Promise((r) => setImmediate(r));
}
`;

interface Compiles {
  /** TurboFan compiles of undici's parser printed before the barrier's. */
  parser: string[];
  /** The trace of the child, for a failure's message. */
  trace: string;
}

const COMPILED = /^Compiled function (0x[0-9a-f]+)#(\d+) using (Liftoff|TurboFan).*; bodysize (\d+) /;
/** The barrier's one function, as the trace names it. */
const isBarrier = (index: string, bodySize: string) => index === '0' && Number(bodySize) === 23;

async function runChild(flag: string, requests: number): Promise<Compiles> {
  const child = spawn(process.execPath, ['--v8-pool-size=1', '--import', 'tsx', '--input-type=module', '-e', CHILD, '--', flag, String(requests)], {
    stdio: ['pipe', 'pipe', 'inherit'],
    // A backstop: killed past any wait the test gives it, so a failing run leaves no process behind.
    timeout: 120_000,
  });
  let barrierModule: string | undefined;
  const parserModules = new Set<string>();
  let barrierDone = false;
  const parser: string[] = [];
  let trace = '';
  let pending = '';
  child.stdout.on('data', (d: Buffer) => {
    trace += d.toString();
    pending += d.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const m = COMPILED.exec(line);
      if (!m || barrierDone) continue;
      const [, module = '', index = '', tier, bodySize = ''] = m;
      if (isBarrier(index, bodySize)) barrierModule = module;
      if (module !== barrierModule) {
        // The parser's functions are compiled as Liftoff code when the requests first call them. Node's CommonJS
        // lexer, compiled before the trace began, may still print TurboFan lines of its own, and no Liftoff ones.
        if (tier === 'Liftoff') parserModules.add(module);
        else if (parserModules.has(module)) parser.push(line);
      } else if (tier === 'TurboFan') {
        barrierDone = true;
        child.stdin.end();
      }
    }
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0 || !barrierDone) throw new Error(`the child ended with ${code} before the barrier compiled:\n${trace}`);
  return { parser, trace };
}

describe('undici’s WebAssembly parser in main', () => {
  it('is not compiled by TurboFan after the first response, nor after 200, as it was with tier-up on', async () => {
    // The parser's hot function (one very large function) tiered up within the first response, before the barrier.
    expect((await runChild(TIER_UP, 1)).parser.length).toBeGreaterThan(0);
    expect((await runChild('-', 1)).parser).toEqual([]);
    // With a larger tiering budget instead, the compile came within a few dozen requests.
    expect((await runChild('-', 200)).parser).toEqual([]);
  }, 240_000);
});
