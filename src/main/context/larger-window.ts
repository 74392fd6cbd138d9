/**
 * A larger window, where Firebrand chooses it: Ollama's `num_ctx` kept per model (the `models:set-context` store)
 * and the built-in engine's kept window. Offered up to the model's trained context, with the memory it needs by the
 * recommendation's arithmetic; Ollama runs a window beyond the GPU partly on the CPU (slower), the built-in engine
 * loads nothing known not to fit. llama-server's window is its `-c`, which no request can change: the offer says so.
 */
import { ANSWER_ROOM } from '../../shared/context-estimate';
import type { LargerWindow } from '../../shared/context-ipc';
import { UserFacingError } from '../errors';
import type { WindowCost } from '../models/context-recommendation';
import type { ResolvedTarget, RoomDeps } from './room-target';

const round = (n: number) => Math.ceil(n / 1024) * 1024;
const fmt = (n: number) => n.toLocaleString('en-US');
const gib = (b: number) => `${(b / 1024 ** 3).toFixed(1)} GiB`;

export async function largerWindow(deps: RoomDeps, target: ResolvedTarget, need: number, window: number | undefined): Promise<LargerWindow> {
  const { connection, model } = target;
  const none = (reason: string, action?: string): LargerWindow => ({ kind: 'none', reason, ...(action ? { action } : {}) });
  if (target.aliasWindow !== undefined) return none(`The alias sets this window (${fmt(target.aliasWindow)} tokens); change it in Models.`, 'change the alias’s window in Models');
  if (connection.kind === 'llama-server') {
    const c = round(need + ANSWER_ROOM);
    return none(
      `llama-server’s window is fixed when it starts${window !== undefined ? ` (n_ctx ${fmt(window)})` : ''}: Firebrand cannot change it from here. Restart it with -c ${c} or more.`,
      `restart llama-server with -c ${c}`,
    );
  }
  if (connection.kind !== 'ollama' && connection.kind !== 'builtin') return none('This server sets its own context window; Firebrand cannot change it.');
  const offer = Math.max(round(need + ANSWER_ROOM), (window ?? 0) + 1024);
  let cost: WindowCost;
  try {
    cost = await costOf(deps, target, offer);
  } catch (err) {
    return none(costFailure(err, connection.label, model));
  }
  if (cost.trained === null) return none(`The server does not say how long a context ${model} was trained for, so no larger window is offered blind.`);
  if (offer > cost.trained) return none(`${model} takes at most ${fmt(cost.trained)} tokens; this conversation needs ${fmt(need)} with room for the answer.`);
  let fits: 'yes' | 'slower' | 'unknown' = cost.fitsTokens === null ? 'unknown' : cost.fitsTokens >= offer ? 'yes' : 'slower';
  if (fits === 'slower' && connection.kind === 'builtin') {
    const memory = cost.memoryBytes !== null && cost.usableBytes !== null ? ` (it needs ${gib(cost.memoryBytes)}; ${gib(cost.usableBytes)} is free)` : '';
    return none(`A ${fmt(offer)}-token window does not fit in memory${memory}${cost.fitsTokens ? `; at most ${fmt(cost.fitsTokens)} tokens fit` : ''}.`);
  }
  if (cost.memoryBytes === null) fits = 'unknown';
  return {
    kind: 'offer',
    engine: connection.kind,
    window: offer,
    current: window ?? 0,
    trained: cost.trained,
    memoryBytes: cost.memoryBytes,
    usableBytes: cost.usableBytes,
    fits,
  };
}

/** Keeps `window` for the target's model, after checking it is one the model takes (and, built in, one that fits). */
export async function keepLargerWindow(deps: RoomDeps, target: ResolvedTarget, window: number): Promise<void> {
  const { connection, model } = target;
  if (target.aliasWindow !== undefined) throw new UserFacingError('invalid-payload', 'The alias sets this window; change it in Models.');
  if (connection.kind !== 'ollama' && connection.kind !== 'builtin') throw new UserFacingError('invalid-payload', 'Firebrand cannot change this server’s context window.');
  const cost = await costOf(deps, target, window);
  if (cost.trained !== null && window > cost.trained) throw new UserFacingError('invalid-payload', `${model} takes at most ${fmt(cost.trained)} tokens.`);
  if (connection.kind === 'builtin') {
    if (cost.fitsTokens !== null && cost.fitsTokens < window) throw new UserFacingError('invalid-payload', `A ${fmt(window)}-token window does not fit in memory for ${model}.`);
    deps.windows.keepBuiltin(model, window);
  } else deps.windows.keepOllama(connection.baseUrl, model, window);
}

/**
 * Why no larger window could be worked out, in one plain sentence. It read "No larger window could be worked out:
 * Details of llama3.2:3b: not found on Ollama." (the inner error pasted in, two colons), as the recommendation's
 * reason once did (models/context-window.ts failureReason); the red banner already says a server is down.
 */
export function costFailure(err: unknown, server: string, model: string): string {
  const lead = 'No larger window could be worked out';
  if (err instanceof UserFacingError && err.code === 'server-unreachable') return `${lead} while ${server} does not answer.`;
  if (err instanceof UserFacingError && err.code === 'not-found') return `${lead}: ${server} has no details of ${model}.`;
  const said = (err instanceof Error ? err.message : String(err)).trim();
  if (!said) return `${lead}.`;
  const sentence = said.charAt(0).toUpperCase() + said.slice(1);
  return `${lead}. ${/[.!?]$/.test(sentence) ? sentence : `${sentence}.`}`;
}

function costOf(deps: RoomDeps, target: ResolvedTarget, window: number): Promise<WindowCost> {
  return target.connection.kind === 'builtin' ? deps.windows.builtinCost(target.model, window) : deps.windows.ollamaCost(target.connection.baseUrl, target.model, window);
}
