/**
 * The link to serve mode is back after a drop (a network blip, serve mode restarted on the same address and
 * token): events main sent meanwhile never reached this page. An answer that ended in the gap stayed "streaming"
 * here for good, with Stop and no Send (resilience audit R1). What the page shows is read again from main: the
 * open chat's turns and settings, the list, the models and the settings, the MCP servers' states, the models the built-in
 * engine is loading, the library with its downloads, the Models screen with its pulls, and the
 * connections. The draft, the chosen model and any notice stay as they are.
 */
import { firebrand } from '../firebrand';
import { closeDeletedElsewhere } from './conversation-actions';
import { adoptSettings, refreshConversations, refreshModels, useStore } from '.';
import { HELD_TURNS } from './open-conversation';
import { readBuiltinLoading } from './builtin-loading';
import { rereadConnections } from './connections-slice';
import { loadAutoCompact, useRoom } from './context-room';
import { rereadLibrary } from './library-slice';
import { rereadMcpServers } from './mcp-slice';
import { rereadModelsScreen } from './models-slice';
import { holdStreamed } from './streamed-turns';
import { adoptRunningTools, useToolProgress } from './tool-progress';

const get = () => useStore.getState();

export async function resyncAfterReconnect(): Promise<void> {
  // A tool call that ended in the gap would say "Running…" (and keep Stop) for good; the open chat's calls still
  // running come back with it, as main says they run (rereadOpenChat).
  useToolProgress.setState({ running: {} });
  void refreshConversations();
  void refreshModels();
  void firebrand()
    .settings.get({})
    .then(adoptSettings)
    .catch(() => undefined);
  // A `loaded:` lost in the gap would leave "Loading model…" on every later answer on that model.
  void readBuiltinLoading(firebrand());
  void rereadMcpServers();
  void rereadLibrary();
  void rereadModelsScreen();
  void rereadConnections();
  // An auto-compact choice saved in another tab while the link was down (where this page shows them).
  if (useRoom.getState().autoCompact !== null) void loadAutoCompact();
  const id = get().activeId;
  if (!id) return;
  // Its own settings too: saved in another tab while this one was away (its think toggle and meter follow them).
  void firebrand()
    .conversations.getSettings({ conversationId: id })
    .then((settings) => get().activeId === id && useStore.setState({ conversationSettings: settings }))
    .catch(() => undefined);
  await rereadOpenChat(id);
}

/** Regenerates and edits this page has asked for and not yet seen answered: their branch is this page's to show. */
let ownBranching = 0;

/** Runs a regenerate or an edit of this page's: a branch change main reports meanwhile is its own, not another tab's. */
export async function branching<T>(run: () => Promise<T>): Promise<T> {
  ownBranching++;
  try {
    return await run();
  } finally {
    ownBranching--;
  }
}

/**
 * Main changed the open chat: when it now goes on from another turn than the one this page shows last (an answer
 * regenerated or a message edited in another window or tab), the page reads the chat again (resilience audit R10).
 * It kept showing the old branch, and a message sent from it was shown below the old answer while the model was sent
 * the new one.
 */
export async function followOpenChat(conversationId: string): Promise<void> {
  const idle = () => get().activeId === conversationId && ownBranching === 0 && !get().sending && !get().turns.some((t) => t.status === 'streaming');
  if (!idle()) return;
  const shown = get().turns.at(-1)?.id;
  let tip: string | undefined;
  try {
    tip = (await firebrand().conversations.open({ conversationId, tail: 1 })).turns.at(-1)?.id;
  } catch {
    return;
  }
  if (tip === shown || !idle() || get().turns.at(-1)?.id !== shown) return;
  await rereadOpenChat(conversationId);
}

/** The open chat's turns (as many as held, at least a window), read again from main in place of those shown. */
async function rereadOpenChat(id: string): Promise<void> {
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
    adoptRunningTools(id, view.toolsRunning);
  } catch (err) {
    // Deleted meanwhile (in another tab while this one's link was down): the screen says so and keeps the draft; it
    // went on showing the chat, and a message sent in it failed with "That conversation no longer exists." and a
    // Retry that could only fail again. The link dropped again: the banner says so.
    closeDeletedElsewhere(id, err);
  }
}
