/**
 * What a finished answer with no answer text says in its place. DESIGN.md §4: think-only or whitespace-only output
 * drains to blank content, and blank is "no answer" for every consumer. The turn showed nothing but its footer (a
 * 0-token answer, or reasoning that never closed), which read as a drawing glitch (builtin audit #6).
 */
import { finalAssistantText } from '../../../shared/assistant-text';
import type { Turn } from '../../../shared/turn';

/** The line for a blank finished answer, else null (text, tool calls, still streaming, or a stop said otherwise). */
export function blankAnswerLine(turn: Turn): string | null {
  if (turn.role !== 'assistant' || turn.status !== 'done') return null;
  // A stop other than a normal end has its own words (stopLabel); a tool step's answer comes in a later step.
  if (turn.stop && turn.stop !== 'end_turn') return null;
  if (turn.blocks.some((b) => b.type === 'tool_call')) return null;
  if (finalAssistantText([turn]) !== '') return null;
  const reasoned = turn.blocks.some((b) => b.type === 'reasoning' && (b.text.trim() !== '' || b.redacted !== undefined));
  return reasoned ? 'The model wrote no answer, only reasoning.' : 'The model wrote no answer.';
}
