import { isRefusedAnswer, systemCardTitle } from '../../shared/system-turns';
import { isBlank, type AttachmentBlock, type Block, type Turn } from '../../shared/turn';

/**
 * A document's or text file's extracted text, as the model read it; undefined where it could not be read. Absent:
 * no texts at hand (the attachments are then only named).
 */
export type DocumentTextOf = (block: AttachmentBlock) => string | undefined;

/**
 * The active branch as Markdown, for reading and sharing. Reasoning goes in a collapsed <details> section, a
 * blank answer is not shown, and system and tool cards become plain text. Text from the model or the user is
 * Markdown already; names and tool payloads go in code spans/fences so they cannot inject markup.
 */
export function branchToMarkdown(title: string, turns: readonly Turn[], documentText?: DocumentTextOf): string {
  const out: string[] = [`# ${oneLine(title)}`];
  for (const turn of turns) {
    const body = turnBody(turn, documentText);
    if (body.length === 0) continue;
    out.push(`## ${heading(turn)}`, ...body);
  }
  return `${out.join('\n\n')}\n`;
}

function heading(turn: Turn): string {
  if (turn.role === 'user') return 'You';
  if (turn.role === 'assistant') return turn.model ? `Assistant (${oneLine(turn.model)})` : 'Assistant';
  if (turn.role === 'tool') return 'Tool';
  // The card's name as the chat shows it; a kind without one is a note from Firebrand, not an internal name.
  return systemCardTitle(turn.source) ?? 'Note from Firebrand';
}

function turnBody(turn: Turn, documentText: DocumentTextOf | undefined): string[] {
  // Nothing was sent: the refusal card below it says so; it is no failed answer.
  if (isRefusedAnswer(turn)) return [];
  const parts: string[] = [];
  const reasoning = turn.blocks.filter((b) => b.type === 'reasoning').map((b) => (b.type === 'reasoning' ? b.text : ''));
  if (reasoning.some((r) => !isBlank(r))) {
    parts.push(`<details>\n<summary>Reasoning</summary>\n\n${fence(reasoning.join('\n\n').trim())}\n\n</details>`);
  }
  for (const block of turn.blocks) {
    const md = block.type === 'attachment' ? attachmentMarkdown(block, documentText) : blockMarkdown(block);
    if (md !== undefined) parts.push(md);
  }
  const hasAnswer = turn.blocks.some((b) => b.type !== 'reasoning' && blockMarkdown(b) !== undefined);
  // A reasoning-only (blank) answer is not an answer: drop the whole turn rather than show an empty one.
  // One that failed or is still streaming keeps its mark, text or not: the page shows it.
  if (turn.role === 'assistant' && !hasAnswer && turn.status !== 'error' && turn.status !== 'streaming') return [];
  if (turn.role === 'system' && parts.length === 0 && Object.keys(turn.meta).length > 0) parts.push(fence(JSON.stringify(turn.meta, null, 2), 'json'));
  const mark = statusMark(turn);
  if (mark) parts.push(mark);
  return parts;
}

/**
 * An answer that did not end well says so, as the page does (round 7: one that failed, or was still streaming when
 * exported, read as complete). The error is untrusted text (a server's): one line, in a code span.
 */
function statusMark(turn: Turn): string | undefined {
  switch (turn.status) {
    case 'interrupted':
    case 'cut':
    case 'aborted':
      return `*(answer ${turn.status})*`;
    case 'error':
      return turn.error ? `*(answer failed: \`${oneLine(turn.error).replaceAll('`', "'")}\`)*` : '*(answer failed)*';
    case 'streaming':
      return '*(answer still being written when this was exported)*';
    case 'done':
      return undefined;
  }
}

function blockMarkdown(block: Block): string | undefined {
  switch (block.type) {
    case 'text':
      // As stored: the one edge trim already happened at the drain, and a second would eat the first line's
      // indentation (an indented code block) (issue 16).
      return isBlank(block.text) ? undefined : block.text;
    case 'reasoning':
      return undefined;
    case 'attachment':
      return attachmentMarkdown(block, undefined);
    case 'tool_call':
      return `Tool call \`${oneLine(block.name).replaceAll('`', "'")}\` (${block.state}):\n\n${fence(block.argumentsRaw, 'json')}`;
    case 'tool_result':
      return `Tool result${block.isError ? ' (error)' : ''}:\n\n${fence(block.content)}`;
  }
}

/**
 * An attachment named, with a document's or text file's text in a fence under its name, so the file reads whole
 * for text; an image says plainly that it is not in the file (the export named attachments it did not hold).
 */
function attachmentMarkdown(block: AttachmentBlock, documentText: DocumentTextOf | undefined): string {
  const label = `\`${oneLine(block.name).replaceAll('`', "'")}\` (${block.mime}, ${block.size} bytes)`;
  if (block.kind === 'image') return `Image: ${label}. The image itself is not included in this Markdown export.`;
  if (!documentText) return `Attachment: ${label}`;
  const text = documentText(block);
  if (text === undefined) return `Attachment: ${label}. Its text could not be read, so it is not included.`;
  return `Attachment: ${label}:\n\n${fence(text.replace(/\s+$/u, ''))}`;
}

/** A fence longer than any backtick run inside, so untrusted content cannot close it. */
function fence(text: string, lang = ''): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(Math.max(3, longest + 1));
  return `${ticks}${lang}\n${text}\n${ticks}`;
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
