/**
 * One zustand store: main + SQLite are the source of truth, the store mirrors the open conversation. IPC events
 * update it through plain module-level actions; streamed parts are applied with the shared reducer at most once
 * per animation frame (./streamed-turns.ts).
 */
import type { SendResult, SiblingInfo } from '../../shared/ipc';
import { aliasOfRef, refFor } from '../../shared/model-ref';
import type { AttachmentBlock, Turn } from '../../shared/turn';
import { firebrand } from '../firebrand';
import { releaseEvents, takeFirst } from '../boot';
import { connectStreamedTurns, flushPendingFor, releaseSavedAhead, savedEarly } from './streamed-turns';
import { connectToolProgress } from './tool-progress';
import { connectBuiltinLoading } from './builtin-loading';
import { connectImageUrls } from './image-urls';
import { adoptConnections } from './connections-slice';
import { noteNavigation, openConversation } from './open-conversation';
import { switchDraft } from './drafts';
import { refreshConversations } from './conversation-list';
import { noticeDeletedElsewhere } from './conversation-actions';
import { isBlankSettings, keptNewChatSettings, newChatSettingsTaken, NO_CONVERSATION_SETTINGS } from './new-chat-settings';
import { newChatStartedAs } from './unsaved-chat-settings';
import { answerEnded, fail, showNotice, useStore } from './app-state';
import { CHOOSE_A_MODEL, CHOOSE_MODEL } from './notice';
import { adoptAliases, connectionOf, connectRemovedWhileAnswering, followRenamedFile, listModels, nextModelsAsk, refreshContextChoice, refreshModels, showModels, thinkChoice } from './model-choice';
import { adoptSettings, settingsAdoptions } from './settings-sync';

export { openConversation, openConversationAt, refreshSiblings, type FocusTurn } from './open-conversation';
export { loadMoreConversations, refreshConversations } from './conversation-list';
export { clearNotice, fail, showNotice, useStore, type AppState } from './app-state';
export { INFO, REFUSED, retryWith, type Notice, type NoticeAction } from './notice';
export { adoptAliases, chosenModelThinks, connectionOf, connectRemovedWhileAnswering, followRenamedFile, refreshContextChoice, refreshModels, selectModel, thinkChoice, thinkToggleHeld, thinkToggleOffered } from './model-choice';
export { adoptSettings, saveSettings } from './settings-sync';
export { NO_CONVERSATION_SETTINGS };

const set = useStore.setState;
const get = useStore.getState;

/** Reads the open conversation again (a banner's Retry after a failure to show it). */
export async function reopenActive(): Promise<void> {
  const id = get().activeId;
  if (id) await openConversation(id);
}

/** Takes a turn pair that main just created (regenerate, edit-and-resend) into the view as the new branch tip. */
export function adoptBranch(res: SendResult, replaces: string, siblings: Record<string, SiblingInfo>): void {
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

/**
 * Sends a message, with the Think choice every request the user starts carries (thinkChoice); resolves true when it
 * was accepted (the caller then clears the draft). `fromDraft`: it is the composer's draft, which main then drops.
 * `model`: the model to use when none is chosen (Continue: the answer's own, as Regenerate does).
 */
export async function sendMessage(text: string, attachments: AttachmentBlock[] = [], { fromDraft = false, model: fallback }: { fromDraft?: boolean; model?: string | undefined } = {}): Promise<boolean> {
  const think = thinkChoice();
  const model = get().selectedModel ?? fallback;
  if (text.trim() === '' && attachments.length === 0) return false;
  // Said, not dropped: Continue with the model list empty (its server down) did nothing at all (context audit #9).
  if (!model) {
    showNotice(CHOOSE_A_MODEL, CHOOSE_MODEL);
    return false;
  }
  set({ sending: true });
  const conversationId = get().activeId;
  const startsChat = conversationId === null;
  try {
    const res = await firebrand().chat.send({
      conversationId: get().activeId,
      text,
      model,
      ...(attachments.length > 0 ? { attachments } : {}),
      ...(think === undefined ? {} : { think }),
      ...connectionOf(),
      ...(get().activeId === null && !isBlankSettings(get().conversationSettings) ? { conversationSettings: get().conversationSettings } : {}),
      ...(fromDraft ? { fromDraft } : {}),
    });
    // The new chat's settings went with its first message: they are that chat's now, not the next new chat's (main
    // dropped them with the draft). So are those typed and not saved: offered there, still unsaved.
    if (startsChat) {
      newChatSettingsTaken();
      newChatStartedAs(res.conversationId);
    }
    const same = get().activeId === res.conversationId;
    const fresh = new Set([res.userTurn.id, res.assistantTurn.id]);
    const base = same ? get().turns.filter((t) => !fresh.has(t.id)) : [];
    // A new message is followed to its answer: the search hit the chat was opened at no longer holds it.
    set({ activeId: res.conversationId, turns: [...base, res.userTurn, res.assistantTurn], siblings: same ? get().siblings : {}, notice: null, focusTurn: null });
    flushPendingFor(res.assistantTurn.id);
    return true;
  } catch (err) {
    // Retry presses Send again, with what the composer holds then (the draft was kept).
    fail(err, () => set({ sendRequest: get().sendRequest + 1 }), conversationId);
    return false;
  } finally {
    releaseSavedAhead();
    set({ sending: false });
  }
}

export async function stopTurn(turnId: string): Promise<void> {
  await firebrand().chat.stop({ turnId }).catch((err: unknown) => fail(err, () => void stopTurn(turnId)));
}

/** Subscribes the store to main's events and reads what the first screen shows; resolves when that is read. */
export function connectStore(): Promise<void> {
  const api = firebrand();
  connectStreamedTurns(api);
  api.chat.onAnswerEnded(({ conversationId }) => answerEnded(conversationId));
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
  // A GGUF renamed in Models (here or in another tab): the choice follows it (builtin audit #3).
  api.library.onChanged(({ renamed }) => renamed && followRenamedFile(renamed.from, renamed.to));
  api.connections.onChanged(({ id, connections }) => adoptConnections(connections, id));
  // A window kept (or the GPU memory set) in another tab: the meter shows the window the next message carries.
  api.models.onWindowsChanged(() => void refreshContextChoice());
  connectToolProgress(api);
  connectBuiltinLoading(api);
  // The chosen model removed while it answered is kept until the answer ends.
  connectRemovedWhileAnswering();
  connectImageUrls(() => get().turns, (changed) => useStore.subscribe((s, before) => s.turns !== before.turns && changed()));
  // Asked side by side: the lists do not wait for the settings (a round trip less before the composer can send,
  // bench/start); only the choice of model, made when both are here, reads the settings. Asked by boot.ts already,
  // before this code had loaded, where it ran; taken before the events held meanwhile arrive, so a refresh one
  // of them starts asks main again.
  const settings = takeFirst('settings') ?? api.settings.get({});
  const firstAsk = nextModelsAsk();
  const listed = listModels(takeFirst('models'), takeFirst('aliases'));
  listed.catch(() => {}); // showModels reports a failure; this only keeps it from being "unhandled" meanwhile.
  const conversations = refreshConversations(takeFirst('conversations'));
  // A `settings:changed` held meanwhile (saved in another tab as this one opened) is newer than the first read,
  // asked before it: taken as it is released, it must not be put back by the first read's later answer.
  const adoptedBefore = settingsAdoptions();
  releaseEvents();
  return (async () => {
    try {
      const first = await settings;
      if (settingsAdoptions() === adoptedBefore) set({ settings: first });
      // The first model list was asked for the connection active then; another tab has made another one active.
      else if (first.activeConnectionId !== get().settings?.activeConnectionId) void refreshModels();
    } catch (err) {
      fail(err);
    }
    await Promise.all([conversations, showModels(listed, undefined, firstAsk)]);
  })();
}
