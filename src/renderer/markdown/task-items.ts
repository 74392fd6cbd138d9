/**
 * GFM task lists: models write to-do lists and checklists as "- [ ] step" and "- [x] done" (GitHub draws a box),
 * which markdown-it leaves as text, so an answer showed "[ ] step" with the brackets. An item whose text starts
 * with `[ ]`, `[x]` or `[X]` and a space gets a box in their place, ticked or not; it is a picture with a name
 * ("To do", "Done") for a screen reader, never a form field (nothing in an answer can be ticked or sent). A core rule,
 * so a streaming list drawn item by item (list-view.ts) gets the same box as the finished answer.
 */
import type { MarkdownIt, StateCore, Token } from 'markdown-it';

/** `[ ]`, `[x]` or `[X]`, then the item's words after a space or tab. */
const MARKER = /^\[([ xX])\][ \t]+(?=\S)/;

function markTasks(state: StateCore): void {
  const tokens = state.tokens;
  for (let i = 0; i + 2 < tokens.length; i++) {
    const item = tokens[i]!;
    const inline = tokens[i + 2]!;
    if (item.type !== 'list_item_open' || tokens[i + 1]!.type !== 'paragraph_open' || inline.type !== 'inline') continue;
    const first = inline.children?.[0];
    // Read in the source too: "- \[x\] text" escapes its brackets to keep them (fixture tex-delimiters.md).
    const match = first?.type === 'text' && MARKER.test(inline.content) ? MARKER.exec(first.content) : null;
    if (!first || !match) continue;
    // The words after the box keep one space before them, as GitHub draws it.
    first.content = ` ${first.content.slice(match[0].length)}`;
    const box = new state.Token('task_box', 'span', 0);
    box.meta = { done: match[1] !== ' ' };
    inline.children!.unshift(box);
    item.attrJoin('class', 'task');
  }
}

function drawBox(tokens: Token[], idx: number): string {
  const done = (tokens[idx]?.meta as { done?: boolean } | null)?.done === true;
  return done ? '<span class="task-box" role="img" aria-label="Done" data-done=""></span>' : '<span class="task-box" role="img" aria-label="To do"></span>';
}

export function taskItems(md: MarkdownIt): void {
  // After `text_join`, which merges the item's first words into one text token.
  md.core.ruler.push('task_items', markTasks);
  md.renderer.rules['task_box'] = drawBox;
}
