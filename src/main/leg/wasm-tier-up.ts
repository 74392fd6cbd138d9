/**
 * undici parses HTTP with llhttp compiled to WebAssembly. V8 runs it as Liftoff (baseline) code and by default
 * tiers a function up to TurboFan once it has run enough; llhttp's parser is one very large function, which uses up
 * that budget within the first response, and its TurboFan compile then takes ~200 ms of CPU on a background
 * thread (one request in a fresh Node 20: 190-230 ms; none with this flag). At a start the first response is the
 * model list, so on a 2-core machine that compile ran beside the window drawing its first screen (bench/start);
 * with a larger budget it only moved, into the first long answer. Main keeps the Liftoff code instead: it parses
 * a token stream for ~5 µs more CPU per network read (0.5 % of a core at 1,000 reads a second, measured with one
 * token per read), and a 10 MB body at the same cost.
 *
 * Set at run time, before the first request compiles the module: Node and Electron's main process both start V8
 * with `--no-freeze-flags-after-init`, so `setFlagsFromString` may change it. The flag is process-wide; llhttp is
 * the only WebAssembly main runs.
 */
import { setFlagsFromString } from 'node:v8';

const WASM_FLAG = '--liftoff-only';

export function keepWasmBaseline(): void {
  setFlagsFromString(WASM_FLAG);
}
