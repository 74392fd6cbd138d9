import { answeredCallKeys, stepCallKey } from '../../shared/tool-steps';
import { isBlank, turnText, type Block, type Turn } from '../../shared/turn';
import { applyContextEdits } from './context-edits';

/** System-turn kinds that are cards for the user, never context for the model (DESIGN.md §5: meta stays off the wire). */
const USER_ONLY_SOURCES = new Set(['context-refused', 'model-does-not-fit', 'error', 'tool-approval', 'model-switched', 'title', 'context-dropped', 'continued']);

/**
 * The branch as the model should see it:
 * - summaries in place of the turns they cover, and turns or items the user left out absent (issue 21,
 *   ./context-edits.ts);
 * - user and tool turns as they are; plain system turns (no source, or `identity`) too;
 * - assistant turns that carry text or tool calls (a failed empty answer is left out);
 * - a tool call whose result never came (stopped before the tools ran, truncated) is dropped from its turn:
 *   OpenAI and Anthropic reject a call without its result, and the model cannot act on a call it never saw
 *   answered.
 */
export function sendableHistory(whole: readonly Turn[]): Turn[] {
  const branch = applyContextEdits(whole);
  // Paired within each step: a later step's `call_0` is not answered by an earlier step's (tools audit #1).
  const answered = answeredCallKeys(branch);
  const out: Turn[] = [];
  for (const turn of branch) {
    if (turn.role === 'system') {
      if (turn.source === undefined || !USER_ONLY_SOURCES.has(turn.source)) out.push(turn);
      continue;
    }
    if (turn.role !== 'assistant') {
      out.push(turn);
      continue;
    }
    const blocks = turn.blocks.filter((b) => b.type !== 'tool_call' || answered.has(stepCallKey(turn.id, b.id)));
    const kept = { ...turn, blocks };
    if (!isBlank(turnText(kept)) || blocks.some((b) => b.type === 'tool_call')) out.push(kept);
  }
  return out;
}

/**
 * The history with user messages that follow one another joined into one. Two come in a row when the answer between
 * them was left out (it failed with nothing: the server still loading, down, a model not found; or was stopped before
 * its first token) and the user wrote again. Many chat templates refuse that outright (Gemma, Mistral: "Conversation
 * roles must alternate user/assistant"), and would refuse every later message of the chat (turns audit #5). The
 * turns themselves stay apart in the conversation; only the request joins them, the later one's id kept.
 */
export function joinAdjacentUserTurns(turns: readonly Turn[]): Turn[] {
  const out: Turn[] = [];
  for (const turn of turns) {
    const prev = out.at(-1);
    if (turn.role !== 'user' || prev?.role !== 'user') {
      out.push(turn);
      continue;
    }
    // Text blocks are encoded joined: a blank line keeps the two messages apart.
    const gap: Block[] = turnText(prev) !== '' && turnText(turn) !== '' ? [{ type: 'text', text: '\n\n' }] : [];
    out[out.length - 1] = { ...turn, blocks: [...prev.blocks, ...gap, ...turn.blocks] };
  }
  return out;
}
