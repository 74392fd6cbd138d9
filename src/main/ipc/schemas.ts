/**
 * JSON Schemas for every invoke payload. Keyed by the contract, so a channel without a schema does not compile.
 * Payloads come from the renderer, which is untrusted as far as main is concerned.
 */
import { base64Length, CONVERSATION_FILE_MAX_BYTES, IMPORT_CHUNK_BYTES } from '../../shared/file-limits';
import { CONVERSATION_PAGE_MAX, CONVERSATION_TITLE_MAX_CHARS, type InvokeChannel } from '../../shared/ipc';
import { SEARCH_QUERY_MAX_CHARS, SEARCH_RESULTS_MAX } from '../../shared/search-ipc';
import { contextPayloadSchemas } from '../context/context-schemas';
import { attachmentBlock } from './attachment-block-schema';
import { libraryPayloadSchemas } from '../library/library-schemas';
import { mcpPayloadSchemas } from '../mcp/mcp-schemas';
import { modelPayloadSchemas } from '../models/model-schemas';

type Schema = Record<string, unknown>;

const empty: Schema = { type: 'object', additionalProperties: false, properties: {} };
const id: Schema = { type: 'string', minLength: 1, maxLength: 200 };
const model: Schema = { type: 'string', minLength: 1, maxLength: 300 };
const messageText: Schema = { type: 'string', maxChars: 4_000_000 };
const digest: Schema = { type: 'string', pattern: '^[0-9a-f]{64}$' };
const thinkMode: Schema = { enum: ['off', 'on', 'low', 'medium', 'high'] };
const conversationSettings = {
  systemPrompt: { type: 'string', maxLength: 200_000 },
  think: { anyOf: [thinkMode, { type: 'null' }] },
  tools: { type: 'boolean' },
};

export const payloadSchemas: Record<InvokeChannel, Schema> = {
  ...modelPayloadSchemas,
  ...libraryPayloadSchemas,
  ...mcpPayloadSchemas,
  ...contextPayloadSchemas,
  'conversations:list': {
    type: 'object',
    additionalProperties: false,
    properties: {
      before: {
        type: 'object',
        additionalProperties: false,
        required: ['updatedAt', 'id'],
        properties: { updatedAt: { type: 'number' }, id },
      },
      limit: { type: 'integer', minimum: 1, maximum: CONVERSATION_PAGE_MAX },
    },
  },
  'conversations:open': {
    type: 'object',
    additionalProperties: false,
    required: ['conversationId'],
    properties: { conversationId: id, tail: { type: 'integer', minimum: 1, maximum: 1000 }, before: id },
  },
  'conversations:delete': {
    type: 'object',
    additionalProperties: false,
    required: ['conversationId'],
    properties: { conversationId: id, keepIfWrittenAfter: { type: 'integer', minimum: 0 } },
  },
  'conversations:rename': {
    type: 'object',
    additionalProperties: false,
    required: ['conversationId', 'title'],
    properties: { conversationId: id, title: { type: 'string', minLength: 1, maxLength: CONVERSATION_TITLE_MAX_CHARS } },
  },
  'conversations:export': {
    type: 'object',
    additionalProperties: false,
    required: ['conversationId', 'format'],
    properties: { conversationId: id, format: { enum: ['json', 'markdown'] } },
  },
  'conversations:export-all': { type: 'object', additionalProperties: false, properties: {} },
  // An export carries its attachments as base64: allow what the socket allows (64 MiB). `maxChars` (a plain length
  // check, src/main/ipc/dispatch.ts) for strings this large.
  // `name`: the file's name as picked, for its refusals ("The import of “tea.firebrand.json” …"), as import-begin's.
  'conversations:import': {
    type: 'object',
    additionalProperties: false,
    required: ['text'],
    properties: { text: { type: 'string', minLength: 1, maxChars: 64 * 1024 * 1024 }, name: { type: 'string', maxLength: 500 } },
  },
  // The size is checked by the handler, which names the limit (CONVERSATION_FILE_MAX_BYTES) in its refusal.
  'conversations:import-begin': {
    type: 'object',
    additionalProperties: false,
    required: ['size'],
    properties: { size: { type: 'integer', minimum: 0 }, name: { type: 'string', maxLength: 500 } },
  },
  'conversations:import-chunk': {
    type: 'object',
    additionalProperties: false,
    required: ['uploadId', 'offset', 'dataBase64'],
    properties: {
      uploadId: id,
      offset: { type: 'integer', minimum: 0, maximum: CONVERSATION_FILE_MAX_BYTES },
      dataBase64: { type: 'string', minLength: 1, maxChars: base64Length(IMPORT_CHUNK_BYTES) },
    },
  },
  'conversations:import-finish': { type: 'object', additionalProperties: false, required: ['uploadId'], properties: { uploadId: id } },
  'conversations:import-cancel': { type: 'object', additionalProperties: false, required: ['uploadId'], properties: { uploadId: id } },
  'conversations:search': {
    type: 'object',
    additionalProperties: false,
    required: ['query'],
    properties: { query: { type: 'string', maxLength: SEARCH_QUERY_MAX_CHARS }, limit: { type: 'integer', minimum: 1, maximum: SEARCH_RESULTS_MAX } },
  },
  'conversations:switch-branch': { type: 'object', additionalProperties: false, required: ['turnId'], properties: { turnId: id } },
  'chat:send': {
    type: 'object',
    additionalProperties: false,
    required: ['conversationId', 'text', 'model'],
    properties: {
      conversationId: { anyOf: [id, { type: 'null' }] },
      text: messageText,
      model,
      attachments: { type: 'array', maxItems: 32, items: attachmentBlock },
      think: { anyOf: [{ type: 'boolean' }, { enum: ['off', 'on', 'low', 'medium', 'high'] }] },
      connectionId: id,
      conversationSettings: { type: 'object', additionalProperties: false, required: ['systemPrompt', 'think'], properties: conversationSettings },
      fromDraft: { type: 'boolean' },
    },
    // Text may be empty only when attachments ride along.
    anyOf: [
      { type: 'object', properties: { text: { type: 'string', minLength: 1 } } },
      { type: 'object', required: ['attachments'], properties: { attachments: { type: 'array', minItems: 1 } } },
    ],
  },
  'chat:regenerate': {
    type: 'object',
    additionalProperties: false,
    required: ['turnId', 'model'],
    properties: { turnId: id, model, think: { type: 'boolean' }, connectionId: id },
  },
  'chat:edit-and-resend': {
    type: 'object',
    additionalProperties: false,
    required: ['turnId', 'text', 'model'],
    properties: {
      turnId: id,
      text: { type: 'string', maxChars: 4_000_000 },
      model,
      think: { type: 'boolean' },
      connectionId: id,
      keepAttachments: { type: 'array', maxItems: 32, items: { type: 'integer', minimum: 0, maximum: 31 } },
      attachments: { type: 'array', maxItems: 32, items: attachmentBlock },
    },
  },
  'conversations:get-settings': { type: 'object', additionalProperties: false, required: ['conversationId'], properties: { conversationId: id } },
  'conversations:update-settings': {
    type: 'object',
    additionalProperties: false,
    required: ['conversationId', 'systemPrompt', 'think'],
    properties: { conversationId: id, ...conversationSettings },
  },
  // 20 MiB of bytes is ~27 MiB of base64; the blob store enforces the byte limit with a message for the user.
  'attachments:add': {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'mime', 'dataBase64'],
    properties: {
      name: { type: 'string', minLength: 1, maxLength: 500 },
      mime: { type: 'string', minLength: 1, maxLength: 200 },
      dataBase64: { type: 'string', maxChars: 28_000_000 },
    },
  },
  'attachments:get': { type: 'object', additionalProperties: false, required: ['id'], properties: { id: digest } },
  'attachments:inspect': {
    type: 'object',
    additionalProperties: false,
    required: ['block', 'model'],
    properties: { block: attachmentBlock, model, connectionId: id },
  },
  'attachments:preview': { type: 'object', additionalProperties: false, required: ['block'], properties: { block: attachmentBlock } },
  'chat:stop': { type: 'object', additionalProperties: false, required: ['turnId'], properties: { turnId: id } },
  'models:list': { type: 'object', additionalProperties: false, properties: { connectionId: id } },
  'settings:get': empty,
  'drafts:list': empty,
  'drafts:save': {
    type: 'object',
    additionalProperties: false,
    required: ['conversationId', 'text', 'attachments'],
    properties: { conversationId: { anyOf: [id, { type: 'null' }] }, text: messageText, attachments: { type: 'array', maxItems: 32, items: attachmentBlock } },
  },
  'drafts:save-new-chat-settings': {
    type: 'object',
    additionalProperties: false,
    required: ['settings'],
    properties: { settings: { type: 'object', additionalProperties: false, required: ['systemPrompt', 'think', 'tools'], properties: conversationSettings } },
  },
  'drafts:hold-edit-files': {
    type: 'object',
    additionalProperties: false,
    required: ['edits'],
    properties: {
      edits: {
        type: 'array',
        maxItems: 1000,
        items: { type: 'object', additionalProperties: false, required: ['turnId', 'attachments'], properties: { turnId: id, attachments: { type: 'array', maxItems: 32, items: attachmentBlock } } },
      },
    },
  },
  'connections:list': empty,
  'connections:save': {
    type: 'object',
    additionalProperties: false,
    required: ['kind', 'label', 'baseUrl'],
    properties: {
      id,
      kind: { enum: ['ollama', 'llama-server', 'openai-compatible', 'anthropic'] },
      label: { type: 'string', maxLength: 200 },
      baseUrl: { type: 'string', minLength: 1, maxLength: 2000, pattern: '^https?://' },
      apiKey: { type: 'string', maxLength: 4000 },
    },
  },
  'connections:delete': { type: 'object', additionalProperties: false, required: ['id'], properties: { id } },
  'connections:test': { type: 'object', additionalProperties: false, required: ['id'], properties: { id, baseUrl: { type: 'string', pattern: '^https?://', maxLength: 2000 } } },
  'connections:key-storage': empty,
  'chat:approve-tool': {
    type: 'object',
    additionalProperties: false,
    required: ['conversationId', 'turnId', 'toolCallId', 'decision'],
    properties: { conversationId: id, turnId: id, toolCallId: id, decision: { enum: ['allow-once', 'allow-conversation', 'allow-always', 'deny'] } },
  },
  'settings:update': {
    type: 'object',
    additionalProperties: false,
    properties: {
      ollamaUrl: { type: 'string', minLength: 1, maxLength: 2000, pattern: '^https?://' },
      defaultModel: { anyOf: [{ type: 'string', minLength: 1, maxLength: 300 }, { type: 'null' }] },
      defaultChatModel: { anyOf: [{ type: 'string', minLength: 1, maxLength: 300 }, { type: 'null' }] },
      activeConnectionId: id,
      theme: { enum: ['light', 'dark', 'system'] },
      modelsDir: { anyOf: [{ type: 'string', minLength: 1, maxLength: 4000 }, { type: 'null' }] },
      builtinIdleMinutes: { type: 'integer', minimum: 0, maximum: 10_080 },
    },
  },
};
