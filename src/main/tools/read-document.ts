import type { AttachmentBlock } from '../../shared/turn';
import type { Tool, ToolContext } from './types';
import { argNumber, argString, toolError } from './types';
import { decodeText } from '../blobs/text-encoding';

/** Most characters one call returns: enough for a section, small enough that a loop of reads fits a window. */
export const READ_DOCUMENT_MAX_CHARS = 20_000;

/**
 * A line range of a text or document attachment of this conversation (a PDF or Word file by its extracted text),
 * so the model can quote exact lines, or read pages the user left out of the message.
 */
export const readDocumentTool: Tool = {
  schema: {
    name: 'read_document',
    description:
      'Reads lines of a text document attached to this conversation. Name the document as attached; lines are 1-based and inclusive.',
    parameters: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'The attachment file name' },
        start_line: { type: 'integer', minimum: 1 },
        end_line: { type: 'integer', minimum: 1 },
      },
      required: ['name'],
      additionalProperties: false,
    },
  },
  needsApproval: false,
  run(args, ctx) {
    return Promise.resolve(readDocument(argString(args, 'name') ?? '', argNumber(args, 'start_line'), argNumber(args, 'end_line'), ctx));
  },
};

function readDocument(name: string, start: number | undefined, end: number | undefined, ctx: ToolContext) {
  const docs = attachedDocuments(ctx);
  const doc = docs.find((d) => d.name === name);
  if (!doc) {
    const known = docs.map((d) => d.name);
    return toolError(`No text document named ${JSON.stringify(name)} is attached.${known.length ? ` Attached: ${known.join(', ')}.` : ''}`);
  }
  // A PDF or Word file is read as its extracted text, never as its compressed bytes.
  const extracted = ctx.documentText?.(doc);
  const bytes = extracted === undefined ? ctx.readBlob(doc.id) : undefined;
  if (extracted === undefined && !bytes) return toolError(`${name} is no longer stored.`);
  if (extracted === undefined && doc.kind === 'document') return toolError(`The text of ${name} could not be read.`);
  const lines = (extracted ?? decodeText(bytes ?? new Uint8Array()).text).split('\n');
  const from = Math.max(1, Math.floor(start ?? 1));
  const to = Math.min(lines.length, Math.floor(end ?? lines.length));
  if (from > lines.length) return toolError(`${name} has ${lines.length} lines; start_line ${from} is past the end.`);
  let text = lines.slice(from - 1, to).join('\n');
  let note = `[${name}: lines ${from}-${to} of ${lines.length}]`;
  if (text.length > READ_DOCUMENT_MAX_CHARS) {
    text = text.slice(0, READ_DOCUMENT_MAX_CHARS);
    note += ` (cut at ${READ_DOCUMENT_MAX_CHARS} characters; ask for fewer lines)`;
  }
  return { content: `${note}\n${text}`, isError: false };
}

function attachedDocuments(ctx: ToolContext): AttachmentBlock[] {
  const out: AttachmentBlock[] = [];
  for (const turn of ctx.history) {
    for (const b of turn.blocks) if (b.type === 'attachment' && b.kind !== 'image') out.push(b);
  }
  return out;
}
