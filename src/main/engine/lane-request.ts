/**
 * One request of a side lane (the title, a summary): a local request like any other (DESIGN.md §2), assembled by
 * the same Assemble with the conversation's own window and options, recorded like a step (no turn of its own),
 * its output read by the dialect's parser, the one reasoning splitter and the shared reducer. A lane asks for no
 * thinking where the model allows it (a thinking model would spend its budget thinking), and starts its splitter
 * inside a think block the template opens (think-open).
 *
 * A lane may follow its conversation (`conversation`): the request is then the conversation as its own next
 * message would send it (system prompts, history, tools) with the lane's ask as that message. Servers keep one
 * prompt cache per slot (the built-in engine, Ollama, a llama-server with one slot): a lane request that starts
 * like the conversation leaves the conversation in that cache, so the user's next message is read from where the
 * conversation ends instead of from its first token, and the lane itself reads only its ask.
 */
import { connectionName, type ThinkMode } from '../../shared/connections';
import { fitsWindow } from '../../shared/context-estimate';
import type { ToolSchema } from '../dialects/types';
import type { IdentityLayer } from '../../shared/identity-layer';
import { createTurnReducer } from '../../shared/reducer';
import type { Turn } from '../../shared/turn';
import type { ConversationStore } from '../db/conversation-store';
import type { StepStore } from '../db/step-store';
import type { EmitEvent } from '../events';
import { LegError, sendRequest } from '../leg/http';
import { fromConnection, legFailure } from './from-connection';
import { assemble } from './assemble';
import type { Calibration } from './calibration';
import type { CapabilityCache } from './capabilities';
import { defaultWindow, type DefaultWindowDeps } from './default-window';
import { normalizeStream } from './normalize-stream';
import { countPromptTokens } from './server-count';
import { prepareAttachments } from './request-setup';
import { planThink } from './think';
import type { ThinkOpenCache } from './think-open';
import type { AttachmentPreparer, EngineConnection } from './types';

export interface LaneDeps extends DefaultWindowDeps {
  store: ConversationStore;
  steps: StepStore;
  emit: EmitEvent;
  newId: () => string;
  now: () => number;
  capabilities: CapabilityCache;
  thinkOpen: ThinkOpenCache;
  calibration: Calibration;
  attachments?: AttachmentPreparer;
}

export interface LaneRequest {
  connection: EngineConnection;
  model: string;
  /** The conversation's identity layers: only their options and window are kept (not the system prompt). */
  layers: readonly (IdentityLayer | undefined)[];
  /** The one user turn the lane sends (its conversation id names the step record). */
  ask: Turn;
  /**
   * The conversation the ask follows, with the tools its own requests offer: sent as they are, the layers' system
   * prompts included. Absent: the ask alone, with only the layers' options and window.
   */
  conversation?: { branch: readonly Turn[]; tools: ToolSchema[] };
  maxTokens: number;
  signal: AbortSignal;
  /** Check the prompt fits (exactly where the engine counts) before sending; a lane that does not fit says so. */
  checkWindow?: boolean;
}

export type LaneResult =
  | { kind: 'answer'; turn: Turn }
  | { kind: 'too-long'; tokens: number; window: number }
  | { kind: 'failed'; message: string };

/** The window a lane request to this model would carry: the room a lane has to work with. */
export async function laneWindow(deps: LaneDeps, connection: EngineConnection, model: string, layers: readonly (IdentityLayer | undefined)[]): Promise<number | undefined> {
  const caps = await deps.capabilities.get(connection, model);
  const own = [...layers].reverse().find((l) => l?.contextWindow !== undefined)?.contextWindow;
  const window = own ?? (await defaultWindow(deps, connection, model, layers.map((l) => l && optionsOf(l))));
  if (caps.serverContext !== undefined) return Math.min(window ?? caps.serverContext, caps.serverContext);
  return window;
}

export async function laneRequest(deps: LaneDeps, req: LaneRequest): Promise<LaneResult> {
  const { connection, model, signal, ask } = req;
  const caps = await deps.capabilities.get(connection, model);
  const think: ThinkMode | undefined = caps.thinking === true ? 'off' : undefined;
  const layers = req.conversation ? req.layers : req.layers.map((l) => l && optionsOf(l));
  const thinkOpen = caps.thinking === true ? await deps.thinkOpen.get(connection, model, planThink(think, connection.kind, caps).think) : undefined;
  const window = await defaultWindow(deps, connection, model, layers);
  // The conversation's attachments as its own requests sent them (documents read, images scaled).
  if (req.conversation) await prepareAttachments(deps, req.conversation.branch);
  const a = assemble({
    connection, model, layers, caps, calibration: deps.calibration, maxTokens: req.maxTokens, ignoreWindow: true,
    branch: req.conversation ? [...req.conversation.branch, ask] : [ask],
    tools: req.conversation?.tools ?? [],
    ...(deps.attachments ? { materialize: deps.attachments.materialize } : {}),
    ...(think !== undefined ? { think } : {}),
    ...(thinkOpen !== undefined ? { thinkOpen } : {}),
    ...(window !== undefined ? { defaultWindow: window } : {}),
  });
  if (a.kind !== 'send') return { kind: 'failed', message: a.message };
  let promptTokens = a.estimate;
  let opensThink = a.thinkOpen;
  if (connection.preflight) {
    const exact = await connection.preflight(a.body);
    if (exact.kind === 'error') return { kind: 'failed', message: exact.message };
    if (exact.kind === 'refused') {
      const estimate = exact.meta['estimate'];
      return exact.source === 'context-refused' && typeof estimate === 'number' && a.window !== undefined
        ? { kind: 'too-long', tokens: estimate, window: a.window }
        : { kind: 'failed', message: exact.message };
    }
    promptTokens = exact.promptTokens;
    opensThink = exact.thinkOpen;
  } else if (req.checkWindow && connection.kind === 'llama-server') {
    promptTokens = (await countPromptTokens(connection, a.body)) ?? promptTokens;
  }
  // Nothing is sent that is known not to fit (DESIGN.md §2), for a lane as for an answer.
  if (a.window !== undefined && !fitsWindow(promptTokens, a.window)) return { kind: 'too-long', tokens: promptTokens, window: a.window };

  const url = connection.baseUrl.replace(/\/+$/, '') + connection.dialect.chatPath;
  const stepId = deps.newId();
  deps.steps.begin({
    id: stepId, turnId: null, conversationId: ask.conversationId, stepIndex: 0, body: a.body, attachments: a.attachments, dialect: connection.dialect.id, endpoint: url, model,
    ...(a.window !== undefined ? { contextWindow: a.window } : {}), tokenEstimate: promptTokens, now: deps.now(),
  });
  const reducer = createTurnReducer({ ...ask, id: `lane-${stepId}`, role: 'assistant', blocks: [], status: 'streaming' });
  try {
    // The built-in engine has its own leg; every other connection is HTTP.
    const res = connection.send
      ? await connection.send(a.body, signal)
      : await sendRequest({ method: 'POST', url, body: a.body, headers: connection.authHeaders(), signal, stallTimeoutMs: 30_000 });
    if (res.status < 200 || res.status >= 300) {
      const text = await res.text().catch(() => '');
      const message = fromConnection(connectionName(connection), connection.dialect.errorMessage(res.status, text));
      deps.steps.finish(stepId, { wireReason: null, stop: 'error', error: message, now: deps.now() });
      return { kind: 'failed', message };
    }
    for await (const part of normalizeStream(res.body, connection.dialect, { thinkOpen: opensThink })) reducer.apply(part);
  } catch (err) {
    // Named as an answer's failures are (from-connection.ts): "GPU box did not answer in time", not its address.
    const message = signal.aborted
      ? 'Stopped.'
      : err instanceof LegError
        ? legFailure(err, connectionName(connection), connection.baseUrl)
        : fromConnection(connectionName(connection), err instanceof Error ? err.message : String(err));
    deps.steps.finish(stepId, { wireReason: null, stop: signal.aborted ? 'aborted' : 'error', error: message, now: deps.now() });
    return { kind: 'failed', message };
  }
  const turn = reducer.turn;
  deps.steps.finish(stepId, { wireReason: turn.wireReason ?? null, stop: turn.stop ?? 'cut', ...(turn.usage ? { usage: turn.usage } : {}), ...(turn.error ? { error: turn.error } : {}), now: deps.now() });
  if (turn.status === 'error') return { kind: 'failed', message: fromConnection(connectionName(connection), turn.error ?? 'The server reported an error.') };
  return { kind: 'answer', turn };
}

/** What a lane request keeps of a layer: its options and window, not its system prompt or think mode. */
export function optionsOf(layer: IdentityLayer): IdentityLayer {
  const { systemPrompt: _prompt, think: _think, ...options } = layer;
  return options;
}

/**
 * The seed's title-lane peel, display-string formatting only: text up to the LAST close tag is reasoning the
 * splitter could not see as such (a model that thinks without being asked, an open the prompt made), so the title
 * is what follows it. `The user greets me.</think>\n\nGreeting exchange` -> `Greeting exchange`.
 */
export function peelReasoning(text: string): string {
  const end = Math.max(closeEnd(text, '</think>'), closeEnd(text, '</reasoning>'));
  return end < 0 ? text : text.slice(end);
}

function closeEnd(text: string, tag: string): number {
  const at = text.lastIndexOf(tag);
  return at < 0 ? -1 : at + tag.length;
}
