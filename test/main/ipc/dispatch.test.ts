import { describe, expect, it, vi } from 'vitest';
import { INVOKE_CHANNELS } from '../../../src/shared/ipc';
import { UserFacingError } from '../../../src/main/errors';
import { Ajv } from 'ajv';
import { createDispatcher, type InvokeHandlers } from '../../../src/main/ipc/dispatch';
import { payloadSchemas } from '../../../src/main/ipc/schemas';

function handlers(overrides: Partial<InvokeHandlers> = {}): InvokeHandlers {
  const none = () => {
    throw new Error('not used');
  };
  const table: Record<string, unknown> = Object.fromEntries(INVOKE_CHANNELS.map((c) => [c, none]));
  table['conversations:list'] = vi.fn(() => []);
  table['chat:send'] = vi.fn(none);
  return { ...(table as unknown as InvokeHandlers), ...overrides };
}

describe('the IPC dispatcher', () => {
  it('runs a valid call', async () => {
    const d = createDispatcher(handlers(), () => {});
    await expect(d.dispatch('conversations:list', {})).resolves.toEqual({ ok: true, value: [] });
  });

  it('has a validator for every channel, compiled ahead of time from its schema in strict mode', async () => {
    const d = createDispatcher(handlers(), () => {});
    for (const channel of INVOKE_CHANNELS) {
      // A payload no schema accepts: a strict-mode mistake in a schema would throw here instead of answering.
      await expect(d.dispatch(channel, 42), channel).resolves.toMatchObject({ ok: false, error: { code: 'invalid-payload' } });
    }
  });

  it('has a payload schema for every channel that the JSON Schema meta-schema accepts (also checked as the validators are generated)', () => {
    const ajv = new Ajv({ strict: true });
    ajv.addKeyword({ keyword: 'maxChars', type: 'string', schemaType: 'number', metaSchema: { type: 'integer', minimum: 0 } });
    // The check can fail: a mistake strict-mode compiling lets through.
    expect(ajv.validateSchema({ type: 'string', minLength: -1 })).toBe(false);
    for (const channel of INVOKE_CHANNELS) {
      expect(ajv.validateSchema(payloadSchemas[channel]), `${channel}: ${ajv.errorsText()}`).toBe(true);
    }
  });

  it('rejects and logs an unknown channel without running anything', async () => {
    const log = vi.fn();
    const h = handlers();
    const d = createDispatcher(h, log);
    const res = await d.dispatch('fs:read-file', { path: '/etc/passwd' });
    expect(res).toMatchObject({ ok: false, error: { code: 'unknown-channel' } });
    expect(log).toHaveBeenCalledWith(expect.stringContaining('unknown channel'));
  });

  it.each([
    ['a missing field', { conversationId: null, text: 'hi' }],
    ['a wrong type', { conversationId: null, text: 42, model: 'm' }],
    ['an extra field', { conversationId: null, text: 'hi', model: 'm', exec: 'rm -rf /' }],
    ['an empty message', { conversationId: null, text: '', model: 'm' }],
    ['not an object', 'hello'],
  ])('rejects a payload with %s before the handler runs', async (_what, payload) => {
    const h = handlers();
    const log = vi.fn();
    const res = await createDispatcher(h, log).dispatch('chat:send', payload);
    expect(res).toMatchObject({ ok: false, error: { code: 'invalid-payload' } });
    expect(h['chat:send']).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalled();
  });

  it('takes a page of the conversation list from a cursor, and refuses a malformed cursor or an unbounded page', async () => {
    const h = handlers();
    const d = createDispatcher(h, () => {});
    await expect(d.dispatch('conversations:list', { before: { updatedAt: 1_700_000_000_000, id: 'c1' }, limit: 50 })).resolves.toMatchObject({ ok: true });
    for (const bad of [{ before: { updatedAt: 1 } }, { before: { updatedAt: '1', id: 'c1' } }, { limit: 0 }, { limit: 1_000_000 }, { limit: 2.5 }]) {
      await expect(d.dispatch('conversations:list', bad), JSON.stringify(bad)).resolves.toMatchObject({ ok: false, error: { code: 'invalid-payload' } });
    }
    expect(h['conversations:list']).toHaveBeenCalledTimes(1);
  });

  it('caps a message by its length in UTF-16 units (maxChars), the check a 60 MiB import needs to stay cheap', async () => {
    const h = handlers({ 'chat:send': vi.fn(() => ({ conversationId: 'c', turnId: 't' })) as unknown as InvokeHandlers['chat:send'] });
    const d = createDispatcher(h, () => {});
    const send = (text: string) => d.dispatch('chat:send', { conversationId: null, text, model: 'm' });
    await expect(send('x'.repeat(4_000_000))).resolves.toMatchObject({ ok: true });
    await expect(send('x'.repeat(4_000_001))).resolves.toMatchObject({ ok: false, error: { code: 'invalid-payload' } });
    expect(h['chat:send']).toHaveBeenCalledTimes(1);
  });

  it('passes a user-facing error through with its message, and hides internal ones', async () => {
    const d = createDispatcher(
      handlers({
        'conversations:open': () => {
          throw new UserFacingError('not-found', 'That conversation no longer exists.');
        },
        'settings:get': () => {
          throw new TypeError('secret internals');
        },
      }),
      () => {},
    );
    await expect(d.dispatch('conversations:open', { conversationId: 'x' })).resolves.toEqual({
      ok: false,
      error: { code: 'not-found', message: 'That conversation no longer exists.' },
    });
    const hidden = await d.dispatch('settings:get', {});
    expect(hidden).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(JSON.stringify(hidden)).not.toContain('secret internals');
  });

  it('words a payload over a schema limit for the user: which field and what limit, never "Invalid request for <channel>."', async () => {
    const d = createDispatcher(handlers(), () => {});
    const alias = { connectionId: 'ollama', model: 'm', systemPrompt: '', parameters: {}, thinkMode: 'off', contextWindow: null };
    const cases: [string, unknown, string][] = [
      ['conversations:search', { query: 'x'.repeat(1001) }, 'The search is too long (1,001 characters): it can be at most 1,000 characters.'],
      ['conversations:rename', { conversationId: 'c', title: 't'.repeat(301) }, 'The title is too long (301 characters): it can be at most 300 characters.'],
      ['conversations:import', { text: '' }, 'The file is empty.'],
      ['aliases:create', { ...alias, name: 'a'.repeat(300) }, expect.stringMatching(/^An alias name is up to 80 letters/) as unknown as string],
      ['attachments:add', { name: 'a', mime: 'text/plain', dataBase64: 'a'.repeat(28_000_001) }, 'The file is too large: it can be at most 20.0 MiB.'],
      ['chat:send', { conversationId: null, text: 'x'.repeat(4_000_001), model: 'm' }, 'The message is too long (4,000,001 characters): it can be at most 4,000,000 characters.'],
      ['chat:send', { conversationId: null, text: '', model: 'm' }, 'The message is empty.'],
      ['conversations:update-settings', { conversationId: 'c', systemPrompt: 'p'.repeat(200_001), think: null }, 'The system prompt is too long (200,001 characters): it can be at most 200,000 characters.'],
      ['settings:update', { theme: 'neon' }, 'The theme must be one of: light, dark, system.'],
      // Settings audit #1: named as the dialog names it, not "The builtin idle minutes".
      ['settings:update', { builtinIdleMinutes: 20_000 }, 'The number of idle minutes before a built-in model is unloaded is out of range: it must be at most 10,080.'],
    ];
    for (const [channel, payload, message] of cases) {
      const result = await d.dispatch(channel, payload);
      // A setting's refusal also names the setting (refused-setting.test.ts).
      expect(result, channel).toMatchObject({ ok: false, error: { code: 'invalid-payload', message } });
    }
    for (const channel of INVOKE_CHANNELS) {
      const result = await d.dispatch(channel, 42);
      expect(JSON.stringify(result), channel).not.toContain('Invalid request');
    }
  });
});
