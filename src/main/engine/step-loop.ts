import type { ThinkMode } from '../../shared/connections';
import { estimateTokens, IMAGE_TOKEN_BUDGET, measureTurns } from '../../shared/context-estimate';
import { contextRefusedMeta, contextRefusedText, roomWays, stepLimitText, type ContextRefusedMeta, type RefusalParts } from '../../shared/system-turns';
import { withImagesNotSent } from '../../shared/images-not-sent';
import type { ToolResultBlock, Turn } from '../../shared/turn';
import type { DefaultWindowDeps } from './default-window';
import { fitToolResults } from './fit-tool-results';
import { preflight } from './server-preflight';
import type { Calibration } from './calibration';
import type { CapabilityCache } from './capabilities';
import { turnTimingMeta } from '../../shared/turn-timing';
import { runStep, type ContextOverflow, type StepDeps } from './run-step';
import { assembleInputFor, prepareAttachments, setupRequest } from './request-setup';
import type { ThinkOpenCache } from './think-open';
import { runToolCalls, type ToolRunDeps } from './tool-runner';
import type { AttachmentPreparer, EngineConnection, IdentityLayer } from './types';
import type { ToolRuns } from '../db/tool-runs';

/** Steps one answer may take before the loop gives up (a model stuck calling tools). */
export const DEFAULT_MAX_STEPS = 8;

export interface EngineDeps extends StepDeps, ToolRunDeps {
  capabilities: CapabilityCache;
  thinkOpen: ThinkOpenCache;
  calibration: Calibration;
  resolveAttachment?: (id: string) => Uint8Array | undefined;
  /** Documents read and images scaled before a request is assembled, then materialized (DESIGN.md §9). */
  attachments?: AttachmentPreparer;
  /** The app's default identity layer (the first of the three). */
  appLayer?: IdentityLayer;
  maxSteps?: number;
  /** The window an Ollama request carries when no layer names one (src/main/models/context-window.ts). */
  contextWindow?: DefaultWindowDeps['contextWindow'];
  /** Marks a step while its tools run, so a crash meanwhile is settled at the next start (db/tool-runs.ts). */
  toolRuns?: Pick<ToolRuns, 'begin' | 'end'>;
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
  const maxSteps = deps.maxSteps ?? DEFAULT_MAX_STEPS;
  const done: Turn[] = [];
  const setup = await setupRequest(deps, {
    connection, model, ...(input.alias ? { alias: input.alias } : {}), ...(input.conversation ? { conversation: input.conversation } : {}), ...(input.think !== undefined ? { think: input.think } : {}),
  });
  let turn = input.firstTurn;
  /** The answer's tokens in the steps before this one: the server's count of each, or main's where it sent none. */
  let tokensBefore = 0;
  for (let stepIndex = 0; ; stepIndex++) {
    if (signal.aborted) {
      done.push(finishWithout(deps, turn, 'Stopped.', 'aborted'));
      break;
    }
    const branch = turn.parentId ? deps.store.branch(turn.parentId) : [];
    // MCP servers whose tools were never listed start now (lazily: only when a request would offer them).
    await deps.tools.prepare(signal);
    await prepareAttachments(deps, branch);
    // An engine that counts exactly refuses on its own count; its card still names the largest parts.
    const request = { ...assembleInputFor(deps, setup, branch), ...(connection.preflight ? { largest: 3 } : {}) };
    const a = await preflight(request, { freshCaps: () => deps.capabilities.get(connection, model, { fresh: true }) });
    if (a.kind !== 'send') {
      // A refusal on the window sent nothing: no failed answer to retry, the card says what to do (context audit #4).
      done.push(finishWithout(deps, turn, a.message, 'error', a.kind === 'refused'));
      if (a.kind === 'refused') appendSystem(deps, done.at(-1) ?? turn, a.source, a.message, a.meta);
      break;
    }
    // An exact preflight (the built-in engine counts with the model's tokenizer) replaces the estimate.
    const exact = connection.preflight ? await connection.preflight(a.body) : undefined;
    if (exact && exact.kind !== 'ok') {
      done.push(finishWithout(deps, turn, exact.message, 'error', exact.kind === 'refused' && exact.source === 'context-refused'));
      if (exact.kind === 'refused') {
        const counted = exact.source === 'context-refused' ? contextRefusedMeta(exact.meta) : undefined;
        if (counted && a.largest) {
          // The engine's exact count, with the estimate's parts: what takes the room and the ways on (context audit #1).
          const meta = { ...counted, largest: a.largest, ...(a.parts ? withExactTotal(a.parts, counted) : {}) };
          appendSystem(deps, done.at(-1) ?? turn, exact.source, contextRefusedText(meta), { ...meta });
        } else appendSystem(deps, done.at(-1) ?? turn, exact.source, exact.message, exact.meta);
      }
      break;
    }
    let overflow: ContextOverflow | undefined;
    // What the model was not sent is kept with its answer, which says so whatever model list is read later. Only a
    // request with images says anything (sent, or as notes): without, there is nothing the answer went without.
    if (a.imagesNotSent !== undefined) turn = withImagesNotSent(turn, a.imagesNotSent);
    turn = await runStep(deps, {
      connection, model, turn, stepIndex, signal, body: a.body, attachments: a.attachments, window: a.window,
      estimate: exact?.promptTokens ?? a.estimate, tools: a.tools, thinkOpen: exact?.thinkOpen ?? a.thinkOpen,
      onContextOverflow: (o) => (overflow = o), tokensBefore,
    });
    const outputCount = turn.usage?.outputTokens;
    tokensBefore = outputCount !== undefined ? tokensBefore + outputCount : (turnTimingMeta(turn).tokens ?? tokensBefore);
    if (turn.status !== 'error' && comparable(connection, stepIndex, branch)) deps.calibration.observe(model, a.rawEstimate, turn.usage?.inputTokens, connection.kind !== 'ollama');
    done.push(turn);
    if (overflow) {
      // The server's window is not what we read (restarted with another -c): read it again next time, learn the
      // exact size it counted, and say it the way a preflight refusal says it.
      deps.capabilities.forget(connection.id);
      deps.calibration.observe(model, a.rawEstimate, overflow.promptTokens, true);
      const meta: ContextRefusedMeta = { estimate: overflow.promptTokens, window: overflow.window, model, largest: [], counted: 'server', serverRefused: true };
      appendSystem(deps, turn, 'context-refused', contextRefusedText(meta), { ...meta });
      break;
    }
    if (!hasCallsToAnswer(turn)) break;
    if (stepIndex + 1 >= maxSteps) {
      const meta = { reason: 'step-limit', steps: maxSteps } as const;
      // The calls of this last step never run: answer them as such, so no card claims they were made (issue 13).
      const notRun = notRunResults(turn, `Not run: Firebrand stopped after ${maxSteps} steps.`);
      const toolTurn = append(deps, { parentId: turn.id, conversationId: turn.conversationId, role: 'tool', blocks: notRun, status: 'done' });
      appendSystem(deps, toolTurn, 'error', stepLimitText(meta), meta);
      break;
    }
    deps.toolRuns?.begin(turn.id, deps.now());
    const { results: raw, images, parentId } = await runToolCalls(deps, turn, branch, signal);
    // Results must fit what is left of the window, or the next step would be refused (issue 15); images a tool
    // returned cost their fixed budget first.
    const used = a.estimate + outputTokens(deps, model, turn) + images.length * IMAGE_TOKEN_BUDGET;
    const results = a.window === undefined ? raw : fitToolResults(raw, { window: a.window, used, ratio: deps.calibration.ratio(model) });
    const toolTurn = append(deps, { parentId, conversationId: turn.conversationId, role: 'tool', blocks: [...results, ...images], status: 'done' });
    deps.toolRuns?.end(turn.id);
    if (signal.aborted) break;
    // Labelled as the answer's first turn: an alias by its name and id, so the chat reopens with the alias.
    const aliasId = input.firstTurn.meta['aliasId'];
    turn = append(deps, {
      parentId: toolTurn.id, conversationId: turn.conversationId, role: 'assistant', blocks: [], status: 'streaming', model: input.firstTurn.model ?? model,
      ...(typeof aliasId === 'string' ? { meta: { aliasId } } : {}),
    });
    input.onTurn?.(turn.id);
  }
  deps.emit('conversations:changed', { conversationId: input.firstTurn.conversationId });
  return done;
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
  if (turn.status !== 'done' || turn.stop === 'max_tokens' || turn.stop === 'context_full' || turn.stop === 'truncated') return false;
  return turn.blocks.some((b) => b.type === 'tool_call' && (b.state === 'complete' || b.state === 'invalid'));
}

function notRunResults(turn: Turn, content: string): ToolResultBlock[] {
  return turn.blocks.flatMap((b) =>
    b.type === 'tool_call' && (b.state === 'complete' || b.state === 'invalid') ? [{ type: 'tool_result' as const, toolCallId: b.id, name: b.name, content, isError: true, notRun: true }] : [],
  );
}

/** Ends a step's turn without a request (refused preflight, stop before sending). */
/** A refusal's parts against the engine's exact total: the earlier turns take what the other parts do not. */
function withExactTotal(parts: RefusalParts, m: ContextRefusedMeta): Pick<ContextRefusedMeta, 'parts' | 'ways'> {
  const known = (parts.tools ?? 0) + (parts.system ?? 0) + (parts.message ?? 0) + (parts.files ?? 0);
  const exact: RefusalParts = { ...parts, ...(parts.earlier !== undefined ? { earlier: Math.max(0, m.estimate - known) } : {}) };
  return { parts: exact, ways: roomWays(exact, m.estimate, m.window, true) };
}

/** `refused`: the preflight refused on the window and nothing was sent; the answer is marked so (`isRefusedAnswer`). */
function finishWithout(deps: EngineDeps, turn: Turn, message: string, stop: 'error' | 'aborted', refused = false): Turn {
  const ended: Turn = { ...turn, status: stop, stop, wireReason: null, ...(stop === 'error' ? { error: message } : {}), ...(refused ? { meta: { ...turn.meta, refused: true } } : {}) };
  deps.store.updateTurn(ended);
  deps.emit('chat:turn-saved', { turn: ended });
  return ended;
}

function appendSystem(deps: EngineDeps, parent: Turn, source: string, text: string, meta: Turn['meta']): Turn {
  return append(deps, { parentId: parent.id, conversationId: parent.conversationId, role: 'system', source, meta, blocks: [{ type: 'text', text }], status: 'done' });
}

function append(deps: EngineDeps, fields: Pick<Turn, 'parentId' | 'conversationId' | 'role' | 'blocks' | 'status'> & Partial<Turn>): Turn {
  const turn: Turn = { meta: {}, ...fields, id: deps.newId(), createdAt: deps.now() };
  deps.store.appendRunTurn(turn, deps.now());
  deps.emit('chat:turn-saved', { turn });
  return turn;
}
