/**
 * One zustand store: main + SQLite are the source of truth, the store mirrors the open conversation. IPC events
 * update it through plain module-level actions; streamed parts are applied with the shared reducer at most once
 * per animation frame (./streamed-turns.ts).
 */
import { create } from 'zustand';
import type { ConversationSettings, ConversationSummary, ModelSummary, SendResult, Settings, SiblingInfo, Theme } from '../../shared/ipc';
import type { Alias, ContextWindowChoice } from '../../shared/models';
import { aliasOfRef, aliasRef, refFor, refLabel } from '../../shared/model-ref';
import type { AttachmentBlock, Turn } from '../../shared/turn';
import { BUILTIN_CONNECTION_ID } from '../../shared/connections';
import { firebrand } from '../firebrand';
import { releaseEvents, takeFirst } from '../boot';
import { noteSent } from './turn-timings';
import { connectStreamedTurns, flushPendingFor, releaseSavedAhead, savedEarly } from './streamed-turns';
import { errorMessage } from './errors';
import { connectToolProgress } from './tool-progress';
import { connectBuiltinLoading } from './builtin-loading';
import { connectImageUrls } from './image-urls';
import { adoptConnections, loadConnections, useConnectionsStore } from './connections-slice';
import { noteNavigation, openConversation, type FocusTurn } from './open-conversation';
import { switchDraft } from './drafts';
import { refreshConversations } from './conversation-list';
import { noticeDeletedElsewhere } from './conversation-actions';
import { isBlankSettings, keepNewChatSettings, keptNewChatSettings, NO_CONVERSATION_SETTINGS } from './new-chat-settings';

export { openConversation, openConversationAt, refreshSiblings, type FocusTurn } from './open-conversation';
export { loadMoreConversations, refreshConversations } from './conversation-list';

export interface AppState {
  /** The start of the conversation list (conversation-list.ts): the next page is read as the reader scrolls. */
  conversations: ConversationSummary[];
  /** The list's last conversation is among those held. */
  conversationsEnd: boolean;
  /** The open conversation's title, for one not among those held (opened from a search hit, further down). */
  activeTitle: string | null;
  activeId: string | null;
  turns: Turn[];
  /** Sibling switcher data for turns of the open branch that have siblings. */
  siblings: Record<string, SiblingInfo>;
  /** Conversations deleted in the UI but not yet in main: they wait out the undo window hidden. */
  hiddenConversations: string[];
  models: ModelSummary[];
  /** Aliases, offered in the picker beside the models; picking one sends `alias:<id>` as the model (shared/model-ref.ts). */
  aliases: Alias[];
  modelsError: string | null;
  /** The connection `models` and `modelsError` were asked of; undefined until a list came. */
  modelsConnection?: string | undefined;
  /** A model's name or an alias's reference (`alias:<id>`). */
  selectedModel: string | null;
  /** The window the next message to the selected model carries, and where it came from (main decides). */
  contextChoice: ContextWindowChoice | null;
  /** The open conversation's system prompt and think mode; for a new chat, what it will start with. */
  conversationSettings: ConversationSettings;
  /** The composer's Think toggle, where it is offered (thinkToggleOffered): every request the user starts asks as it says. */
  composerThink: boolean;
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

export { NO_CONVERSATION_SETTINGS };

export const useStore = create<AppState>(() => ({
  conversations: [],
  conversationsEnd: false,
  activeTitle: null,
  activeId: null,
  turns: [],
  siblings: {},
  hiddenConversations: [],
  models: [],
  aliases: [],
  modelsError: null,
  selectedModel: null,
  contextChoice: null,
  // A new chat's, kept across a reload (new-chat-settings.ts); opening a conversation puts its own in their place.
  conversationSettings: keptNewChatSettings(),
  composerThink: true,
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

type ModelList = [ModelSummary[], Alias[]];

/** Bumped by each `aliases:changed` taken: a list asked before it holds aliases older than the store's. */
let aliasesAdopted = 0;

function listModels(models = firebrand().models.list({}), aliases = firebrand().aliases.list({})): Promise<ModelList> {
  const asked = aliasesAdopted;
  // The aliases answer quickly and the models after a server round trip: an alias changed in another tab meanwhile
  // came as an event, which this older answer must not undo.
  return Promise.all([models, aliases.catch(() => get().aliases)]).then(([m, a]) => [m, aliasesAdopted === asked ? a : get().aliases]);
}

export function refreshModels(): Promise<void> {
  // Another connection was made active: what the last one said of its list (its error, "no models") is not said of
  // this one while it is asked, which a slow server makes seconds (first-hour audit: "Cannot reach Ollama" stayed up,
  // and the composer said the new server had no models, while it was being asked).
  const active = get().settings?.activeConnectionId;
  if (get().modelsConnection !== undefined && active !== undefined && get().modelsConnection !== active) set({ modelsError: null, modelsConnection: undefined });
  return showModels(listModels());
}

/**
 * Shows a model list asked for already (at start, before the settings that pick among it have come). `shown`: the
 * aliases the choice so far was made among (what a deleted chosen alias was called).
 */
async function showModels(listed: Promise<ModelList>, shown: readonly Alias[] = get().aliases): Promise<void> {
  const askedOf = get().settings?.activeConnectionId;
  try {
    const [models, aliases] = await listed;
    // An alias is offered as `alias:<id>` (never a model's name); settings from before that name it by name.
    const names = [...aliases.map((a) => aliasRef(a.id)), ...models.map((m) => m.name)];
    const settings = get().settings;
    const before = get().selectedModel;
    const preferred = [before, settings?.defaultChatModel, settings?.defaultModel]
      .map((n) => (n ? refFor(n, models, aliases) : n))
      .find((n) => n && names.includes(n));
    const selected = preferred ?? models[0]?.name ?? null;
    const empty = settings?.activeConnectionId === 'builtin'
      ? 'No GGUF models yet: add or download one in Models (or put a .gguf file in the models folder).'
      : 'The server has no models yet. Pull one (ollama pull llama3.2) and refresh.';
    // A model that went away (deleted on the server) or an alias deleted (in another tab) is not kept selected
    // silently: the user is told what changed.
    const goneAlias = aliasOfRef(before, shown);
    const gone = before !== null && (get().models.some((m) => m.name === before) || goneAlias !== undefined) && !names.includes(before) && selected !== null;
    const goneWhere = goneAlias ? 'an alias (it was deleted)' : settings?.activeConnectionId === BUILTIN_CONNECTION_ID ? 'in the models folder' : 'on the server';
    set({
      models,
      aliases,
      modelsError: models.length === 0 ? empty : null,
      modelsConnection: askedOf ?? get().settings?.activeConnectionId,
      selectedModel: selected,
      ...(gone ? { notice: `${refLabel(before, shown)} is no longer ${goneWhere}; ${refLabel(selected, aliases)} is chosen now.`, noticeRetry: null } : {}),
    });
  } catch (err) {
    set({ models: [], modelsError: errorMessage(err), modelsConnection: askedOf ?? get().settings?.activeConnectionId });
  }
  await refreshContextChoice();
}

/**
 * Aliases saved in another window or tab (`aliases:changed`): the picker offers them as saved now, a renamed one
 * under its new name, a deleted one no more. Without this a tab offered what it had listed when it opened.
 */
export function adoptAliases(aliases: Alias[]): void {
  aliasesAdopted++;
  const before = get().aliases;
  set({ aliases });
  // No model list to choose among (not come yet, or the server could not be asked): only the aliases change.
  if (get().modelsError !== null || get().modelsConnection === undefined) return;
  // The choice is made as after a fresh list (a deleted chosen alias is named as it was called).
  void showModels(Promise.resolve([get().models, aliases]), before);
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
    view = [...view, savedEarly(turn.id) ?? turn];
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
  noteNavigation();
  switchDraft(get().activeId, null);
  const kept = get().settings?.defaultChatModel;
  const start = kept ? refFor(kept, get().models, get().aliases) : kept;
  const known = start && (get().models.some((m) => m.name === start) || aliasOfRef(start, get().aliases) !== undefined);
  set({ activeId: null, activeTitle: null, turns: [], siblings: {}, notice: null, focusTurn: null, conversationSettings: keptNewChatSettings(), ...(known ? { selectedModel: start } : {}) });
  if (known) void refreshContextChoice();
}

export function selectModel(name: string): void {
  set({ selectedModel: name });
  void refreshContextChoice();
}

/**
 * Whether the composer offers its Think toggle: the chosen model (or the model under the chosen alias) can think,
 * and neither the conversation nor the alias sets the think mode (those layers win: DESIGN.md §2).
 */
export function thinkToggleOffered(s: Pick<AppState, 'models' | 'aliases' | 'selectedModel' | 'conversationSettings'>): boolean {
  const alias = aliasOfRef(s.selectedModel, s.aliases);
  const model = s.models.find((m) => m.name === s.selectedModel) ?? s.models.find((m) => m.name === alias?.model);
  return (model?.capabilities?.includes('thinking') ?? false) && s.conversationSettings.think === null && alias === undefined;
}

/**
 * The think choice a request the user starts carries: the toggle's, where it is offered, else none (the layers or
 * the server decide). Send, Regenerate, Retry, an edit and Continue all ask the same (turns audit #1: only Send did).
 */
export function thinkChoice(s: AppState = get()): boolean | undefined {
  return thinkToggleOffered(s) ? s.composerThink : undefined;
}

/** Sends the draft, with the Think choice every request the user starts carries (thinkChoice); resolves true when it was accepted (the caller then clears the draft). */
export async function sendMessage(text: string, attachments: AttachmentBlock[] = [], think = thinkChoice()): Promise<boolean> {
  const model = get().selectedModel;
  if (!model || (text.trim() === '' && attachments.length === 0)) return false;
  set({ sending: true });
  const startsChat = get().activeId === null;
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
    // The new chat's settings went with its first message: they are that chat's now, not the next new chat's.
    if (startsChat) keepNewChatSettings(NO_CONVERSATION_SETTINGS);
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
    releaseSavedAhead();
    set({ sending: false });
  }
}

export async function stopTurn(turnId: string): Promise<void> {
  await firebrand().chat.stop({ turnId }).catch((err: unknown) => fail(err, () => void stopTurn(turnId)));
}

export async function saveSettings(patch: Partial<Settings>): Promise<boolean> {
  try {
    const settings = await firebrand().settings.update(patch);
    settingsAdopted++;
    set({ settings, notice: null });
    await refreshModels();
    return true;
  } catch (err) {
    fail(err, () => void saveSettings(patch));
    return false;
  }
}

/** How many times settings newer than the first read were taken: the first read, answered later, must not undo them. */
let settingsAdopted = 0;

/**
 * Settings saved in another window or tab (or read again after the link dropped) show here too: the theme at
 * once, and another connection made active lists its models. Without this a tab kept the theme it had opened with.
 */
export function adoptSettings(settings: Settings): void {
  const before = get().settings;
  settingsAdopted++;
  set({ settings });
  if (!before || before.activeConnectionId === settings.activeConnectionId) return;
  void refreshModels();
  // A connection added in another tab and made active there: this tab's list names it too.
  if (!useConnectionsStore.getState().connections.some((c) => c.id === settings.activeConnectionId)) void loadConnections();
}

/** Subscribes the store to main's events and reads what the first screen shows; resolves when that is read. */
export function connectStore(): Promise<void> {
  const api = firebrand();
  connectStreamedTurns(api);
  // Back from a terminal where the server was restarted (another model, another -c): the picker and the meter
  // read it again instead of keeping what it said before.
  window.addEventListener('focus', () => void refreshModels());
  api.conversations.onChanged(({ conversationId, settings }) => {
    // The open chat's own settings saved in another tab: its think toggle, the meter and Chat settings follow.
    if (settings && conversationId === get().activeId) set({ conversationSettings: settings });
    void refreshConversations().then(() => noticeDeletedElsewhere(conversationId));
  });
  // Main watches the server in use: it came back, went away, or lists other models (issue 17).
  api.models.onChanged(() => void refreshModels());
  api.settings.onChanged(({ settings }) => adoptSettings(settings));
  api.aliases.onChanged(({ aliases }) => adoptAliases(aliases));
  api.connections.onChanged(({ id, connections }) => adoptConnections(connections, id));
  // A window kept (or the GPU memory set) in another tab: the meter shows the window the next message carries.
  api.models.onWindowsChanged(() => void refreshContextChoice());
  connectToolProgress(api);
  connectBuiltinLoading(api);
  connectImageUrls(() => get().turns, (changed) => useStore.subscribe((s, before) => s.turns !== before.turns && changed()));
  // Asked side by side: the lists do not wait for the settings (a round trip less before the composer can send,
  // bench/start); only the choice of model, made when both are here, reads the settings. Asked by boot.ts already,
  // before this code had loaded, where it ran; taken before the events held meanwhile arrive, so a refresh one
  // of them starts asks main again.
  const settings = takeFirst('settings') ?? api.settings.get({});
  const listed = listModels(takeFirst('models'), takeFirst('aliases'));
  listed.catch(() => {}); // showModels reports a failure; this only keeps it from being "unhandled" meanwhile.
  const conversations = refreshConversations(takeFirst('conversations'));
  // A `settings:changed` held meanwhile (saved in another tab as this one opened) is newer than the first read,
  // asked before it: taken as it is released, it must not be put back by the first read's later answer.
  const adoptedBefore = settingsAdopted;
  releaseEvents();
  return (async () => {
    try {
      const first = await settings;
      if (settingsAdopted === adoptedBefore) set({ settings: first });
      // The first model list was asked for the connection active then; another tab has made another one active.
      else if (first.activeConnectionId !== get().settings?.activeConnectionId) void refreshModels();
    } catch (err) {
      fail(err);
    }
    await Promise.all([conversations, showModels(listed)]);
  })();
}
