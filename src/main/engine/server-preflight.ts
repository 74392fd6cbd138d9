/**
 * The preflight against llama-server (issue 13): the window is checked with the server's exact count when it
 * answers, and a refusal is only ever made on a window read just now (the server may have been restarted with
 * another `-c` since the last read). Other connections keep the calibrated estimate of `assemble`.
 */
import { fitsWindow } from '../../shared/context-estimate';
import { assemble, type Assembled, type AssembleInput } from './assemble';
import { countPromptTokens } from './server-count';
import type { ModelCapabilities } from './types';

export interface PreflightDeps {
  /** The server's capabilities read now, not from the cache. */
  freshCaps: () => Promise<ModelCapabilities>;
  count?: typeof countPromptTokens;
}

export async function preflight(input: AssembleInput, deps: PreflightDeps): Promise<Assembled> {
  // A connection that counts exactly itself (the built-in engine, right after this in the step loop) decides on
  // that count, never on the estimate: an estimate refusal would stop a prompt that fits.
  if (input.connection.preflight) return assemble({ ...input, ignoreWindow: true });
  const first = assemble(input);
  if (input.connection.kind !== 'llama-server' || first.kind === 'no-vision') return first;
  const count = deps.count ?? countPromptTokens;
  let built = first.kind === 'send' ? first : assemble({ ...input, ignoreWindow: true });
  if (built.kind !== 'send') return first;
  const counted = await count(input.connection, built.body);
  let current = input;
  const over = (a: Extract<Assembled, { kind: 'send' }>, size: number) => !fitsWindow(size, a.window);
  if (over(built, counted ?? built.estimate)) {
    // About to refuse: make sure it is against the window the server has now.
    current = { ...input, caps: await deps.freshCaps() };
    const rebuilt = assemble({ ...current, ignoreWindow: true });
    if (rebuilt.kind !== 'send') return rebuilt;
    built = rebuilt;
  }
  if (counted === undefined) return assemble(current);
  input.calibration.observe(input.model, built.rawEstimate, counted, true);
  return over(built, counted) ? assemble({ ...current, counted }) : { ...built, estimate: counted };
}
