import type { IdentityLayer } from '../../shared/identity-layer';
import type { ContextWindowChoice } from '../../shared/models';
import type { EngineConnection } from './types';

export interface DefaultWindowDeps {
  /** The window an Ollama request carries when no layer names one (src/main/models/context-window.ts). */
  contextWindow?: (connection: EngineConnection, model: string) => Promise<ContextWindowChoice>;
  log: (message: string) => void;
}

/**
 * Ollama and the built-in engine (llama-server's n_ctx is fixed, the others take no window): the kept or recommended window when no
 * layer names one. The answer's steps and the title lane ask the same, so a conversation's requests carry one
 * `num_ctx` and Ollama never reloads the model between them. The resolver never throws; a fallback is logged with
 * its reason, since Ollama would otherwise be the one to decide and it decides silently.
 */
export async function defaultWindow(
  deps: DefaultWindowDeps,
  connection: EngineConnection,
  model: string,
  layers: readonly (IdentityLayer | undefined)[],
): Promise<number | undefined> {
  if ((connection.kind !== 'ollama' && connection.kind !== 'builtin') || !deps.contextWindow || layers.some((l) => l?.contextWindow !== undefined)) return undefined;
  const choice = await deps.contextWindow(connection, model);
  if (choice.source === 'fallback') deps.log(`engine: ${model} gets the default window ${choice.contextWindow ?? '?'}: ${choice.reason ?? 'no reason given'}`);
  return choice.contextWindow ?? undefined;
}
