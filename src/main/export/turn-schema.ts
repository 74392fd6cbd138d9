/**
 * The JSON Schema an imported turn must meet: as strict as an IPC payload (issue 15: a text block whose `text`
 * was not a string blanked the whole UI). Every field the app reads is type-checked; fields a later version may
 * add are allowed through untouched (the format version, not this schema, refuses files from the future).
 */
import { TURN_STATUSES } from '../../shared/turn';

type Schema = Record<string, unknown>;

const str: Schema = { type: 'string' };
const id: Schema = { type: 'string', minLength: 1, maxLength: 200 };
const count: Schema = { type: 'number', minimum: 0 };

const blockSchemas: Schema[] = [
  { type: 'object', required: ['type', 'text'], properties: { type: { const: 'text' }, text: str } },
  { type: 'object', required: ['type', 'text', 'origin'], properties: { type: { const: 'reasoning' }, text: str, origin: { enum: ['native', 'inline'] }, signature: str, redacted: str } },
  {
    type: 'object',
    required: ['type', 'id', 'name', 'state', 'argumentsRaw'],
    properties: {
      type: { const: 'tool_call' },
      id: str,
      name: str,
      state: { enum: ['streaming', 'complete', 'invalid', 'truncated'] },
      argumentsRaw: str,
      error: str,
    },
  },
  {
    type: 'object',
    required: ['type', 'toolCallId', 'name', 'content', 'isError'],
    properties: { type: { const: 'tool_result' }, toolCallId: str, name: str, content: str, isError: { type: 'boolean' }, note: str },
  },
  {
    type: 'object',
    required: ['type', 'id', 'kind', 'name', 'mime', 'size'],
    properties: {
      type: { const: 'attachment' },
      id: { type: 'string', pattern: '^[0-9a-f]{64}$' },
      kind: { enum: ['image', 'document', 'text'] },
      name: { type: 'string', minLength: 1, maxLength: 500 },
      mime: { type: 'string', minLength: 1, maxLength: 200 },
      size: { type: 'integer', minimum: 0 },
      toolCallId: str,
    },
  },
];

export const importedTurnSchema: Schema = {
  type: 'object',
  required: ['id', 'conversationId', 'parentId', 'role', 'blocks', 'meta', 'status', 'createdAt'],
  properties: {
    id,
    conversationId: id,
    parentId: { anyOf: [id, { type: 'null' }] },
    role: { enum: ['user', 'assistant', 'system', 'tool'] },
    blocks: {
      type: 'array',
      items: {
        type: 'object',
        required: ['type'],
        properties: { type: { enum: ['text', 'reasoning', 'tool_call', 'tool_result', 'attachment'] } },
        // The matching block shape for its `type` (a discriminated union, checked branch by branch).
        oneOf: blockSchemas,
      },
    },
    source: { type: 'string', maxLength: 200 },
    meta: { type: 'object' },
    status: { enum: [...TURN_STATUSES] },
    stop: { type: 'string', maxLength: 200 },
    wireReason: { anyOf: [{ type: 'string', maxLength: 200 }, { type: 'null' }] },
    usage: {
      type: 'object',
      properties: { inputTokens: count, outputTokens: count, promptMs: count, generationMs: count, generatedTokens: count, totalMs: count },
    },
    model: { type: 'string', maxLength: 300 },
    error: str,
    createdAt: { type: 'number' },
  },
};
