/**
 * The store's state and the store itself: main + SQLite are the source of truth, the store mirrors the open
 * conversation. Actions live in the modules beside this one (index.ts re-exports them).
 */
import { create } from 'zustand';
import { FirebrandError, type ConversationSettings, type ConversationSummary, type ModelSummary, type Settings, type SiblingInfo, type Theme } from '../../shared/ipc';
import type { Alias, ContextWindowChoice } from '../../shared/models';
import type { Turn } from '../../shared/turn';
import { errorMessage } from './errors';
import type { FocusTurn } from './open-conversation';
import { keptNewChatSettings } from './new-chat-settings';
import { REFUSED, retryWith, type Notice, type NoticeAction } from './notice';
import type { ServeProblem } from '../serve-bridge';

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
  /** Conversations this page has deleted in main: search results listed before the delete still hold their hits. */
  deletedConversations: string[];
  /** Conversations whose own load failed (read or timed out): their rows say so until one opens (open-conversation.ts). */
  openFailed: string[];
  models: ModelSummary[];
  /** Aliases, offered in the picker beside the models; picking one sends `alias:<id>` as the model (shared/model-ref.ts). */
  aliases: Alias[];
  modelsError: string | null;
  /** The model list failed (the server could not be reached or refused), as opposed to an empty one. */
  modelsUnreachable: boolean;
  /**
   * The failed list came from a server that answered (an HTTP error, another kind of server, not JSON), not from one
   * that could not be reached: the composer then sends the user to the banner's reason, not to "start it".
   */
  modelsAnswered: boolean;
  /**
   * The last list that came, and the connection it came from: while that server cannot be reached, the composer
   * keeps what depended on it (the Think toggle) in place, disabled, instead of dropping it.
   */
  reachedModels: { connectionId: string | undefined; models: ModelSummary[] } | null;
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
  /** Why the last action failed, or what changed by itself, with what the banner's button does (set by showNotice). */
  notice: Notice | null;
  /** Serve mode only: the link to the serving process is down, or its token is refused (what to do, in words). */
  serveProblem: ServeProblem | null;
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
  /** The name of the file an import is reading in, until its chat opened or it was refused (export-import.ts). */
  importing: string | null;
}

export const useStore = create<AppState>(() => ({
  conversations: [],
  conversationsEnd: false,
  activeTitle: null,
  activeId: null,
  turns: [],
  siblings: {},
  hiddenConversations: [],
  deletedConversations: [],
  openFailed: [],
  models: [],
  aliases: [],
  modelsError: null,
  modelsUnreachable: false,
  modelsAnswered: false,
  reachedModels: null,
  selectedModel: null,
  contextChoice: null,
  // A new chat's (new-chat-settings.ts: main's come with the drafts); opening a conversation puts its own in their place.
  conversationSettings: keptNewChatSettings(),
  composerThink: true,
  settings: null,
  notice: null,
  serveProblem: null,
  sending: false,
  sendRequest: 0,
  focusTurn: null,
  previewTheme: null,
  partialView: null,
  olderTurns: null,
  importing: null,
}));

/** The one way to show a notice: its message and what its button does, together (notice.ts). */
export function showNotice(message: string, action: NoticeAction): void {
  useStore.setState({ notice: { message, action } });
}

export function clearNotice(): void {
  useStore.setState({ notice: null });
}

/**
 * Shows a failed action's message; `retry` repeats it from the banner's Retry (without one, Retry reads everything
 * again). `conversationId`: the chat the action was for; refused there as busy (an answer still being written in it,
 * perhaps in another window), the notice goes by itself once that answer ends.
 */
export function fail(err: unknown, retry?: () => void, conversationId?: string | null): void {
  const busy = err instanceof FirebrandError && err.code === 'busy' && conversationId;
  // Serve mode gave up on the link (no token, or one refused): trying again cannot help, opening the new address can.
  const problem = useStore.getState().serveProblem;
  const action = problem && problem.kind !== 'unreachable' ? REFUSED : retryWith(retry);
  useStore.setState({ notice: { message: errorMessage(err), action, ...(busy ? { untilAnswerEndsIn: conversationId } : {}) } });
}

/** No answer is on its way in `conversationId` any more: a notice that asked to wait for it goes. */
export function answerEnded(conversationId: string): void {
  if (useStore.getState().notice?.untilAnswerEndsIn === conversationId) clearNotice();
}
