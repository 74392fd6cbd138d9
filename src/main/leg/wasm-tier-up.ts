/**
 * undici parses HTTP with llhttp compiled to WebAssembly. V8 first runs it as Liftoff code and tiers a function up
 * to TurboFan once it has run enough; llhttp's parser is one very large function, and its default budget (1.8M,
 * "bytes executed") runs out within the first response. Its TurboFan compile then takes ~200 ms of CPU on a
 * background thread, measured with one request in a fresh Node 20 (0 ms with the budget below). In a start that
 * first response is the model list, so on a 2-core machine the compile competes with the window drawing its
 * first screen (bench/start). With this budget the parser tiers up only once it is hot: after some 50-200
 * requests, or within a long download; until then Liftoff parses a 10 MB streamed body at the same CPU cost.
 *
 * Set at run time, before the first request compiles the module: Node and Electron's main process both start V8
 * with `--no-freeze-flags-after-init`, so `setFlagsFromString` may change it; the value only applies to modules
 * compiled afterwards. The flag is process-wide; llhttp is the only WebAssembly main runs.
 */
import { setFlagsFromString } from 'node:v8';

export const WASM_TIERING_BUDGET = 1_000_000_000;

export function deferWasmTierUp(): void {
  setFlagsFromString(`--wasm-tiering-budget=${WASM_TIERING_BUDGET}`);
}
