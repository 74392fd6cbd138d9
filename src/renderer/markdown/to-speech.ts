/**
 * An answer's markdown as text to be spoken: what the screen-reader announcer (components/frame/Announcer.tsx)
 * says when an answer finishes. Read from markdown-it's tokens, the same parse the chat is drawn from, so no
 * markup is spoken: no heading marks, asterisks, backticks or table pipes. Each block (paragraph, heading, list
 * item, table row) becomes a sentence of its own, so a reader pauses between them; a list item keeps its number;
 * a table says how many rows it has and reads each row's cells with commas; a link is read by its text; a code
 * block of more than one line is named (its language and length), not read out, because the chat holds it and
 * speech of code in a live region cannot be paused or stepped through. Pure, tested without a DOM.
 */
import type { Token } from 'markdown-it';
import { parseMarkdown } from './to-html';

/** Blocks are separated by a blank line: the announcer cuts a long text at one (announcement.ts). */
const BLOCK_BREAK = '\n\n';
/** Ends a spoken block already: no period is added after these. */
const ENDS_SENTENCE = /[.!?:;…)"'”’]$/;

export function speechText(markdown: string): string {
  const blocks: string[] = [];
  const tokens = parseMarkdown(markdown);
  let prefix = '';
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    switch (token.type) {
      case 'list_item_open':
        // An ordered item's number is in `info` (markdown-it 13+); a bullet is not spoken.
        prefix = token.info ? `${token.info}. ` : '';
        break;
      case 'inline':
        push(blocks, prefix + inlineText(token.children ?? []));
        prefix = '';
        break;
      case 'fence':
      case 'code_block':
        push(blocks, codeBlock(token));
        break;
      case 'math_block':
        push(blocks, `Formula: ${token.content.trim()}`);
        break;
      case 'table_open':
        i = table(tokens, i, blocks);
        break;
    }
  }
  return blocks.join(BLOCK_BREAK);
}

function push(blocks: string[], text: string): void {
  const spoken = text.replace(/\s+/g, ' ').trim();
  if (spoken === '') return;
  blocks.push(ENDS_SENTENCE.test(spoken) ? spoken : `${spoken}.`);
}

function inlineText(children: readonly Token[]): string {
  let out = '';
  for (const child of children) {
    switch (child.type) {
      case 'text':
      case 'text_special':
      case 'code_inline':
      case 'math_inline':
      case 'math_display_inline':
        out += child.content;
        break;
      // A task item's box (task-items.ts), said as what it means.
      case 'task_box':
        out += (child.meta as { done?: boolean } | null)?.done === true ? 'Done:' : 'To do:';
        break;
      // A line break inside a block is a space in speech (push collapses white space anyway).
      case 'softbreak':
      case 'hardbreak':
        out += ' ';
        break;
    }
  }
  return out;
}

function codeBlock(token: Token): string {
  const code = token.content.replace(/\n$/, '');
  const language = token.info.trim().split(/\s+/)[0] ?? '';
  const lines = code === '' ? 0 : code.split('\n').length;
  if (lines <= 1) return code === '' ? '' : `Code: ${code}`;
  return `Code${language ? ` in ${language}` : ''}, ${lines} lines, shown in the chat`;
}

/** Reads the table that opens at `open` into `blocks`; returns the index of its closing token. */
function table(tokens: readonly Token[], open: number, blocks: string[]): number {
  let close = open;
  const rows: string[][] = [];
  for (; close < tokens.length && tokens[close]!.type !== 'table_close'; close++) {
    const token = tokens[close]!;
    if (token.type === 'tr_open') rows.push([]);
    else if (token.type === 'inline') rows[rows.length - 1]?.push(inlineText(token.children ?? []).trim());
  }
  // The header row is read like the others; the count is of the rows under it.
  const body = Math.max(0, rows.length - 1);
  push(blocks, `Table, ${body} ${body === 1 ? 'row' : 'rows'}:`);
  for (const row of rows) push(blocks, row.filter((cell) => cell !== '').join(', '));
  return close;
}
