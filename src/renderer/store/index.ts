/**
 * One zustand store: main + SQLite are the source of truth, the store mirrors the open conversation. IPC events
 * update it through plain module-level actions; streamed parts are applied with the shared reducer at most once
 * per animation frame.
 */
import { create } from 'zustand';
import type { ConversationSettings, ConversationSummary, ModelSummary, SendResult, Settings, SiblingInfo, Theme } from '../../shared/ipc';
import type { Alias, ContextWindowChoice } from '../../shared/models';
import type { StreamPart } from '../../shared/parts';
import { applyParts } from '../../shared/reducer';
import type { AttachmentBlock, Turn } from '../../shared/turn';
import { firebrand } from '../firebrand';
import { releaseEvents, takeFirst } from '../boot';
import { noteSent, noteTurnPart } from './turn-timings';
import { clearLive, freshest, growsOnly, publishDue, PUBLISH_MS, setLive } from './live-turns';
import { errorMessage } from './errors';
import { connectToolProgress } from './tool-progress';
import { openConversation, refreshSiblings, type FocusTurn } from './open-conversation';

export { openConversation, openConversationAt, refreshSiblings, type FocusTurn } from './open-conversation';

export interface AppState {
  conversations: ConversationSummary[];
  activeId: string | null;
  turns: Turn[];
  /** Sibling switcher data for turns of the open branch that have siblings. */
  siblings: Record<string, SiblingInfo>;
  /** Conversations deleted in the UI but not yet in main: they wait out the undo window hidden. */
  hiddenConversations: string[];
  models: ModelSummary[];
  /** Aliases, offered in the picker beside the models; picking one sends its name as the model. */
  aliases: Alias[];
  modelsError: string | null;
  /** A model or an alias name. */
  selectedModel: string | null;
  /** The window the next message to the selected model carries, and where it came from (main decides). */
  contextChoice: ContextWindowChoice | null;
  /** The open conversation's system prompt and think mode; for a new chat, what it will start with. */
  conversationSettings: ConversationSettings;
  settings: Settings | null;
  /** Why the last action failed, in words for the user; the draft is kept. */
  notice: string | null;
  /** Repeats the action the notice is about (its banner's Retry); null: Retry reads everything shown again. */
  noticeRetry: (() => void) | null;
  /** Serve mode only: the link to the serving process is down, or its token is refused (what to do, in words). */
  serveProblem: string | null;
  sending: boolean;
  /** Bumped by a failed send's Retry: the composer sends its draft again. */
  sendRequest: number;
  /** The message the chat shows and marks (a search hit, or a turn a summary card links to); cleared by the next navigation. */
  focusTurn: FocusTurn | null;
  /** The theme picked in Settings but not saved yet: shown while the dialog is open. */
  previewTheme: Theme | null;
  /** The conversation whose `turns` are only its last ones so far (openConversation: the whole follows). */
  partialView: string | null;
  /**
   * The conversation whose `turns` are a window at the end of a long branch: older turns stay in main and are paged
   * in as the reader scrolls up (open-conversation.ts), so the renderer does not hold a whole long chat.
   */
  olderTurns: string | null;
}

export const NO_CONVERSATION_SETTINGS: ConversationSettings = { systemPrompt: '', think: null, tools: true };

export const useStore = create<AppState>(() => ({
  conversations: [],
  activeId: null,
  turns: [],
  siblings: {},
  hiddenConversations: [],
  models: [],
  aliases: [],
  modelsError: null,
  selectedModel: null,
  contextChoice: null,
  conversationSettings: NO_CONVERSATION_SETTINGS,
  settings: null,
  notice: null,
  noticeRetry: null,
  serveProblem: null,
  sending: false,
  sendRequest: 0,
  focusTurn: null,
  previewTheme: null,
  partialView: null,
  olderTurns: null,
}));

const set = useStore.setState;
const get = useStore.getState;

/** Shows a failed action's message; `retry` repeats it from the banner's Retry. */
export function fail(err: unknown, retry?: () => void): void {
  set({ notice: errorMessage(err), noticeRetry: retry ?? null });
}

/** Reads the open conversation again (a banner's Retry after a failure to show it). */
export async function reopenActive(): Promise<void> {
  const id = get().activeId;
  if (id) await openConversation(id);
}

export async function refreshConversations(asked = firebrand().conversations.list({})): Promise<void> {
  try {
    set({ conversations: await asked });
  } catch (err) {
    fail(err, () => void refreshConversations());
  }
}

type ModelList = [ModelSummary[], Alias[]];

function listModels(models = firebrand().models.list({}), aliases = firebrand().aliases.list({})): Promise<ModelList> {
  return Promise.all([models, aliases.catch(() => get().aliases)]);
}

export function refreshModels(): Promise<void> {
  return showModels(listModels());
}

/** Shows a model list asked for already (at start, before the settings that pick among it have come). */
async function showModels(listed: Promise<ModelList>): Promise<void> {
  try {
    const [models, aliases] = await listed;
    const names = [...aliases.map((a) => a.name), ...models.map((m) => m.name)];
    const settings = get().settings;
    const before = get().selectedModel;
    const preferred = [before, settings?.defaultChatModel, settings?.defaultModel].find((n) => n && names.includes(n));
    const selected = preferred ?? models[0]?.name ?? null;
    const empty = settings?.activeConnectionId === 'builtin'
      ? 'No GGUF models yet: add or download one in Models (or put a .gguf file in the models folder).'
      : 'The server has no models yet. Pull one (ollama pull llama3.2) and refresh.';
    // A model that went away (deleted on the server) is not kept selected silently: the user is told what changed.
    const gone = before !== null && get().models.some((m) => m.name === before) && !names.includes(before) && selected !== null;
    set({
      models,
      aliases,
      modelsError: models.length === 0 ? empty : null,
      selectedModel: selected,
      ...(gone ? { notice: `${before} is no longer on the server; ${selected} is chosen now.`, noticeRetry: null } : {}),
    });
  } catch (err) {
    set({ models: [], modelsError: errorMessage(err) });
  }
  await refreshContextChoice();
}

/** Asks main which window the selected model's next message carries (the meter shows it, with its source). */
export async function refreshContextChoice(): Promise<void> {
  const model = get().selectedModel;
  if (!model) return set({ contextChoice: null });
  try {
    const choice = await firebrand().models.contextWindow({ model, ...connectionOf() });
    if (get().selectedModel === model) set({ contextChoice: choice });
  } catch {
    set({ contextChoice: null });
  }
}

/** The active connection, as the chat channels take it (absent for the built-in Ollama). */
export function connectionOf(): { connectionId?: string } {
  const id = get().settings?.activeConnectionId;
  return id && id !== 'ollama' ? { connectionId: id } : {};
}

/** Takes a turn pair that main just created (regenerate, edit-and-resend) into the view as the new branch tip. */
export function adoptBranch(res: SendResult, sentAt: number, replaces: string, siblings: Record<string, SiblingInfo>): void {
  noteSent(res.assistantTurn.id, sentAt);
  const turns = get().turns;
  const cut = turns.findIndex((t) => t.id === replaces);
  const base = cut >= 0 ? turns.slice(0, cut) : turns;
  const next = base.at(-1)?.id === res.userTurn.id ? [...base, res.assistantTurn] : [...base, res.userTurn, res.assistantTurn];
  set({ turns: next, siblings, notice: null, focusTurn: null });
  flushPendingFor(res.assistantTurn.id);
}

/**
 * Takes turns main wrote on its own into the view of `conversationId` (a choice's card and the answer it started,
 * issue 21): each one whose parent is the view's tip is added, and parts that came for it first are applied.
 */
export function adoptTurns(conversationId: string, turns: readonly Turn[]): void {
  if (get().activeId !== conversationId) return;
  let view = get().turns;
  for (const turn of turns) {
    if (view.some((t) => t.id === turn.id)) continue;
    if (view.length > 0 && view.at(-1)?.id !== turn.parentId) continue;
    if (turn.role === 'assistant') noteSent(turn.id, Date.now());
    view = [...view, savedEarly.get(turn.id) ?? turn];
  }
  set({ turns: view });
  for (const turn of turns) flushPendingFor(turn.id);
}

/** Scrolls the chat to a turn of the open branch and marks it (a summary card's link to a turn it covers). */
export function focusTurn(turnId: string | null): void {
  set({ focusTurn: turnId === null ? null : { turnId, query: null } });
}

/** A new chat starts with the default model or alias chosen in Settings, where there is one. */
export function newChat(): void {
  const start = get().settings?.defaultChatModel;
  const known = start && (get().models.some((m) => m.name === start) || get().aliases.some((a) => a.name === start));
  set({ activeId: null, turns: [], siblings: {}, notice: null, focusTurn: null, conversationSettings: NO_CONVERSATION_SETTINGS, ...(known ? { selectedModel: start } : {}) });
  if (known) void refreshContextChoice();
}

export function selectModel(name: string): void {
  set({ selectedModel: name });
  void refreshContextChoice();
}

/** Sends the draft; resolves true when it was accepted (the caller then clears the draft). */
export async function sendMessage(text: string, attachments: AttachmentBlock[] = [], think?: boolean): Promise<boolean> {
  const model = get().selectedModel;
  if (!model || (text.trim() === '' && attachments.length === 0)) return false;
  set({ sending: true });
  try {
    const sentAt = Date.now();
    const res = await firebrand().chat.send({
      conversationId: get().activeId,
      text,
      model,
      ...(attachments.length > 0 ? { attachments } : {}),
      ...(think === undefined ? {} : { think }),
      ...connectionOf(),
      ...(get().activeId === null && !isBlankSettings(get().conversationSettings) ? { conversationSettings: get().conversationSettings } : {}),
    });
    noteSent(res.assistantTurn.id, sentAt);
    const same = get().activeId === res.conversationId;
    const fresh = new Set([res.userTurn.id, res.assistantTurn.id]);
    const base = same ? get().turns.filter((t) => !fresh.has(t.id)) : [];
    // A new message is followed to its answer: the search hit the chat was opened at no longer holds it.
    set({ activeId: res.conversationId, turns: [...base, res.userTurn, res.assistantTurn], siblings: same ? get().siblings : {}, notice: null, focusTurn: null });
    flushPendingFor(res.assistantTurn.id);
    return true;
  } catch (err) {
    // Retry presses Send again, with what the composer holds then (the draft was kept).
    fail(err, () => set({ sendRequest: get().sendRequest + 1 }));
    return false;
  } finally {
    set({ sending: false });
  }
}

function isBlankSettings(s: ConversationSettings): boolean {
  return s.systemPrompt.trim() === '' && s.think === null && s.tools;
}

export async function stopTurn(turnId: string): Promise<void> {
  await firebrand().chat.stop({ turnId }).catch((err: unknown) => fail(err, () => void stopTurn(turnId)));
}

export async function saveSettings(patch: Partial<Settings>): Promise<boolean> {
  try {
    set({ settings: await firebrand().settings.update(patch), notice: null });
    await refreshModels();
    return true;
  } catch (err) {
    fail(err, () => void saveSettings(patch));
    return false;
  }
}

// Streamed parts: buffered, applied once per frame. Parts for a turn the view does not hold yet (they can beat
// the send result) wait in `early` until it arrives.
let buffered: { turnId: string; part: StreamPart }[] = [];
let frame: number | null = null;
const early = new Map<string, StreamPart[]>();
const savedEarly = new Map<string, Turn>();

function applyBuffered(): void {
  frame = null;
  const batch = buffered;
  buffered = [];
  let turns = get().turns;
  const index = new Map(turns.map((t, i) => [t.id, i]));
  let changed = false;
  // Group the frame's parts per turn so consecutive deltas fold into one update (applyParts).
  const perTurn = new Map<string, StreamPart[]>();
  for (const { turnId, part } of batch) {
    const list = perTurn.get(turnId);
    if (list) list.push(part);
    else perTurn.set(turnId, [part]);
  }
  const now = performance.now();
  const published: { base: Turn; turn: Turn }[] = [];
  for (const [turnId, parts] of perTurn) {
    const i = index.get(turnId);
    if (i === undefined) {
      const list = early.get(turnId) ?? [];
      if (list.length < 100_000) list.push(...parts);
      early.set(turnId, list);
      continue;
    }
    // Text that only grows goes to the turn's own view (live-turns.ts); the store gets it now and then.
    const stored = turns[i]!;
    const before = freshest(stored);
    const after = applyParts(before, parts);
    if (growsOnly(before, after, parts)) {
      setLive(stored, after);
      schedulePublish(turnId, now);
      continue;
    }
    if (!changed) turns = turns.slice();
    changed = true;
    turns[i] = after;
    published.push({ base: stored, turn: after });
  }
  if (changed) set({ turns });
  for (const { base, turn } of published) clearLive(turn.id, base, turn, now);
}

/**
 * A streaming turn's store copy catches up with its view (live-turns.ts) in a task of its own, never inside a
 * frame: the publish re-renders everything that reads the turns (the list, the composer and its meter), and done
 * in the frame it made that frame's tokens later. In 3 interleaved pairs of bench/latency, the p99 at 100
 * tokens/s read 22.1-22.4 ms (1.13-1.16x its floor) against 22.7-24.3 (1.21-1.26x) with the publish in the frame.
 * - Once due (PUBLISH_MS since the last), right after the frame that painted the new text;
 * - and PUBLISH_MS after a frame that was not due, in case no frame comes (the stream paused: a slow prompt, a
 *   tool call, a server stalled): the meter then counts everything received, where it lagged until the next part.
 */
const unpublished = new Set<string>();
let afterFrame = false;
let trailing: ReturnType<typeof setTimeout> | null = null;

function schedulePublish(turnId: string, now: number): void {
  unpublished.add(turnId);
  if (publishDue(turnId, now)) {
    if (afterFrame) return;
    afterFrame = true;
    // A task posted from a frame's callback runs after that frame is painted.
    setTimeout(() => {
      afterFrame = false;
      publishLive();
    }, 0);
  } else
    trailing ??= setTimeout(() => {
      trailing = null;
      publishLive();
    }, PUBLISH_MS);
}

function publishLive(): void {
  const ids = [...unpublished];
  unpublished.clear();
  let turns = get().turns;
  const published: { base: Turn; turn: Turn }[] = [];
  for (const id of ids) {
    const i = turns.findIndex((t) => t.id === id);
    if (i < 0) continue;
    // Published meanwhile (a frame with other parts, the saved turn): the store's copy is the view's.
    const stored = turns[i]!;
    const fresh = freshest(stored);
    if (fresh === stored) continue;
    if (published.length === 0) turns = turns.slice();
    turns[i] = fresh;
    published.push({ base: stored, turn: fresh });
  }
  if (published.length === 0) return;
  set({ turns });
  const now = performance.now();
  for (const { base, turn } of published) clearLive(turn.id, base, turn, now);
}

function flushPendingFor(turnId: string): void {
  const saved = savedEarly.get(turnId);
  if (saved) {
    savedEarly.delete(turnId);
    early.delete(turnId);
    let turns = get().turns.map((t) => (t.id === turnId ? saved : t));
    // A card main put above it meanwhile (an automatic summary, issue 21) goes in between.
    const card = saved.parentId !== null ? savedEarly.get(saved.parentId) : undefined;
    const at = turns.findIndex((t) => t.id === turnId);
    if (card && at >= 0 && !turns.some((t) => t.id === card.id)) {
      savedEarly.delete(card.id);
      turns = [...turns.slice(0, at), card, ...turns.slice(at)];
    }
    set({ turns });
    return;
  }
  const parts = early.get(turnId);
  if (!parts) return;
  early.delete(turnId);
  buffered.unshift(...parts.map((part) => ({ turnId, part })));
  scheduleFrame();
}

function scheduleFrame(): void {
  frame ??= requestAnimationFrame(applyBuffered);
}

/** Subscribes the store to main's events and reads what the first screen shows; resolves when that is read. */
export function connectStore(): Promise<void> {
  const api = firebrand();
  api.chat.onTurnParts(({ turnId, parts }) => {
    for (const part of parts) {
      noteTurnPart(turnId, part);
      buffered.push({ turnId, part });
    }
    scheduleFrame();
  });
  api.chat.onTurnSaved(({ turn }) => {
    // The saved turn is the truth; parts still buffered for it are already part of it.
    buffered = buffered.filter((b) => b.turnId !== turn.id);
    early.delete(turn.id);
    const turns = get().turns;
    const i = turns.findIndex((t) => t.id === turn.id);
    const was = i >= 0 ? turns[i]! : null;
    // A card main put above a turn in view (a summary written on its own before an answer, issue 21).
    const above = i < 0 && turn.conversationId === get().activeId ? turns.findIndex((t) => t.parentId === turn.id) : -1;
    if (i >= 0) set({ turns: turns.map((t) => (t.id === turn.id ? turn : t)) });
    else if (above >= 0 && (above === 0 || turns[above - 1]?.id === turn.parentId)) set({ turns: [...turns.slice(0, above), turn, ...turns.slice(above)] });
    // A turn main created on its own (the next step of a tool loop, an approval card) extends the open branch.
    else if (turn.conversationId === get().activeId && turn.parentId !== null && turns.at(-1)?.id === turn.parentId && !get().sending) {
      set({ turns: [...turns, turn] });
      flushPendingFor(turn.id);
    } else if (get().sending) savedEarly.set(turn.id, turn);
    // The saved turn replaces what streamed ahead of the store (live-turns.ts).
    clearLive(turn.id, was, i >= 0 ? turn : null);
    if (i >= 0) void refreshSiblings();
    // An answer that ended may have taught the estimate (the server's count) or met a window other than the one
    // shown (a server restarted with another -c): ask main again, cheaply (issue 13).
    if (turn.conversationId === get().activeId && turn.status !== 'streaming' && (turn.role === 'assistant' || turn.source === 'context-refused')) {
      if (turn.source === 'context-refused' || turn.status === 'error') void refreshModels();
      else void refreshContextChoice();
    }
  });
  // Back from a terminal where the server was restarted (another model, another -c): the picker and the meter
  // read it again instead of keeping what it said before.
  window.addEventListener('focus', () => void refreshModels());
  api.conversations.onChanged(() => void refreshConversations());
  // Main watches the server in use: it came back, went away, or lists other models (issue 17).
  api.models.onChanged(() => void refreshModels());
  connectToolProgress(api);
  // Asked side by side: the lists do not wait for the settings (a round trip less before the composer can send,
  // bench/start); only the choice of model, made when both are here, reads the settings. Asked by boot.ts already,
  // before this code had loaded, where it ran; taken before the events held meanwhile arrive, so a refresh one
  // of them starts asks main again.
  const settings = takeFirst('settings') ?? api.settings.get({});
  const listed = listModels(takeFirst('models'), takeFirst('aliases'));
  listed.catch(() => {}); // showModels reports a failure; this only keeps it from being "unhandled" meanwhile.
  const conversations = refreshConversations(takeFirst('conversations'));
  releaseEvents();
  return (async () => {
    try {
      set({ settings: await settings });
    } catch (err) {
      fail(err);
    }
    await Promise.all([conversations, showModels(listed)]);
  })();
}
