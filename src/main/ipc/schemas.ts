/**
 * JSON Schemas for every invoke payload. Keyed by the contract, so a channel without a schema does not compile.
 * Payloads come from the renderer, which is untrusted as far as main is concerned.
 */
import type { InvokeChannel } from '../../shared/ipc';

type Schema = Record<string, unknown>;

const empty: Schema = { type: 'object', additionalProperties: false, properties: {} };
const id: Schema = { type: 'string', minLength: 1, maxLength: 200 };

export const payloadSchemas: Record<InvokeChannel, Schema> = {
  'conversations:list': empty,
  'conversations:open': {
    type: 'object',
    additionalProperties: false,
    required: ['conversationId'],
    properties: { conversationId: id },
  },
  'conversations:delete': {
    type: 'object',
    additionalProperties: false,
    required: ['conversationId'],
    properties: { conversationId: id },
  },
  'chat:send': {
    type: 'object',
    additionalProperties: false,
    required: ['conversationId', 'text', 'model'],
    properties: {
      conversationId: { anyOf: [id, { type: 'null' }] },
      text: { type: 'string', minLength: 1, maxLength: 4_000_000 },
      model: { type: 'string', minLength: 1, maxLength: 300 },
    },
  },
  'chat:stop': { type: 'object', additionalProperties: false, required: ['turnId'], properties: { turnId: id } },
  'models:list': empty,
  'settings:get': empty,
  'settings:update': {
    type: 'object',
    additionalProperties: false,
    properties: {
      ollamaUrl: { type: 'string', minLength: 1, maxLength: 2000, pattern: '^https?://' },
      defaultModel: { anyOf: [{ type: 'string', minLength: 1, maxLength: 300 }, { type: 'null' }] },
    },
  },
};
