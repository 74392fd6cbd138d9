/**
 * An alias of a built-in GGUF may not ask for more than the model was trained for (builtin audit #5). `bigwin` on
 * long.gguf (trained for 32,768) was saved with 1,000,000 tokens, and the engine allocated them (2.2 GiB for a
 * 2.5 MiB model), while the Models row refuses a window past the trained context for the model itself
 * (../models/kept-window.ts). The same limit, in the same words, at save; an alias saved before is clamped where
 * the request is assembled (../engine/assemble.ts). Other servers' aliases are not refused: their trained context
 * is not known here, and Ollama's own window (num_ctx) is refused on the Models row where it is.
 */
import { BUILTIN_CONNECTION_ID } from '../../shared/connections';
import type { AliasInput } from '../../shared/models';
import { refuseBeyondTrained } from '../models/kept-window';

/** `trainedOf`: a built-in file's trained context, null where it is not known (the file gone, or it does not say). */
export async function refuseAliasBeyondTrained(alias: AliasInput, trainedOf: (file: string) => Promise<number | null>): Promise<void> {
  if (alias.connectionId !== BUILTIN_CONNECTION_ID || alias.contextWindow === null) return;
  refuseBeyondTrained(alias.model, alias.contextWindow, await trainedOf(alias.model));
}
