/**
 * An alias as Ollama sees it: the exact `/api/create` body that materializes it, and the way back from an
 * existing model's `/api/show` to a new alias. Pure.
 *
 * Ollama's create API (docs/api.md, since 0.5.5) takes `from`, `system` and `parameters` as JSON fields
 * instead of a Modelfile. Think mode has no Modelfile parameter (it is per request, `think`), so it stays in
 * the alias and the composer sends it.
 */
import type { AliasInput, AliasParameters, ModelDetails } from '../../shared/models';
import type { CreateBody } from '../models/ollama-admin';

/** The parameters an alias carries, in the order they are written (the body is compared byte for byte). */
export const ALIAS_PARAMETER_KEYS = ['temperature', 'top_p', 'top_k', 'min_p', 'num_predict', 'repeat_penalty', 'seed'] as const satisfies readonly (keyof AliasParameters)[];

export { ALIAS_NAME_PATTERN } from '../../shared/models';

export function createBody(alias: AliasInput): CreateBody {
  const parameters: Record<string, number> = {};
  for (const key of ALIAS_PARAMETER_KEYS) {
    const value = alias.parameters[key];
    if (typeof value === 'number' && Number.isFinite(value)) parameters[key] = value;
  }
  // The alias's window travels as num_ctx so a plain `ollama run <alias>` gets the same context as the app.
  if (alias.contextWindow !== null) parameters.num_ctx = alias.contextWindow;
  return {
    model: alias.name,
    from: alias.model,
    ...(alias.systemPrompt.trim() !== '' ? { system: alias.systemPrompt } : {}),
    ...(Object.keys(parameters).length > 0 ? { parameters } : {}),
    stream: false,
  };
}

/** A new alias started from an existing model's own parameters and system prompt. */
export function aliasFromModel(details: ModelDetails, name: string, connectionId: string): AliasInput {
  const parameters: AliasParameters = {};
  for (const key of ALIAS_PARAMETER_KEYS) {
    const first = details.parameters[key]?.[0];
    if (typeof first === 'number') parameters[key] = first;
  }
  const numCtx = details.parameters.num_ctx?.[0];
  return {
    name,
    connectionId,
    model: details.name,
    systemPrompt: details.system,
    parameters,
    thinkMode: details.capabilities.includes('thinking') ? 'on' : 'off',
    contextWindow: typeof numCtx === 'number' ? numCtx : null,
  };
}
