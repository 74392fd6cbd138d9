/**
 * `models:context-window`: the window the next message to a model (or alias) will carry, and where it came from,
 * worked out the way the engine does it (step-loop `windowFor` + assemble), so the composer's meter shows what is
 * really sent.
 */
import type { ContextWindowChoice } from '../../shared/models';
import type { AliasLayer } from '../aliases/alias-route';
import type { CapabilityCache } from '../engine/capabilities';
import type { EngineConnection } from '../engine/types';
import type { ContextWindowResolver } from './context-window';

const fmt = (n: number) => n.toLocaleString('en-US');

export interface EffectiveWindowDeps {
  alias: (name: string) => AliasLayer | undefined;
  connection: (id?: string) => EngineConnection;
  capabilities: Pick<CapabilityCache, 'get' | 'lastKnown'>;
  resolver: ContextWindowResolver;
  /** Tokens per estimated token learned per model (the engine's calibration). */
  estimateRatio?: (model: string) => number;
  /** The built-in engine's window for a model file (it allocates what Firebrand chooses). */
  builtinWindow?: (file: string) => Promise<ContextWindowChoice>;
}

export async function effectiveWindow(req: { model: string; connectionId?: string; wait?: boolean }, deps: EffectiveWindowDeps): Promise<ContextWindowChoice> {
  const choice = await windowChoice(req, deps);
  const route = deps.alias(req.model);
  const ratio = deps.estimateRatio?.(route?.model ?? req.model);
  return ratio !== undefined && ratio !== 1 ? { ...choice, estimateRatio: ratio } : choice;
}

async function windowChoice(req: { model: string; connectionId?: string; wait?: boolean }, deps: EffectiveWindowDeps): Promise<ContextWindowChoice> {
  const route = deps.alias(req.model);
  const connection = deps.connection(route?.connectionId ?? req.connectionId);
  const model = route?.model ?? req.model;
  if (connection.kind === 'llama-server') {
    // n_ctx is fixed when llama-server starts: nothing a request says changes it.
    const caps = await deps.capabilities.get(connection, model);
    if (caps.serverContext !== undefined) {
      const window = Math.min(route?.contextWindow ?? caps.serverContext, caps.serverContext);
      return { contextWindow: window, source: window === caps.serverContext ? 'server' : 'alias', reason: `llama-server was started with n_ctx ${caps.serverContext}.` };
    }
    // Not reached now (down, or restarting): the window it was started with when last reached, said as such.
    const last = deps.capabilities.lastKnown(connection, model)?.serverContext;
    if (last !== undefined) {
      const window = Math.min(route?.contextWindow ?? last, last);
      return { contextWindow: window, source: window === last ? 'server' : 'alias', reason: `llama-server did not answer just now; it was started with n_ctx ${last} when last reached.` };
    }
    return { contextWindow: null, source: 'unknown', reason: 'llama-server did not report its n_ctx (/props).' };
  }
  if (route?.contextWindow !== undefined) {
    // As the request is assembled (../engine/assemble.ts): an alias of a GGUF runs with at most its trained context.
    const trained = connection.kind === 'builtin' ? (await deps.capabilities.get(connection, model)).trainedContext : undefined;
    if (trained !== undefined && route.contextWindow > trained) {
      return { contextWindow: trained, source: 'alias', reason: `The alias asks for ${fmt(route.contextWindow)} tokens, but ${model} was trained for ${fmt(trained)}: it runs with ${fmt(trained)}.` };
    }
    return { contextWindow: route.contextWindow, source: 'alias', reason: null };
  }
  if (connection.kind === 'builtin' && deps.builtinWindow) return deps.builtinWindow(model);
  if (connection.kind === 'ollama') return deps.resolver.resolve(connection.baseUrl, model, { wait: req.wait === true });
  return { contextWindow: null, source: 'unknown', reason: 'This server sets the context window itself.' };
}
