/**
 * Which tool calls on a branch have a result, per step. Call ids repeat across steps: Ollama sends none, so the
 * dialect names a step's calls `call_0`, `call_1`… in every step (OpenAI-compatible servers that send none get the
 * same), and matching a result to a call by id alone takes an earlier step's result as the answer to a later
 * step's call (tools audit #1). A tool turn answers the calls of the nearest assistant turn above it on the branch
 * (approval cards may sit between them), as the chat view pairs them (renderer tool-answers.ts).
 */
import type { Turn } from './turn';

/** A call's key: the step (assistant turn) that made it, and its id within that step. */
export const stepCallKey = (stepId: string, callId: string): string => `${stepId}\u0000${callId}`;

/** The keys (stepCallKey) of the calls on `branch` (root first) that a tool turn below their step answers. */
export function answeredCallKeys(branch: readonly Turn[]): Set<string> {
  const answered = new Set<string>();
  let step: Turn | undefined;
  for (const turn of branch) {
    if (turn.role === 'assistant') step = turn;
    else if (turn.role === 'tool' && step) {
      for (const b of turn.blocks) if (b.type === 'tool_result') answered.add(stepCallKey(step.id, b.toolCallId));
    }
  }
  return answered;
}
