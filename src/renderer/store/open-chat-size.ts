/**
 * How much the open chat already holds, for a screen that changes a window under it (an alias's context in Models).
 * Round 9 left: an alias's window could be saved below what the chat using it holds (1K against 1.9K); only the
 * composer, behind the Models screen, said that its next message could not be sent.
 */
import { formatTokens } from '../format';
import { aliasRef } from '../../shared/model-ref';
import { useRoom } from './context-room';
import { useStore } from './app-state';

/** Tokens main measured for the open chat's next request, when the open chat uses `model` (a name or `alias:<id>`); else null. */
export function openChatTokens(model: string): number | null {
  const { activeId, selectedModel } = useStore.getState();
  const measure = useRoom.getState().measure;
  if (activeId === null || selectedModel !== model || !measure?.base) return null;
  // The measure's scope starts with the model it was made for (context-room.ts `measureIdentity`).
  if (measure.base.conversationId !== activeId || !measure.base.scope.startsWith(`${model}|`)) return null;
  return measure.value.tokens;
}

/**
 * What to tell the user who saved alias `name` (id `id`) with `window` tokens, where the open chat through it holds
 * that much or more already: nothing is lost, and how to go on. Null when it still fits (or no window is set).
 */
export function aliasWindowBelowChat(id: string, name: string, window: number | null): string | null {
  if (window === null) return null;
  const holds = openChatTokens(aliasRef(id));
  if (holds === null || holds < window) return null;
  return `The open chat already holds about ${formatTokens(holds)} tokens through ${name}, more than its ${formatTokens(window)}-token window: nothing in it is lost, but its next message cannot be sent until you make room there (Make room… under the message box) or give ${name} a larger window.`;
}
