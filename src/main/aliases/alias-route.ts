/**
 * How a message picked under an alias reaches the engine (issue 6 item 4): the model the server is asked for,
 * the connection, and the alias's identity layer (system prompt → params → think → context window).
 *
 * A materialized alias that is in sync with its Ollama model is sent under its own name: Ollama already holds
 * its system prompt and parameters, so adding them again would say the system prompt twice. Edited since, or
 * gone from the server, it is sent as the underlying model with the whole layer, which is what the user saved.
 */
import type { Alias } from '../../shared/models';
import { DEFAULT_CONNECTION_ID } from '../connections/connection-store';
import type { IdentityLayer } from '../../shared/identity-layer';

/** An identity layer that may also redirect the request: another model name and connection. */
export interface AliasLayer extends IdentityLayer {
  model?: string;
  connectionId?: string;
}

export function aliasRoute(alias: Alias): AliasLayer {
  const connectionId = /^https?:\/\//i.test(alias.connectionId) ? DEFAULT_CONNECTION_ID : alias.connectionId;
  const window = alias.contextWindow !== null ? { contextWindow: alias.contextWindow } : {};
  if (alias.materializedDigest !== null && alias.status === 'in-sync') {
    return { model: alias.name, connectionId, think: alias.thinkMode, ...window };
  }
  const params: Record<string, number> = {};
  for (const [key, value] of Object.entries(alias.parameters)) if (typeof value === 'number' && Number.isFinite(value)) params[key] = value;
  return {
    model: alias.model,
    connectionId,
    think: alias.thinkMode,
    ...(alias.systemPrompt.trim() !== '' ? { systemPrompt: alias.systemPrompt } : {}),
    ...(Object.keys(params).length > 0 ? { params } : {}),
    ...window,
  };
}
