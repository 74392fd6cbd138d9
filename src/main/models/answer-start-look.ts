/**
 * When an answer's first token comes, Ollama has loaded the model it answers with: every page's Running panel is
 * told then, not when the answer ends (round 8, engine #2: a minutes-long answer showed nothing in another tab's
 * Running panel until it ended). One look per answer, not polling: a conversation has one answer at a time, so it
 * is looked at once from its first token until its last step is saved (a tool call's next step is the same answer).
 */
import type { EventChannel, EventContract } from '../../shared/ipc';

/**
 * A sink for the event hub: calls `look` with the conversation at the first token of each answer (the caller looks
 * only where that answer's server is the Ollama the Running panel reads).
 */
export function lookAtAnswerStart(look: (conversationId: string) => void): (channel: EventChannel, payload: unknown) => void {
  /** Conversations whose answer on its way has been looked at. */
  const looked = new Set<string>();
  return (channel, payload) => {
    if (channel === 'chat:turn-parts') {
      const { conversationId, parts } = payload as EventContract['chat:turn-parts'];
      if (looked.has(conversationId)) return;
      // A batch with no token yet (an error before any text) says nothing of what the server loaded.
      if (!parts.some((p) => p.type.endsWith('-start') || p.type.endsWith('-delta'))) return;
      looked.add(conversationId);
      look(conversationId);
    } else if (channel === 'chat:turn-saved') {
      const { turn } = payload as EventContract['chat:turn-saved'];
      // The answer has ended unless this step asked for tools (the next step goes on with the same answer).
      if (turn.role === 'assistant' && turn.status !== 'streaming' && turn.stop !== 'tool_use') looked.delete(turn.conversationId);
    }
  };
}
