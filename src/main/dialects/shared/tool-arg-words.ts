import type { ErrorObject } from 'ajv';

/**
 * A schema error in plain words, for the model (it goes back as the call's error result) and for the user (the tool
 * card shows the same sentence): "a must be a number", where ajv's own words read "argument a must be number".
 * Keywords without words of their own here keep ajv's message after the argument's name.
 */

/** `items/0/name` as a person names it: items[0].name. */
function argumentName(path: string): string {
  return path
    .split('/')
    .filter((p) => p !== '')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((out, p) => (/^\d+$/.test(p) ? `${out}[${p}]` : out === '' ? p : `${out}.${p}`), '');
}

const TYPE_WORDS: Record<string, string> = {
  number: 'a number',
  integer: 'a whole number',
  string: 'a string',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

/** "a", "a or b", "a, b or c". */
function either(words: string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1] ?? ''}`;
}

const plural = (n: number, one: string) => `${n} ${n === 1 ? one : `${one}s`}`;

/**
 * What an ajv `type` error's `params.type` asks for, in words: "a string", "a number or null". Shared with the IPC
 * refusals (ipc/refusal-message.ts), which had read "(it must be string)".
 */
export function typeWords(type: unknown): string {
  const types = Array.isArray(type) ? type.map(String) : String(type ?? '').split(',');
  return either(types.map((t) => TYPE_WORDS[t] ?? t));
}

export function describeSchemaError(err: ErrorObject): string {
  const name = argumentName(err.instancePath);
  // An error on the arguments as a whole (a required or extra argument) names the argument itself.
  const subject = name === '' ? 'The arguments' : name;
  const p = err.params as Record<string, unknown>;
  const n = typeof p['limit'] === 'number' ? p['limit'] : undefined;
  switch (err.keyword) {
    case 'type':
      return `${subject} must be ${typeWords(p['type'])}`;
    case 'required': {
      const missing = String(p['missingProperty'] ?? '?');
      return name === '' ? `${missing} is required but was not given` : `${name} must have ${missing}, which was not given`;
    }
    case 'additionalProperties': {
      const extra = String(p['additionalProperty'] ?? '?');
      return name === '' ? `${extra} is not one of the tool's arguments` : `${name} must not have ${extra}`;
    }
    case 'enum':
      return `${subject} must be ${either(((p['allowedValues'] as unknown[] | undefined) ?? []).map((a) => JSON.stringify(a)))}`;
    case 'const':
      return `${subject} must be ${JSON.stringify(p['allowedValue'])}`;
    case 'minimum':
      return `${subject} must be at least ${String(n)}`;
    case 'maximum':
      return `${subject} must be at most ${String(n)}`;
    case 'exclusiveMinimum':
      return `${subject} must be more than ${String(n)}`;
    case 'exclusiveMaximum':
      return `${subject} must be less than ${String(n)}`;
    case 'minLength':
      return `${subject} must be at least ${plural(n ?? 0, 'character')} long`;
    case 'maxLength':
      return `${subject} must be at most ${plural(n ?? 0, 'character')} long`;
    case 'minItems':
      return `${subject} must have at least ${plural(n ?? 0, 'item')}`;
    case 'maxItems':
      return `${subject} must have at most ${plural(n ?? 0, 'item')}`;
    case 'pattern':
      return `${subject} must match the pattern ${String(p['pattern'])}`;
    default:
      return `${subject} ${err.message ?? 'is invalid'}`;
  }
}
