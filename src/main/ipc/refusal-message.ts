/**
 * The sentence a user reads when a payload fails its schema (src/main/ipc/schemas.ts): which field, and what
 * limit, instead of "Invalid request for <channel>." (the schema's own wording goes to the log).
 */
import { formatSize } from '../../shared/file-limits';
import type { SettingName } from '../../shared/ipc';
import { ALIAS_NAME_RULE } from '../../shared/models';
import { DEFAULT_SETTINGS } from '../db/settings-store';
import { typeWords } from '../dialects/shared/tool-arg-words';
import type { PayloadError } from './payload-validators.generated.js';

/** What a field is called where its generic name ("The text") would not tell the user which one. */
const FIELD_NAMES: Record<string, string> = {
  'conversations:rename /title': 'The title',
  'conversations:search /query': 'The search',
  'conversations:import /text': 'The file',
  'conversations:import /name': 'The file’s name',
  'conversations:import-begin /name': 'The file’s name',
  'conversations:import-chunk /dataBase64': 'A piece of the file',
  'attachments:add /dataBase64': 'The file',
  'chat:send /text': 'The message',
  'chat:edit-and-resend /text': 'The message',
  'settings:update /ollamaUrl': 'The Ollama address',
  // In the words of the Settings field, not the schema's ("The builtin idle minutes"): settings audit #1.
  'settings:update /builtinIdleMinutes': 'The number of idle minutes before a built-in model is unloaded',
  'connections:save /baseUrl': 'The server address',
  'connections:test /baseUrl': 'The server address',
};

const COMPARISONS: Record<string, string> = { '<=': 'at most', '>=': 'at least', '<': 'less than', '>': 'more than' };

export function refusalMessage(channel: string, payload: unknown, error: PayloadError | undefined): string {
  if (!error) return 'Firebrand could not read this request.';
  const path = error.instancePath.split('/').slice(1);
  const key = path.at(-1);
  if (key === undefined) {
    if (error.keyword === 'required') return `The request is missing its ${words(String(error.params['missingProperty']))}.`;
    if (error.keyword === 'additionalProperties') return `The request has a field Firebrand does not know (${String(error.params['additionalProperty']).slice(0, 80)}).`;
    return 'Firebrand could not read this request: it is malformed.';
  }
  const name = FIELD_NAMES[`${channel} ${error.instancePath}`] ?? `The ${words(/^\d+$/.test(key) ? (path.at(-2) ?? key) : key)}`;
  const value = valueAt(payload, path);
  const limit = Number(error.params['limit']);
  switch (error.keyword) {
    case 'maxLength':
    case 'maxChars':
      // Base64: what the user knows is the file's size, not its encoding's length.
      if (key === 'dataBase64') return `${name} is too large: it can be at most ${formatSize(Math.floor((limit * 3) / 4))}.`;
      return `${name} is too long${typeof value === 'string' ? ` (${count(value.length)} characters)` : ''}: it can be at most ${count(limit)} characters.`;
    case 'minLength':
      return limit <= 1 ? `${name} is empty.` : `${name} is too short: it needs at least ${count(limit)} characters.`;
    case 'maxItems':
      return `${name} has too many items${Array.isArray(value) ? ` (${count(value.length)})` : ''}: at most ${count(limit)}.`;
    case 'minItems':
      return `${name} needs at least ${count(limit)} item${limit === 1 ? '' : 's'}.`;
    case 'maximum':
    case 'minimum':
    case 'exclusiveMaximum':
    case 'exclusiveMinimum':
      return `${name} is out of range: it must be ${COMPARISONS[String(error.params['comparison'])] ?? ''} ${count(limit)}.`;
    case 'pattern':
      if (channel.startsWith('aliases:') && key === 'name') return ALIAS_NAME_RULE;
      if (String(error.params['pattern']).startsWith('^https?:')) return `${name} must be an address starting with http:// or https://.`;
      return `${name} is not in the form Firebrand expects.`;
    case 'enum':
      return `${name} must be one of: ${(error.params['allowedValues'] as unknown[]).map(String).join(', ')}.`;
    case 'type':
      // In the tool cards' words ("must be a string"), not the validator's "(it must be string)".
      return `${name} must be ${typeWords(error.params['type'])}.`;
    default:
      return `${name} is not valid.`;
  }
}

/**
 * The setting a refused payload is about, where it is one Settings shows a field for: the key of settings:update the
 * schema refused (too many idle minutes), or gpu:set-override's size. Undefined for any other channel or field.
 */
export function refusedSetting(channel: string, error: PayloadError | undefined): SettingName | undefined {
  const key = error?.instancePath.split('/')[1];
  if (key === undefined) return undefined;
  if (channel === 'gpu:set-override') return key === 'bytes' ? 'gpuOverride' : undefined;
  if (channel === 'settings:update') return isSettingKey(key) ? key : undefined;
  return undefined;
}

function isSettingKey(key: string): key is Exclude<SettingName, 'gpuOverride'> {
  return Object.hasOwn(DEFAULT_SETTINGS, key);
}

function valueAt(payload: unknown, path: readonly string[]): unknown {
  let v = payload;
  for (const segment of path) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[segment] : undefined;
  return v;
}

/** `systemPrompt` -> "system prompt", `connectionId` -> "connection id". */
function words(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}
