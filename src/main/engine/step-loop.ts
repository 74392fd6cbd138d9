import type { ThinkMode } from '../../shared/connections';
import type { ContextWindowChoice } from '../../shared/models';
import type { Turn } from '../../shared/turn';
import { estimateTokens, measureTurns } from '../../shared/context-estimate';
import { assemble } from './assemble';
import { fitToolResults } from './fit-tool-results';
import type { Calibration } from './calibration';
import type { CapabilityCache } from './capabilities';
import { runStep, type StepDeps } from './run-step';
import { planThink } from './think';
import type { ThinkOpenCache } from './think-open';
import { runToolCalls, type ToolRunDeps } from './tool-runner';
import type { EngineConnection, IdentityLayer } from './types';

/** Steps one answer may take before the loop gives up (a model stuck calling tools). */
export const DEFAULT_MAX_STEPS = 8;

export interface EngineDeps extends StepDeps, ToolRunDeps {
  capabilities: CapabilityCache;
  thinkOpen: ThinkOpenCache;
  calibration: Calibration;
  resolveAttachment?: (id: string) => Uint8Array | undefined;
  /** The app's default identity layer (the first of the three). */
  appLayer?: IdentityLayer;
  maxSteps?: number;
  /** The window an Ollama request carries when no layer names one (src/main/models/context-window.ts). */
  contextWindow?: (connection: EngineConnection, model: string) => Promise<ContextWindowChoice>;
}

export interface LoopInput {
  connection: EngineConnection;
  model: string;
  /** The first step's assistant turn: stored, `streaming`, its parent the turn being answered. */
  firstTurn: Turn;
  alias?: IdentityLayer;
  conversation?: IdentityLayer;
  think?: ThinkMode;
  signal: AbortSignal;
  /** Called with each new assistant turn the loop creates, so a stop aimed at it reaches this run. */
  onTurn?: (turnId: string) => void;
}

/**
 * The orchestrator (DESIGN.md §2): `while (true) { step }`. Each step writes its own assistant turn; tool
 * results go in a `tool` turn below it, and the next step's answer below that:
 * user -> assistant(step 1, tool_call) -> tool(results) -> assistant(step 2). It ends when a step has no calls to
 * answer, on error, cut, abort, max_tokens or truncation, on a refused preflight, or at the step limit.
 * Returns every assistant turn it finished, in order.
 */
export async function runLoop(deps: EngineDeps, input: LoopInput): Promise<Turn[]> {
  const { connection, model, signal } = input;
  const layers = [deps.appLayer, input.alias, input.conversation];
  const maxSteps = deps.maxSteps ?? DEFAULT_MAX_STEPS;
  const done: Turn[] = [];
  const caps = await deps.capabilities.get(connection, model);
  const thinkMode = [input.think, input.conversation?.think, input.alias?.think].find((m) => m !== undefined);
  const plan = planThink(thinkMode, connection.kind, caps);
  const thinkOpen = caps.thinking === true ? await deps.thinkOpen.get(connection, model, plan.think) : undefined;
  const defaultWindow = await windowFor(deps, connection, model, layers);
  let turn = input.firstTurn;
  for (let stepIndex = 0; ; stepIndex++) {
    if (signal.aborted) {
      done.push(finishWithout(deps, turn, 'Stopped.', 'aborted'));
      break;
    }
    const branch = turn.parentId ? deps.store.branch(turn.parentId) : [];
    const a = assemble({
      connection, model, branch, layers, caps, calibration: deps.calibration, tools: deps.tools.schemas(),
      ...(thinkMode !== undefined ? { think: thinkMode } : {}),
      ...(deps.resolveAttachment ? { resolveAttachment: deps.resolveAttachment } : {}),
      ...(thinkOpen !== undefined ? { thinkOpen } : {}),
      ...(defaultWindow !== undefined ? { defaultWindow } : {}),
    });
    if (a.kind !== 'send') {
      done.push(finishWithout(deps, turn, a.message, 'error'));
      if (a.kind === 'refused') appendSystem(deps, done.at(-1) ?? turn, a.source, a.message, a.meta);
      break;
    }
    turn = await runStep(deps, {
      connection, model, turn, stepIndex, signal, body: a.body, attachments: a.attachments, window: a.window,
      estimate: a.estimate, tools: a.tools, thinkOpen: a.thinkOpen,
    });
    if (turn.status !== 'error' && comparable(connection, stepIndex, branch)) deps.calibration.observe(model, a.rawEstimate, turn.usage?.inputTokens);
    done.push(turn);
    if (!hasCallsToAnswer(turn)) break;
    if (stepIndex + 1 >= maxSteps) {
      const text = `Stopped after ${maxSteps} steps: the model kept calling tools. Ask again, or narrow the question.`;
      appendSystem(deps, turn, 'error', text, { reason: 'step-limit', steps: maxSteps });
      break;
    }
    const { results: raw, parentId } = await runToolCalls(deps, turn, branch, signal);
    // Results must fit what is left of the window, or the next step would be refused (issue 15).
    const results = a.window === undefined ? raw : fitToolResults(raw, { window: a.window, used: a.estimate + outputTokens(deps, model, turn), ratio: deps.calibration.ratio(model) });
    const toolTurn = append(deps, { parentId, conversationId: turn.conversationId, role: 'tool', blocks: results, status: 'done' });
    if (signal.aborted) break;
    turn = append(deps, { parentId: toolTurn.id, conversationId: turn.conversationId, role: 'assistant', blocks: [], status: 'streaming', model });
    input.onTurn?.(turn.id);
  }
  deps.emit('conversations:changed', { conversationId: input.firstTurn.conversationId });
  return done;
}

/**
 * Ollama only (llama-server's n_ctx is fixed, the others take no window): the kept or recommended window when no
 * layer names one. The resolver never throws; a fallback is logged with its reason, since Ollama would
 * otherwise be the one to decide and it decides silently.
 */
async function windowFor(deps: EngineDeps, connection: EngineConnection, model: string, layers: readonly (IdentityLayer | undefined)[]): Promise<number | undefined> {
  if (connection.kind !== 'ollama' || !deps.contextWindow || layers.some((l) => l?.contextWindow !== undefined)) return undefined;
  const choice = await deps.contextWindow(connection, model);
  if (choice.source === 'fallback') deps.log(`engine: ${model} gets the default window ${choice.contextWindow ?? '?'}: ${choice.reason ?? 'no reason given'}`);
  return choice.contextWindow ?? undefined;
}

/**
 * Whether the server's prompt count covers the whole request. Ollama's `prompt_eval_count` leaves out the
 * prefix it reused from its KV cache, so only a conversation's first request (nothing to reuse) is a fair
 * sample there; llama-server's `usage.prompt_tokens` and Anthropic's `input_tokens` count everything.
 */
function comparable(connection: EngineConnection, stepIndex: number, branch: readonly Turn[]): boolean {
  if (connection.kind !== 'ollama') return true;
  return stepIndex === 0 && branch.filter((t) => t.role === 'user').length === 1;
}

/** What the step's own answer (its text and calls) adds to the next request, calibrated. */
function outputTokens(deps: EngineDeps, model: string, turn: Turn): number {
  return deps.calibration.apply(model, estimateTokens(measureTurns([turn])));
}

/** Calls the model is owed answers for: complete or invalid ones, in a step that ended cleanly. */
function hasCallsToAnswer(turn: Turn): boolean {
  if (turn.status !== 'done' || turn.stop === 'max_tokens' || turn.stop === 'truncated') return false;
  return turn.blocks.some((b) => b.type === 'tool_call' && (b.state === 'complete' || b.state === 'invalid'));
}

/** Ends a step's turn without a request (refused preflight, stop before sending). */
function finishWithout(deps: EngineDeps, turn: Turn, message: string, stop: 'error' | 'aborted'): Turn {
  const ended: Turn = { ...turn, status: stop, stop, wireReason: null, ...(stop === 'error' ? { error: message } : {}) };
  deps.store.updateTurn(ended);
  deps.emit('chat:turn-saved', { turn: ended });
  return ended;
}

function appendSystem(deps: EngineDeps, parent: Turn, source: string, text: string, meta: Turn['meta']): Turn {
  return append(deps, { parentId: parent.id, conversationId: parent.conversationId, role: 'system', source, meta, blocks: [{ type: 'text', text }], status: 'done' });
}

function append(deps: EngineDeps, fields: Pick<Turn, 'parentId' | 'conversationId' | 'role' | 'blocks' | 'status'> & Partial<Turn>): Turn {
  const turn: Turn = { meta: {}, ...fields, id: deps.newId(), createdAt: deps.now() };
  deps.store.appendTurn(turn, deps.now());
  deps.emit('chat:turn-saved', { turn });
  return turn;
}
