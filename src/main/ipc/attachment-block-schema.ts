/** An attachment block as a payload carries it (chat:send, chat:edit-and-resend, the edit form's Make room). */
export const attachmentBlock: Record<string, unknown> = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'id', 'kind', 'name', 'mime', 'size'],
  properties: {
    type: { const: 'attachment' },
    id: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    kind: { enum: ['image', 'document', 'text'] },
    name: { type: 'string', minLength: 1, maxLength: 500 },
    mime: { type: 'string', minLength: 1, maxLength: 200 },
    size: { type: 'integer', minimum: 0 },
    pages: {
      type: 'object',
      additionalProperties: false,
      required: ['from', 'to'],
      properties: { from: { type: 'integer', minimum: 1, maximum: 100_000 }, to: { type: 'integer', minimum: 1, maximum: 100_000 } },
    },
  },
};
