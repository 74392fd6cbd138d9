import { describe, expect, it } from 'vitest';
import { branchToMarkdown } from '../../../src/main/export/markdown';
import type { Turn } from '../../../src/shared/turn';
import { makeTurn, text } from '../db/helpers';

const c = 'c';
const turns: Turn[] = [
  makeTurn({ id: 'u', conversationId: c, blocks: [...text('Plot this'), { type: 'attachment', id: 'f'.repeat(64), kind: 'image', name: 'a`b.png', mime: 'image/png', size: 12 }] }),
  makeTurn({ id: 'a', conversationId: c, role: 'assistant', model: 'qwen3', blocks: [{ type: 'reasoning', text: 'Let me think.', origin: 'native' }, ...text('Here it is.')] }),
  makeTurn({ id: 'blank', conversationId: c, role: 'assistant', blocks: [{ type: 'reasoning', text: 'hmm', origin: 'inline' }, ...text('  \n')] }),
  makeTurn({ id: 's', conversationId: c, role: 'system', source: 'context-refused', meta: { needed: 9000 }, blocks: text('The conversation no longer fits.') }),
  makeTurn({ id: 't', conversationId: c, role: 'assistant', blocks: [{ type: 'tool_call', id: 'k', name: 'search', state: 'complete', argumentsRaw: '{"q":"```"}', arguments: { q: '```' } }] }),
  makeTurn({ id: 'r', conversationId: c, role: 'tool', blocks: [{ type: 'tool_result', toolCallId: 'k', name: 'search', content: 'no results', isError: false }] }),
  makeTurn({ id: 'i', conversationId: c, role: 'assistant', status: 'interrupted', blocks: text('Half an') }),
];

describe('branchToMarkdown', () => {
  const md = branchToMarkdown('Plots\nand charts', turns);

  it('renders the branch in order with reasoning collapsed', () => {
    expect(md.startsWith('# Plots and charts\n\n## You\n\nPlot this\n\nImage: `a\'b.png` (image/png, 12 bytes). The image itself is not included in this Markdown export.')).toBe(true);
    expect(md).toContain('## Assistant (qwen3)\n\n<details>\n<summary>Reasoning</summary>\n\n```\nLet me think.\n```\n\n</details>\n\nHere it is.');
  });

  it('does not show blank answers', () => {
    expect(md).not.toContain('hmm');
    expect(md.match(/## Assistant/g)).toHaveLength(3);
  });

  it('renders system and tool cards as text, fenced so payloads cannot break out', () => {
    expect(md).toContain('## Not sent: the conversation is longer than the context window\n\nThe conversation no longer fits.');
    expect(md).toContain('Tool call `search` (complete):\n\n````json\n{"q":"```"}\n````');
    expect(md).toContain('## Tool\n\nTool result:\n\n```\nno results\n```');
    expect(md).toContain('Half an\n\n*(answer interrupted)*');
  });

  // The export named attachments without them: a reader of the file could not see what the model was given.
  it('holds each document’s text under its name, fenced, and says an image is not in the file', () => {
    const doc = (id: string, name: string, mime: string) => ({ type: 'attachment' as const, id: id.repeat(64), kind: 'document' as const, name, mime, size: 900 });
    const report = doc('a', 'report.pdf', 'application/pdf');
    const notes = { ...doc('b', 'notes.md', 'text/markdown'), kind: 'text' as const };
    const broken = doc('c', 'locked.pdf', 'application/pdf');
    const image = { type: 'attachment' as const, id: 'd'.repeat(64), kind: 'image' as const, name: 'chart.png', mime: 'image/png', size: 12 };
    const turn = makeTurn({ id: 'u', conversationId: c, blocks: [...text('Summarize these'), report, notes, broken, image] });
    const texts = new Map([[report.id, '[page 1]\nRevenue rose 4 %.\n'], [notes.id, '# Notes\n\n```js\nx()\n```']]);
    const out = branchToMarkdown('Docs', [turn], (b) => texts.get(b.id));
    expect(out).toContain('Attachment: `report.pdf` (application/pdf, 900 bytes):\n\n```\n[page 1]\nRevenue rose 4 %.\n```');
    // A fence longer than any inside, so the file's own code block cannot close it.
    expect(out).toContain('Attachment: `notes.md` (text/markdown, 900 bytes):\n\n````\n# Notes\n\n```js\nx()\n```\n````');
    expect(out).toContain('Attachment: `locked.pdf` (application/pdf, 900 bytes). Its text could not be read, so it is not included.');
    expect(out).toContain('Image: `chart.png` (image/png, 12 bytes). The image itself is not included in this Markdown export.');
  });

  // Keyboard audit #6: the heading was the internal source name ("## System: tool-approval").
  it('heads a system card with the name the chat gives it, never its internal source', () => {
    const card = makeTurn({ id: 'ap', conversationId: c, role: 'system', source: 'tool-approval', blocks: text('fetch_url was allowed to run.') });
    const other = makeTurn({ id: 'x', conversationId: c, role: 'system', source: 'some-new-kind', blocks: text('A note.') });
    const out = branchToMarkdown('Cards', [card, other]);
    expect(out).toContain('## Tool approval\n\nfetch_url was allowed to run.');
    expect(out).toContain('## Note from Firebrand\n\nA note.');
    expect(out).not.toMatch(/tool-approval|some-new-kind/);
  });

  it("keeps the Turn's text as stored: the first line's code indentation survives (issue 16)", () => {
    const code = makeTurn({ id: 'code', conversationId: c, role: 'assistant', blocks: text('    const x = 1;\n    return x;\n\nThat is all.') });
    expect(branchToMarkdown('Code', [code])).toContain('## Assistant\n\n    const x = 1;\n    return x;\n\nThat is all.');
  });

  // Round 7: an answer that failed, or was still streaming when exported, read as a complete one.
  it('marks an answer that failed, with its error as text, and one still being written', () => {
    const failed = makeTurn({ id: 'f', conversationId: c, role: 'assistant', status: 'error', error: 'Disk full: `what` arrived\nis kept', blocks: text('Trams climb by') });
    const failedEarly = makeTurn({ id: 'g', conversationId: c, role: 'assistant', status: 'error', error: 'Cannot reach Ollama.', blocks: [] });
    const streaming = makeTurn({ id: 'h', conversationId: c, role: 'assistant', status: 'streaming', blocks: text('So far') });
    const out = branchToMarkdown('Marks', [failed, failedEarly, streaming]);
    expect(out).toContain("Trams climb by\n\n*(answer failed: `Disk full: 'what' arrived is kept`)*");
    expect(out).toContain('## Assistant\n\n*(answer failed: `Cannot reach Ollama.`)*');
    expect(out).toContain('So far\n\n*(answer still being written when this was exported)*');
  });
});
