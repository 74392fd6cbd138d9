import { isBlank, type Block } from '../turn';

/**
 * Trim once, at the drain (DESIGN.md §4, seed 002). When a think tag was consumed, the bytes around the tags
 * (`</think>\n\n`, `<think>\n`) leave blank lines at the edges of the answer and of the extracted reasoning.
 * They are trimmed over the JOINED runs, never per run, so a paragraph break that separates two runs (text,
 * tool call, text) survives while the residue at the very start and end dies.
 *
 * Decisions:
 * - Only whole blank lines go at the start (the first line's own indentation may be Markdown, e.g. code);
 *   at the end everything from the first line break of the trailing whitespace goes. Blank text becomes ''.
 * - Joined text runs are trimmed, and joined inline reasoning. Native reasoning never passed through tags and
 *   is left byte-faithful.
 * - Text and reasoning blocks left empty are dropped; other blocks keep their order.
 *
 * Returns the blocks, and which of the given ones stayed (`kept[i]` for `blocks[i]`): a reasoning block's timing
 * goes by its place among the reasoning blocks (turn-timing.ts), so the figures of dropped ones go with them.
 */
export function drainEdges(blocks: readonly Block[]): { blocks: Block[]; kept: boolean[] } {
  if (!blocks.some(isInlineReasoning)) return { blocks: [...blocks], kept: blocks.map(() => true) };
  const trimmed = trimJoined(trimJoined([...blocks], isText), isInlineReasoning);
  const kept = trimmed.map((block) => !((isText(block) || isInlineReasoning(block)) && block.text === ''));
  return { blocks: trimmed.filter((_, i) => kept[i]), kept };
}

type Run = Extract<Block, { type: 'text' } | { type: 'reasoning' }>;

function isText(block: Block): block is Run {
  return block.type === 'text';
}

function isInlineReasoning(block: Block): block is Run {
  return block.type === 'reasoning' && block.origin === 'inline';
}

/** Cuts the joined blank edges of the picked blocks out of those blocks, spanning block borders as needed. */
function trimJoined(blocks: Block[], pick: (block: Block) => block is Run): Block[] {
  const picked: number[] = [];
  blocks.forEach((block, i) => {
    if (pick(block)) picked.push(i);
  });
  const joined = picked.map((i) => (blocks[i] as Run).text).join('');
  const [lead, trail] = edgeLengths(joined);
  if (lead === 0 && trail === 0) return blocks;
  const texts = picked.map((i) => (blocks[i] as Run).text);
  let cut = lead;
  for (let k = 0; k < texts.length && cut > 0; k++) {
    const text = texts[k] ?? '';
    const n = Math.min(cut, text.length);
    texts[k] = text.slice(n);
    cut -= n;
  }
  cut = trail;
  for (let k = texts.length - 1; k >= 0 && cut > 0; k--) {
    const text = texts[k] ?? '';
    const n = Math.min(cut, text.length);
    texts[k] = text.slice(0, text.length - n);
    cut -= n;
  }
  const out = blocks.slice();
  picked.forEach((i, k) => {
    const block = blocks[i] as Run;
    const text = texts[k] ?? '';
    if (text !== block.text) out[i] = { ...block, text };
  });
  return out;
}

/** How many chars of blank edge lines lead and trail `text`; blank text is all lead. */
export function edgeLengths(text: string): [lead: number, trail: number] {
  if (isBlank(text)) return [text.length, 0];
  let start = 0;
  while (start < text.length && /\s/.test(text.charAt(start))) start++;
  // Through the last line break inside the leading whitespace: whole blank lines only.
  const lead = start === 0 ? 0 : text.lastIndexOf('\n', start - 1) + 1;
  let end = text.length;
  while (end > 0 && /\s/.test(text.charAt(end - 1))) end--;
  const trailing = text.slice(end);
  const firstBreak = trailing.search(/[\r\n]/);
  return [lead, firstBreak < 0 ? 0 : trailing.length - firstBreak];
}
