import { isBlank, turnText, type Turn } from './turn';

/**
 * Final say: the answer text of the LAST assistant turn only, or '' when that turn has no answer (DESIGN.md §4).
 * Titles, copy-answer, notifications and export read this, never an earlier narration presented as the
 * conclusion.
 */
export function finalAssistantText(turns: readonly Turn[]): string {
  for (let i = turns.length - 1; i >= 0; i--) {
    const turn = turns[i];
    if (turn?.role === 'assistant') return answerOf(turn);
  }
  return '';
}

/**
 * Salvage walk: the answer text of the last assistant turn that has one, skipping tool-call-only,
 * reasoning-only and blank turns (partial-work recovery). '' when no assistant turn has text.
 */
export function lastAssistantText(turns: readonly Turn[]): string {
  for (let i = turns.length - 1; i >= 0; i--) {
    const turn = turns[i];
    if (turn?.role !== 'assistant') continue;
    const text = answerOf(turn);
    if (text !== '') return text;
  }
  return '';
}

function answerOf(turn: Turn): string {
  const text = turnText(turn);
  return isBlank(text) ? '' : text;
}
