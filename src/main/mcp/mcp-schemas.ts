/** JSON Schemas of the MCP servers' invoke payloads (merged into ipc/schemas.ts). */
import type { McpInvokeContract } from '../../shared/mcp';

type Schema = Record<string, unknown>;

const empty: Schema = { type: 'object', additionalProperties: false, properties: {} };
const id: Schema = { type: 'string', minLength: 1, maxLength: 200 };
const obj = (required: string[], properties: Record<string, Schema>): Schema => ({ type: 'object', additionalProperties: false, required, properties });
const secretEntries: Schema = {
  type: 'array',
  maxItems: 100,
  items: obj(['name'], { name: { type: 'string', minLength: 1, maxLength: 200 }, value: { type: 'string', maxLength: 16_000 } }),
};

export const mcpPayloadSchemas: Record<keyof McpInvokeContract, Schema> = {
  'mcp:list': empty,
  'mcp:save': obj(['name', 'transport'], {
    id,
    name: { type: 'string', minLength: 1, maxLength: 100 },
    transport: { enum: ['stdio', 'http'] },
    command: { type: 'string', maxLength: 4000 },
    args: { type: 'array', maxItems: 200, items: { type: 'string', maxLength: 10_000 } },
    cwd: { anyOf: [{ type: 'string', maxLength: 4000 }, { type: 'null' }] },
    url: { type: 'string', maxLength: 4000 },
    env: secretEntries,
    headers: secretEntries,
    enabled: { type: 'boolean' },
    startWithApp: { type: 'boolean' },
    timeoutSeconds: { type: 'integer', minimum: 1, maximum: 3600 },
  }),
  'mcp:delete': obj(['id'], { id }),
  'mcp:set-enabled': obj(['id', 'enabled'], { id, enabled: { type: 'boolean' } }),
  'mcp:set-tool': obj(['id', 'tool'], { id, tool: { type: 'string', minLength: 1, maxLength: 500 }, enabled: { type: 'boolean' }, alwaysAllow: { type: 'boolean' } }),
  'mcp:restart': obj(['id'], { id }),
  'mcp:import': obj(['text'], { text: { type: 'string', minLength: 1, maxChars: 4 * 1024 * 1024 } }),
};
