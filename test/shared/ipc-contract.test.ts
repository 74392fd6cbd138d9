import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildBridge, camelAction, eventMethodName } from '../../src/shared/bridge';
import { CHANNEL_NAME_PATTERN, EVENT_CHANNELS, INVOKE_CHANNELS, type EventChannel, type InvokeChannel } from '../../src/shared/ipc';
import { payloadSchemas } from '../../src/main/ipc/schemas';
import { createServices } from '../../src/main/services';

describe('the IPC contract', () => {
  it('names every channel domain:kebab-action, once', () => {
    const all = [...INVOKE_CHANNELS, ...EVENT_CHANNELS];
    for (const channel of all) expect(channel, channel).toMatch(CHANNEL_NAME_PATTERN);
    expect(new Set(all).size).toBe(all.length);
    expect('chat:sendMessage').not.toMatch(CHANNEL_NAME_PATTERN);
    expect('Chat:send').not.toMatch(CHANNEL_NAME_PATTERN);
  });

  it('has a payload schema and a registered handler for every invoke channel', () => {
    const dir = mkdtempSync(join(tmpdir(), 'firebrand-contract-'));
    const services = createServices({ dataDir: dir, log: () => {} });
    try {
      for (const channel of INVOKE_CHANNELS) {
        expect(typeof services.handlers[channel], channel).toBe('function');
        expect(payloadSchemas[channel], channel).toBeTypeOf('object');
      }
      expect(Object.keys(services.handlers).sort()).toEqual([...INVOKE_CHANNELS].sort());
    } finally {
      services.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('derives window.firebrand from the contract: narrow calls and onX(cb) returning an unsubscribe', async () => {
    const invoked: [InvokeChannel, unknown][] = [];
    const listeners = new Map<EventChannel, (p: unknown) => void>();
    const api = buildBridge({
      invoke: async (channel, payload) => {
        invoked.push([channel, payload]);
        return channel === 'chat:stop'
          ? { ok: false, error: { code: 'not-found', message: 'No such answer.' } }
          : { ok: true, value: [] };
      },
      subscribe: (channel, listener) => {
        listeners.set(channel, listener);
        return () => listeners.delete(channel);
      },
    });
    await expect(api.conversations.list({})).resolves.toEqual([]);
    await expect(api.chat.stop({ turnId: 'x' })).rejects.toMatchObject({ code: 'not-found', message: 'No such answer.' });
    expect(invoked.map(([c]) => c)).toEqual(['conversations:list', 'chat:stop']);

    const seen: unknown[] = [];
    const off = api.chat.onTurnSaved((p) => seen.push(p));
    listeners.get('chat:turn-saved')?.({ turn: 'T' });
    off();
    expect(seen).toEqual([{ turn: 'T' }]);
    expect(listeners.has('chat:turn-saved')).toBe(false);

    const shape = api as unknown as Record<string, Record<string, unknown>>;
    for (const c of INVOKE_CHANNELS) expect(typeof shape[c.split(':')[0]!]?.[camelAction(c)], c).toBe('function');
    for (const c of EVENT_CHANNELS) expect(typeof shape[c.split(':')[0]!]?.[eventMethodName(c)], c).toBe('function');
    expect(eventMethodName('chat:turn-parts')).toBe('onTurnParts');
  });
});
