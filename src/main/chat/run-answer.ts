/**
 * One answer's run (./chat-service.ts starts it): auto-compact's turn first, then the route (an alias names its own
 * model and connection), the engine's step loop (src/main/engine/step-loop.ts), and after the first answer of a
 * conversation, the title lane.
 */
import type { Turn } from '../../shared/turn';
import { isContinueRequest } from '../../shared/turn';
import { aliasIdOf } from '../../shared/model-ref';
import type { AliasLayer } from '../aliases/alias-route';
import { runLoop } from '../engine/step-loop';
import { thinkModeOf } from '../engine/think';
import { makeTitle } from '../engine/title-lane';
import type { EngineConnection } from '../engine/types';
import { UserFacingError } from '../errors';
import { ToolRegistry } from '../tools/registry';
import type { AnswerOptions, ChatServiceDeps } from './chat-service-deps';

/** An answer to run, as the chat service hands it over. */
export interface AnswerRun {
  /** The empty streaming assistant turn. */
  start: Turn;
  options: AnswerOptions;
  controller: AbortController;
  /** Told each later step's turn: the same Stop stops it. */
  onTurn: (id: string) => void;
  /** Ends the answer's count in its conversation: called when the steps end, before the title lane. */
  answered: () => void;
}

/** Where an answer goes, and the alias's identity fields where it goes through one. */
interface Route {
  connection: EngineConnection;
  model: string;
  isAlias: boolean;
  alias: AliasLayer;
}

/**
 * Runs `run`. `answerConnections` holds the connection of the answer on its way in each conversation while it runs
 * (ChatService.answerConnection).
 */
export async function runAnswer(deps: ChatServiceDeps, answerConnections: Map<string, { connection: EngineConnection }>, run: AnswerRun): Promise<void> {
  const { start, options, controller } = run;
  const { store, emit } = deps;
  const first = deps.beforeAnswer ? await deps.beforeAnswer(start, options, controller.signal) : start;
  // An alias names its own model and connection; the layer keeps only the identity fields.
  const routed: AliasLayer | undefined = deps.alias?.(options.model);
  const { model: aliasModel, connectionId: aliasConnection, ...alias }: AliasLayer = routed ?? {};
  const isAlias = routed !== undefined;
  const model = aliasModel ?? options.model;
  let connection: EngineConnection;
  try {
    // An alias deleted since it was picked: the server would be asked for a model called `alias:<id>`.
    if (!isAlias && aliasIdOf(options.model) !== undefined) throw new UserFacingError('not-found', 'The alias chosen for this message no longer exists: choose another model and send again.');
    connection = deps.connection(aliasConnection ?? options.connectionId);
  } catch (err) {
    const ended: Turn = { ...first, status: 'error', stop: 'error', wireReason: null, error: err instanceof Error ? err.message : String(err) };
    store.updateTurn(ended);
    emit('chat:turn-saved', { turn: ended });
    return;
  }
  const on = { connection };
  answerConnections.set(first.conversationId, on);
  try {
    await runOn(deps, first, run, { connection, model, isAlias, alias });
  } finally {
    // A next answer in this conversation may have started while this one's title was made: that one's stays.
    if (answerConnections.get(first.conversationId) === on) answerConnections.delete(first.conversationId);
    deps.answerEnded?.(connection);
  }
}

async function runOn(deps: ChatServiceDeps, first: Turn, run: AnswerRun, route: Route): Promise<void> {
  const { options, controller, onTurn, answered } = run;
  const { store, emit, newId, now, log } = deps;
  const { connection, model, isAlias, alias } = route;
  const conversation = deps.conversationLayer?.(first.conversationId);
  const think = thinkModeOf(options.think);
  // A conversation with tools off sends none: not the built-in ones, not the MCP servers' (issue 19).
  const tools = deps.conversationTools?.(first.conversationId) === false ? ToolRegistry.none() : deps.engine.tools;
  const turns = await runLoop(
    { ...deps.engine, tools, store, emit, newId, now, log },
    {
      connection,
      model,
      firstTurn: first,
      signal: controller.signal,
      onTurn,
      ...(isAlias ? { alias } : {}),
      ...(conversation ? { conversation } : {}),
      ...(think !== undefined ? { think } : {}),
    },
  );
  // The title lane below is no part of the answer: a next message may go while it runs.
  answered();
  const last = turns.at(-1);
  if (deps.titles === false || !last || last.status !== 'done' || controller.signal.aborted) return;
  const branch = store.branch(last.id);
  // Named after its first exchange only; a Continue of a stopped first answer is still that exchange (chat audit #3).
  if (branch.filter((t) => t.role === 'user' && !isContinueRequest(t)).length !== 1) return;
  const engine = deps.engine;
  await makeTitle(
    { ...engine, store, emit, newId, now, log },
    { connection, model, branch, layers: [engine.appLayer, isAlias ? alias : undefined, conversation], tools: tools.schemas(), signal: controller.signal },
  );
}
