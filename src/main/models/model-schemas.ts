/**
 * JSON Schemas for the model manager's invoke payloads (merged into src/main/ipc/schemas.ts).
 */
import type { ModelInvokeContract } from '../../shared/models-ipc';
import { ALIAS_NAME_PATTERN } from '../aliases/alias-create-body';

type Schema = Record<string, unknown>;

const empty: Schema = { type: 'object', additionalProperties: false, properties: {} };
const modelName: Schema = { type: 'string', minLength: 1, maxLength: 300, pattern: '^[^\\s]+$' };
const id: Schema = { type: 'string', minLength: 1, maxLength: 200 };
const only = (properties: Record<string, Schema>, required = Object.keys(properties)): Schema => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
});
const finite = (minimum: number, maximum: number): Schema => ({ type: 'number', minimum, maximum });

const aliasInput: Schema = only({
  name: { type: 'string', pattern: ALIAS_NAME_PATTERN },
  connectionId: { type: 'string', minLength: 1, maxLength: 2000 },
  model: modelName,
  systemPrompt: { type: 'string', maxLength: 200_000 },
  parameters: {
    type: 'object',
    additionalProperties: false,
    properties: {
      temperature: finite(0, 5),
      top_p: finite(0, 1),
      top_k: { type: 'integer', minimum: 0, maximum: 100_000 },
      min_p: finite(0, 1),
      num_predict: { type: 'integer', minimum: -2, maximum: 10_000_000 },
      repeat_penalty: finite(0, 10),
      seed: { type: 'integer', minimum: -2_147_483_648, maximum: 4_294_967_295 },
    },
  },
  thinkMode: { enum: ['off', 'on', 'low', 'medium', 'high'] },
  contextWindow: { anyOf: [{ type: 'integer', minimum: 256, maximum: 10_000_000 }, { type: 'null' }] },
});

export const modelPayloadSchemas: Record<keyof ModelInvokeContract, Schema> = {
  'models:show': only({ model: modelName }),
  'models:pull': only({ model: modelName }),
  'models:cancel-pull': only({ pullId: id }),
  'models:pulls': empty,
  'models:delete': only({ model: modelName }),
  'models:running': empty,
  'models:unload': only({ model: modelName }),
  'models:version': empty,
  'models:recommend-context': only(
    { model: modelName, flashAttention: { type: 'boolean' }, kvCacheType: { enum: ['f16', 'q8_0', 'q4_0'] } },
    ['model'],
  ),
  'models:set-context': only(
    { model: modelName, contextWindow: { anyOf: [{ type: 'integer', minimum: 256, maximum: 10_000_000 }, { type: 'null' }] }, source: { enum: ['recommended', 'user'] } },
    ['model', 'contextWindow'],
  ),
  'models:llama-server-info': only({ baseUrl: { type: 'string', minLength: 1, maxLength: 2000, pattern: '^https?://' } }),
  'models:context-window': only({ model: modelName, connectionId: id, wait: { type: 'boolean' } }, ['model']),
  'gpu:probe': empty,
  'models:watch-now': empty,
  'gpu:set-override': only({ bytes: { anyOf: [{ type: 'integer', minimum: 1, maximum: 2 ** 50 }, { type: 'null' }] } }),
  'aliases:list': empty,
  'aliases:create': aliasInput,
  'aliases:update': only({ id, alias: aliasInput, basedOn: { type: 'integer', minimum: 0 } }, ['id', 'alias']),
  'aliases:delete': only({ id }),
  'aliases:materialize': only({ id }),
  'aliases:from-model': only({ model: modelName, name: { type: 'string', pattern: ALIAS_NAME_PATTERN } }),
};
