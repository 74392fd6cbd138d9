/** JSON Schemas of the model library's and the built-in engine's invoke payloads (merged into ipc/schemas.ts). */
import type { LibraryInvokeContract } from '../../shared/library';

type Schema = Record<string, unknown>;

const empty: Schema = { type: 'object', additionalProperties: false, properties: {} };
const id: Schema = { type: 'string', minLength: 1, maxLength: 200 };
/** A model's path inside the models folder, as listed (`sub/name.gguf`). */
const file: Schema = { type: 'string', minLength: 1, maxLength: 1000 };
const obj = (required: string[], properties: Record<string, Schema>): Schema => ({ type: 'object', additionalProperties: false, required, properties });

export const libraryPayloadSchemas: Record<keyof LibraryInvokeContract, Schema> = {
  'library:list': empty,
  'library:add-file': obj(['path', 'mode'], { path: { type: 'string', minLength: 1, maxLength: 4000 }, mode: { enum: ['copy', 'link'] } }),
  'library:download': obj(['source'], { source: { type: 'string', minLength: 1, maxLength: 4000 } }),
  'library:pause-download': obj(['downloadId'], { downloadId: id }),
  'library:cancel-download': obj(['downloadId'], { downloadId: id }),
  'library:delete': obj(['file'], { file }),
  'library:rename': obj(['file', 'to'], { file, to: { type: 'string', minLength: 1, maxLength: 300 } }),
  'library:recommend-context': obj(['file'], { file }),
  'library:set-context': obj(['file', 'contextWindow'], { file, contextWindow: { anyOf: [{ type: 'integer', minimum: 256, maximum: 10_000_000 }, { type: 'null' }] } }),
  'builtin:status': empty,
  'builtin:load': obj(['file'], { file }),
  'builtin:unload': obj(['file'], { file }),
};
