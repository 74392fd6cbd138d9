/**
 * What the out-of-room service works with: the chat's engine collaborators (the same capability cache, calibration,
 * attachment preparer and window resolver the step loop uses), and how a model name (or alias) and connection
 * become the request's target, exactly as `ChatService.run` routes a send.
 */
import type { ThinkMode } from '../../shared/connections';
import type { IdentityLayer } from '../../shared/identity-layer';
import type { AliasLayer } from '../aliases/alias-route';
import type { ChatService } from '../chat/chat-service';
import type { ConversationStore } from '../db/conversation-store';
import { settingsLayer } from '../db/conversation-settings';
import type { DraftSettings } from '../../shared/context-ipc';
import type { LaneDeps } from '../engine/lane-request';
import type { RequestSetupDeps, RequestTarget } from '../engine/request-setup';
import { thinkModeOf } from '../engine/think';
import type { EngineConnection } from '../engine/types';
import type { WindowCost } from '../models/context-recommendation';

export interface RoomDeps extends RequestSetupDeps, LaneDeps {
  store: ConversationStore;
  chat: ChatService;
  connection: (id?: string) => EngineConnection;
  alias: (name: string) => AliasLayer | undefined;
  /** An alias's id by its name (auto-compact is kept per alias id). */
  aliasId: (name: string) => string | undefined;
  /** What a model reference is called on a card or a new chat (an alias's name rather than `alias:<id>`). */
  modelLabel?: (model: string) => string;
  conversationLayer: (conversationId: string) => IdentityLayer | undefined;
  /** Whether a chat offers tools (its settings), as the send path asks (ChatServiceDeps.conversationTools). */
  conversationTools: (conversationId: string) => boolean;
  /** Copies a chat's own settings (system prompt, think mode) to the chat that continues it. */
  copySettings: (from: string, to: string) => void;
  /** What a window costs, and keeping one, where Firebrand chooses the window (src/main/context/larger-window.ts). */
  windows: WindowKeeper;
}

export interface WindowKeeper {
  ollamaCost: (baseUrl: string, model: string, window: number) => Promise<WindowCost>;
  keepOllama: (baseUrl: string, model: string, window: number) => void;
  builtinCost: (file: string, window: number) => Promise<WindowCost>;
  keepBuiltin: (file: string, window: number) => void;
}

/** A request's target with the layers that name it: the model under an alias, its connection, the chat's layer. */
export interface ResolvedTarget extends RequestTarget {
  /** The alias's window, when the alias sets one (then no larger window is offered: the alias decides). */
  aliasWindow?: number;
}

/**
 * The target as the send path will route it: a chat's own layer and tools setting, or for a new chat
 * (`conversationId` null) the settings its popover holds for its first message (chat audit #2: a new chat with
 * tools off was measured with every tool's definition, and Send was refused for a message that fit).
 */
export function resolveTarget(
  deps: RoomDeps,
  t: { conversationId: string | null; model: string; connectionId?: string | undefined; think?: boolean | ThinkMode | undefined; draftSettings?: DraftSettings | undefined },
): ResolvedTarget {
  const routed = deps.alias(t.model);
  const { model: aliasModel, connectionId: aliasConnection, ...alias }: AliasLayer = routed ?? {};
  const connection = deps.connection(aliasConnection ?? t.connectionId);
  const conversation = t.conversationId ? deps.conversationLayer(t.conversationId) : t.draftSettings ? settingsLayer(t.draftSettings) : undefined;
  const tools = t.conversationId ? deps.conversationTools(t.conversationId) : t.draftSettings?.tools !== false;
  const think = thinkModeOf(t.think);
  return {
    connection,
    model: aliasModel ?? t.model,
    ...(routed ? { alias } : {}),
    ...(conversation ? { conversation } : {}),
    ...(think !== undefined ? { think } : {}),
    ...(tools ? {} : { tools: false }),
    ...(alias.contextWindow !== undefined ? { aliasWindow: alias.contextWindow } : {}),
  };
}
