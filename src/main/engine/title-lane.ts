import { finalAssistantText, lastAssistantText } from '../../shared/assistant-text';
import type { ThinkMode } from '../../shared/connections';
import type { IdentityLayer } from '../../shared/identity-layer';
import { createTurnReducer } from '../../shared/reducer';
import { isBlank, turnText, type Turn } from '../../shared/turn';
import type { ConversationStore } from '../db/conversation-store';
import type { StepStore } from '../db/step-store';
import type { EmitEvent } from '../events';
import { sendRequest } from '../leg/http';
import { assemble } from './assemble';
import type { Calibration } from './calibration';
import type { CapabilityCache } from './capabilities';
import { defaultWindow, type DefaultWindowDeps } from './default-window';
import { normalizeStream } from './normalize-stream';
import { planThink } from './think';
import type { ThinkOpenCache } from './think-open';
import type { EngineConnection } from './types';

export const TITLE_PROMPT =
  'Write a title of at most six words for the conversation below. Answer with the title only: no quotes, no punctuation at the end.';
const TITLE_MAX_CHARS = 60;
const TITLE_MAX_WORDS = 10;
const TITLE_MAX_TOKENS = 200;

export interface TitleDeps extends DefaultWindowDeps {
  store: ConversationStore;
  steps: StepStore;
  emit: EmitEvent;
  newId: () => string;
  now: () => number;
  capabilities: CapabilityCache;
  thinkOpen: ThinkOpenCache;
  calibration: Calibration;
}

export interface TitleInput {
  connection: EngineConnection;
  model: string;
  branch: readonly Turn[];
  /** The conversation's identity layers (app, alias, conversation), as its answer used them. */
  layers: readonly (IdentityLayer | undefined)[];
  signal: AbortSignal;
}

/** The user's first words: the fallback title, and the title a conversation starts with. */
export function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > TITLE_MAX_CHARS ? `${line.slice(0, TITLE_MAX_CHARS - 3)}...` : line || 'New chat';
}

/**
 * The title lane (issue 5, made faithful in issue 16): after the first answer, one short request asks the model
 * for a title. It is a local request like any other (DESIGN.md §2): the conversation's own window and options
 * (Ollama `num_ctx` + `truncate: false`, so the model is not reloaded at another window for it), assembled by the
 * same Assemble. It asks for no thinking where the model allows it, starts its splitter inside a think block the
 * template opens (think-open), and its output goes through the dialect's parser, the shared reducer and then the
 * seed's last-close-tag peel, so reasoning never becomes the title. Blank output falls back to the user's first
 * words. When the final answer is blank, the salvage walk finds the last answer with text (seed 002).
 * Returns the title set, or undefined when there is nothing to name, the conversation was renamed meanwhile, or
 * the request failed.
 */
export async function makeTitle(deps: TitleDeps, input: TitleInput): Promise<string | undefined> {
  const { branch, signal } = input;
  const first = branch.find((t) => t.role === 'user');
  const answer = finalAssistantText(branch) || lastAssistantText(branch);
  if (!first || answer === '') return undefined;
  const conversationId = first.conversationId;
  const startTitle = titleFrom(turnText(first) || (first.blocks.find((b) => b.type === 'attachment')?.name ?? ''));
  const made = await askForTitle(deps, input, {
    ...first,
    blocks: [{ type: 'text', text: `${TITLE_PROMPT}\n\nUser: ${turnText(first).slice(0, 2000)}\n\nAssistant: ${answer.slice(0, 2000)}` }],
  }).catch(() => '');
  if (signal.aborted) return undefined;
  const current = deps.store.getConversation(conversationId);
  if (!current || current.title !== startTitle) return undefined; // renamed by the user meanwhile: theirs wins
  const title = isBlank(made) ? startTitle : made;
  if (title !== current.title) {
    deps.store.renameConversation(conversationId, title, deps.now());
    deps.emit('conversations:changed', { conversationId });
  }
  return title;
}

/** One title request, recorded like a step; '' when nothing usable came back. */
async function askForTitle(deps: TitleDeps, input: TitleInput, ask: Turn): Promise<string> {
  const { connection, model, signal } = input;
  const caps = await deps.capabilities.get(connection, model);
  // The title's own think setting, not the conversation's: off where the server says the model can think (a
  // thinking model would spend the whole budget thinking), unset where it cannot or nobody knows.
  const think: ThinkMode | undefined = caps.thinking === true ? 'off' : undefined;
  const layers = input.layers.map((l) => l && optionsOf(l));
  const thinkOpen = caps.thinking === true ? await deps.thinkOpen.get(connection, model, planThink(think, connection.kind, caps).think) : undefined;
  const window = await defaultWindow(deps, connection, model, layers);
  const a = assemble({
    connection, model, branch: [ask], layers, caps, calibration: deps.calibration, tools: [], maxTokens: TITLE_MAX_TOKENS,
    ...(think !== undefined ? { think } : {}),
    ...(thinkOpen !== undefined ? { thinkOpen } : {}),
    ...(window !== undefined ? { defaultWindow: window } : {}),
  });
  if (a.kind !== 'send') return '';
  const url = connection.baseUrl.replace(/\/+$/, '') + connection.dialect.chatPath;
  const stepId = deps.newId();
  deps.steps.begin({
    id: stepId, turnId: null, conversationId: ask.conversationId, stepIndex: 0, body: a.body, dialect: connection.dialect.id, endpoint: url, model,
    ...(a.window !== undefined ? { contextWindow: a.window } : {}), tokenEstimate: a.estimate, now: deps.now(),
  });
  const reducer = createTurnReducer({ ...ask, id: 'title', role: 'assistant', blocks: [], status: 'streaming' });
  try {
    // The built-in engine has its own leg; every other connection is HTTP.
    const res = connection.send
      ? await connection.send(a.body, signal)
      : await sendRequest({ method: 'POST', url, body: a.body, headers: connection.authHeaders(), signal, stallTimeoutMs: 30_000 });
    if (res.status < 200 || res.status >= 300) {
      await res.text().catch(() => '');
      deps.steps.finish(stepId, { wireReason: null, stop: 'error', error: `HTTP ${res.status}`, now: deps.now() });
      return '';
    }
    for await (const part of normalizeStream(res.body, connection.dialect, { thinkOpen: a.thinkOpen })) reducer.apply(part);
  } catch {
    deps.steps.finish(stepId, { wireReason: null, stop: signal.aborted ? 'aborted' : 'error', now: deps.now() });
    return '';
  }
  const turn = reducer.turn;
  deps.steps.finish(stepId, { wireReason: turn.wireReason ?? null, stop: turn.stop ?? 'cut', ...(turn.usage ? { usage: turn.usage } : {}), now: deps.now() });
  return cleanTitle(peelReasoning(turnText(turn)));
}

/** What a title request keeps of a layer: its options and window, not its system prompt or think mode. */
function optionsOf(layer: IdentityLayer): IdentityLayer {
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

function cleanTitle(text: string): string {
  const line = text.trim().split('\n').find((l) => !isBlank(l)) ?? '';
  const bare = line.replace(/^(title:\s*)/i, '').replace(/^["'“”*#\s]+|["'“”*.\s]+$/g, '');
  // A model that answers the title prompt with a sentence of prose has not made a title: fall back.
  if (bare.split(/\s+/).length > TITLE_MAX_WORDS) return '';
  return bare.length > TITLE_MAX_CHARS ? `${bare.slice(0, TITLE_MAX_CHARS - 3)}...` : bare;
}
