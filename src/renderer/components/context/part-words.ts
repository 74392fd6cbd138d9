/**
 * What takes the room in a request, part by part, in the words a refusal card uses (context audit #1): the meter
 * before sending says the same (tool definitions, system prompt, the draft with its files, earlier turns).
 */
import type { RefusalParts } from '../../../shared/system-turns';
import { formatExactTokens } from '../../format';

const PART_WORDS = [
  ['tools', 'Tool definitions'],
  ['system', 'System prompt'],
  ['message', 'Your message'],
  ['files', 'Its attached files'],
  ['earlier', 'Earlier turns'],
] as const;

export type PartKey = (typeof PART_WORDS)[number][0];

/** The parts present, in the card's order, each as "Tool definitions — 1,234 tokens" (no files row for none). */
export function partRows(parts: RefusalParts): { key: PartKey; tokens: number; text: string }[] {
  return PART_WORDS.filter(([key]) => parts[key] !== undefined && (key !== 'files' || (parts.files ?? 0) > 0)).map(([key, words]) => ({
    key,
    tokens: parts[key] ?? 0,
    text: `${words} — ${formatExactTokens(parts[key] ?? 0)} tokens`,
  }));
}
