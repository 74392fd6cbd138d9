/**
 * The page's first read of the settings (asked by boot.ts before the app loaded) against a `settings:changed` that
 * came meanwhile: another tab saved a theme (or made another connection active) while this one opened. The event
 * was held until the app listened, taken as it was released, and then undone by the first read's older answer, so
 * this tab showed the old theme until the next change (leftovers audit, found and left).
 */
import { describe, expect, it } from 'vitest';
import { EVENT_CHANNELS, type Settings } from '../../src/shared/ipc';
import { eventMethodName } from '../../src/shared/bridge';
import { boot } from '../../src/renderer/boot';
import { connectStore, useStore } from '../../src/renderer/store/index';
import { deferred } from './helpers/fake-api';

const OLD: Settings = { ollamaUrl: 'http://127.0.0.1:11434', defaultModel: null, defaultChatModel: null, activeConnectionId: 'ollama', theme: 'light', modelsDir: null, builtinIdleMinutes: 10 };

describe('a tab opening while another saves the settings', () => {
  it('keeps the settings the other tab saved, not the older first read', async () => {
    const listeners = new Map<string, (payload: unknown) => void>();
    const api: Record<string, Record<string, unknown>> = {};
    for (const channel of EVENT_CHANNELS) {
      const domain = channel.slice(0, channel.indexOf(':'));
      (api[domain] ??= {})[eventMethodName(channel)] = (listener: (payload: unknown) => void) => {
        listeners.set(channel, listener);
        return () => undefined;
      };
    }
    const firstRead = deferred<Settings>();
    Object.assign(api['settings']!, { get: () => firstRead.promise });
    Object.assign(api['models']!, { list: () => Promise.resolve([]) });
    Object.assign((api['aliases'] ??= {}), { list: () => Promise.resolve([]) });
    Object.assign(api['conversations']!, { list: () => Promise.resolve([]) });
    Object.assign((api['connections'] ??= {}), { list: () => Promise.resolve([]) });
    Object.assign((api['drafts'] ??= {}), { list: () => Promise.resolve([]) });
    Object.assign(api['builtin'] ?? (api['builtin'] = {}), { status: () => new Promise(() => undefined) });
    (globalThis as { window?: unknown }).window = { firebrand: api, addEventListener: () => undefined };

    boot();
    // Main answers the first read, then the other tab saves: the event comes after the answer, and is held.
    firstRead.resolve(OLD);
    await firstRead.promise;
    listeners.get('settings:changed')!({ settings: { ...OLD, theme: 'dark' } });
    await connectStore();
    expect(useStore.getState().settings?.theme).toBe('dark');
  });
});
