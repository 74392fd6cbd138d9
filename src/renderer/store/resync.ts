/**
 * The link to serve mode is back after a drop (a network blip, serve mode restarted on the same address and
 * token): events main sent meanwhile never reached this page. An answer that ended in the gap stayed "streaming"
 * here for good, with Stop and no Send (resilience audit R1). What the page shows is read again from main: the
 * open chat's turns, the list and the models. The draft, the chosen model and any notice stay as they are.
 */
import { firebrand } from '../firebrand';
import { refreshConversations, refreshModels, useStore } from '.';
import { HELD_TURNS } from './open-conversation';
import { holdStreamed } from './streamed-turns';
import { useToolProgress } from './tool-progress';

const get = () => useStore.getState();

export async function resyncAfterReconnect(): Promise<void> {
  // A tool call that ended in the gap would say "Running…" (and keep Stop) for good. One still running loses its
  // "Running…" until its result arrives as a saved turn; meanwhile main refuses a message in that chat, saying why.
  useToolProgress.setState({ running: {} });
  void refreshConversations();
  void refreshModels();
  const id = get().activeId;
  if (!id) return;
  const held = get().turns.length;
  try {
    const view = await firebrand().conversations.open({ conversationId: id, tail: Math.min(Math.max(held, HELD_TURNS), 1000) });
    // Another chat was opened meanwhile: it was read as it opened.
    if (get().activeId !== id) return;
    useStore.setState({
      turns: view.turns,
      siblings: view.siblings,
      activeTitle: view.conversation.title,
      olderTurns: view.partial ? id : null,
      partialView: null,
    });
    holdStreamed(view.streamed);
  } catch {
    // Deleted meanwhile, or the link dropped again: the list refresh shows the first, the banner the second.
  }
}
