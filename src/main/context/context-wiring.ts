/** The out-of-room service (issue 21) with its IPC handlers, over the chat's own engine collaborators. */
import type { Database } from 'better-sqlite3';
import type { ContextInvokeContract } from '../../shared/context-ipc';
import type { ChatParts } from '../chat/chat-wiring';
import type { ConversationStore } from '../db/conversation-store';
import type { EmitEvent } from '../events';
import { AutoCompactStore } from './auto-compact-store';
import { RoomService } from './room-service';
import type { RoomDeps } from './room-target';

export type ContextHandlers = {
  [C in keyof ContextInvokeContract]: (req: ContextInvokeContract[C]['req']) => Promise<ContextInvokeContract[C]['res']> | ContextInvokeContract[C]['res'];
};

export interface ContextWiringOptions extends Pick<RoomDeps, 'alias' | 'aliasId' | 'modelLabel' | 'conversationLayer' | 'conversationTools' | 'copySettings' | 'windows'> {
  db: Database;
  store: ConversationStore;
  chat: ChatParts;
  emit: EmitEvent;
  newId: () => string;
  now: () => number;
  log: (message: string) => void;
}

export function createContextRoom(o: ContextWiringOptions): { room: RoomService; handlers: ContextHandlers } {
  const auto = new AutoCompactStore(o.db);
  const deps: RoomDeps = {
    ...o.chat.engine,
    store: o.store,
    emit: o.emit,
    newId: o.newId,
    now: o.now,
    log: o.log,
    chat: o.chat.chat,
    connection: o.chat.engineConnection,
    alias: o.alias,
    aliasId: o.aliasId,
    ...(o.modelLabel ? { modelLabel: o.modelLabel } : {}),
    conversationLayer: o.conversationLayer,
    conversationTools: o.conversationTools,
    copySettings: o.copySettings,
    windows: o.windows,
  };
  const room = new RoomService(deps, auto);
  const handlers: ContextHandlers = {
    'context:measure': (req) => room.measure(req),
    'context:plan': (req) => room.plan(req),
    'context:apply': (req) => room.apply(req),
    'context:cancel': ({ conversationId }) => ({ cancelled: room.cancel(conversationId) }),
    'context:auto-compact': () => auto.list(),
    'context:set-auto-compact': ({ kind, id, threshold }) => {
      const settings = auto.set(kind, id, threshold);
      // Every page's Models screen and Settings show it (another tab kept showing the old choice for good).
      o.emit('context:auto-compact-changed', { settings });
      return settings;
    },
  };
  return { room, handlers };
}
