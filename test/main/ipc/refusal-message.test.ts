/**
 * A payload of the wrong type is refused in the app's words, as the tool cards say it ("must be a string"), where it
 * read the validator's "The file has the wrong type (it must be string)." Checked with the generated validators, as
 * the dispatcher checks a payload.
 */
import { describe, expect, it } from 'vitest';
import { payloadValidators } from '../../../src/main/ipc/payload-validators.generated.js';
import { refusalMessage } from '../../../src/main/ipc/refusal-message';
import type { InvokeChannel } from '../../../src/shared/ipc';

function refused(channel: InvokeChannel, payload: unknown): string {
  const validate = payloadValidators[channel];
  expect(validate(payload)).toBe(false);
  return refusalMessage(channel, payload, validate.errors?.[0] ?? undefined);
}

describe('a payload of the wrong type', () => {
  it('says what the field must be in plain words', () => {
    expect(refused('attachments:add', { name: 'a', mime: 'text/plain', dataBase64: 42 })).toBe('The file must be a string.');
    expect(refused('settings:update', { builtinIdleMinutes: 'ten' })).toBe('The number of idle minutes before a built-in model is unloaded must be a whole number.');
    expect(refused('chat:send', { conversationId: null, text: 42, model: 'm' })).toBe('The message must be a string.');
  });

  it('says each type a field may have', () => {
    expect(refusalMessage('x:y', { a: 1 }, { instancePath: '/a', keyword: 'type', params: { type: 'string,null' } })).toBe('The a must be a string or null.');
    expect(refusalMessage('x:y', { a: 1 }, { instancePath: '/a', keyword: 'type', params: { type: ['boolean', 'number', 'null'] } })).toBe('The a must be true or false, a number or null.');
  });
});
