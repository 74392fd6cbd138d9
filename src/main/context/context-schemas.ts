/** JSON Schemas of the out-of-room payloads (issue 21), merged into ipc/schemas.ts. */
import type { ContextInvokeContract } from '../../shared/context-ipc';
import { attachmentBlock } from '../ipc/attachment-block-schema';

type Schema = Record<string, unknown>;

const empty: Schema = { type: 'object', additionalProperties: false, properties: {} };
const id: Schema = { type: 'string', minLength: 1, maxLength: 200 };
const model: Schema = { type: 'string', minLength: 1, maxLength: 1000 };
const digest: Schema = { type: 'string', pattern: '^[0-9a-f]{64}$' };
const obj = (required: string[], properties: Record<string, Schema>): Schema => ({ type: 'object', additionalProperties: false, required, properties });
// As `chat:send` carries a new chat's settings (ipc/schemas.ts).
const draftSettings = obj(['systemPrompt', 'think'], {
  systemPrompt: { type: 'string', maxLength: 200_000 },
  think: { anyOf: [{ enum: ['off', 'on', 'low', 'medium', 'high'] }, { type: 'null' }] },
  tools: { type: 'boolean' },
});
const target = { conversationId: { anyOf: [id, { type: 'null' }] }, model, connectionId: id, draftSettings };
const summarizer = obj(['model'], { model, connectionId: id });
// As `chat:edit-and-resend` carries the edit (ipc/schemas.ts).
const edit = obj(['turnId', 'text'], {
  turnId: id,
  text: { type: 'string', maxChars: 4_000_000 },
  keepAttachments: { type: 'array', maxItems: 32, items: { type: 'integer', minimum: 0, maximum: 31 } },
  attachments: { type: 'array', maxItems: 32, items: attachmentBlock },
});

const choice: Schema = {
  oneOf: [
    obj(['kind', 'window'], { kind: { const: 'larger-window' }, window: { type: 'integer', minimum: 256, maximum: 10_000_000 } }),
    obj(['kind', 'keepFrom'], { kind: { const: 'summarize' }, keepFrom: id, summarizer }),
    obj(['kind', 'keepFrom'], { kind: { const: 'drop-oldest' }, keepFrom: id }),
    obj(['kind', 'turnId', 'item'], {
      kind: { const: 'drop-item' },
      turnId: id,
      item: { oneOf: [obj(['kind', 'id'], { kind: { const: 'attachment' }, id: digest }), obj(['kind', 'toolCallId'], { kind: { const: 'tool_result' }, toolCallId: id })] },
    }),
    obj(['kind'], { kind: { const: 'new-chat' }, summarizer }),
    obj(['kind'], { kind: { const: 'answer-waiting' } }),
  ],
};

export const contextPayloadSchemas: Record<keyof ContextInvokeContract, Schema> = {
  // The composer's draft, counted as the message it would be (as long as a message may be: chat:send's text).
  // `before`: the sent message the edit form edits (the request is the chat before it, the draft the edited text).
  'context:measure': obj(['conversationId', 'model'], { ...target, draft: { type: 'string', maxChars: 4_000_000 }, before: id }),
  'context:plan': obj(['conversationId', 'model'], { ...target, keepFrom: id, extraTokens: { type: 'integer', minimum: 0, maximum: 100_000_000 }, edit }),
  'context:apply': obj(['conversationId', 'model', 'choice'], { ...target, think: { type: 'boolean' }, choice, edit }),
  'context:cancel': obj(['conversationId'], { conversationId: id }),
  'context:auto-compact': empty,
  'context:set-auto-compact': obj(['kind', 'id', 'threshold'], {
    kind: { enum: ['connection', 'alias'] },
    id,
    threshold: { anyOf: [{ type: 'number', minimum: 0.5, maximum: 0.98 }, { type: 'null' }] },
  }),
};
