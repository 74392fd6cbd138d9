/**
 * Issue 17: "Test connection" tests the address on screen, and a passing test of the server in use clears the
 * model list's red banner at once (it used to turn green while the banner stayed).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { ConnectionInfo } from '../../src/shared/connections';
import type { Settings } from '../../src/shared/ipc';
import { retestOnLiveChange, saveConnection, testConnection, useConnectionsStore } from '../../src/renderer/store/connections-slice';
import { useStore } from '../../src/renderer/store/index';

const ollama: ConnectionInfo = { id: 'ollama', kind: 'ollama', label: 'Ollama', baseUrl: 'http://127.0.0.1:11434', hasApiKey: false, builtIn: true };
const model = { name: 'llama3.2:3b', sizeBytes: 1, family: null, parameterSize: '3B', quantization: null };

let tested: { id: string; baseUrl?: string }[] = [];
let listed = 0;

beforeEach(() => {
  tested = [];
  listed = 0;
  // The bridge the preload or the serve shim provides, answering as a server that has just come back.
  (globalThis as { window?: unknown }).window = {
    firebrand: {
      connections: {
        test: (req: { id: string; baseUrl?: string }) => {
          tested.push(req);
          return Promise.resolve({ ok: true, version: '0.12.6', modelCount: 1, detail: 'Ollama 0.12.6, 1 model' });
        },
      },
      models: {
        list: () => {
          listed++;
          return Promise.resolve([model]);
        },
        contextWindow: () => Promise.resolve({ contextWindow: 4096, source: 'fallback', reason: 'GPU memory is unknown.' }),
      },
      aliases: { list: () => Promise.resolve([]) },
    },
  };
  useConnectionsStore.setState({ connections: [ollama], tests: {}, testedUrls: {}, error: null });
  useStore.setState({ settings: { activeConnectionId: 'ollama' } as Settings, models: [], modelsError: 'Cannot reach Ollama at http://127.0.0.1:11434', selectedModel: null });
});

describe('Test connection', () => {
  it('clears the server-down banner when the server in use answers, and lists its models', async () => {
    await testConnection('ollama');
    expect(tested).toEqual([{ id: 'ollama' }]);
    expect(useConnectionsStore.getState().tests['ollama']).toMatchObject({ ok: true });
    // The list is read again right away (not at the watcher's next look): the banner goes, the picker fills.
    await expect.poll(() => useStore.getState().modelsError).toBeNull();
    expect(listed).toBe(1);
    expect(useStore.getState().models.map((m) => m.name)).toEqual(['llama3.2:3b']);
  });

  it('tests the address typed on screen; a different, unsaved address says nothing about the server in use', async () => {
    await testConnection('ollama', 'http://192.168.1.20:11434');
    expect(tested).toEqual([{ id: 'ollama', baseUrl: 'http://192.168.1.20:11434' }]);
    expect(listed).toBe(0);
    expect(useStore.getState().modelsError).toContain('Cannot reach Ollama');
  });

  it('a failed Test is asked again when the server in use is found back, and not while the status agrees (settings fix 2)', async () => {
    useConnectionsStore.setState({ tests: { ollama: { ok: false, error: 'Could not reach http://127.0.0.1:11434' } }, testedUrls: { ollama: ollama.baseUrl } });
    retestOnLiveChange(true, 'ollama');
    expect(tested).toEqual([]);
    retestOnLiveChange(false, 'ollama');
    await expect.poll(() => useConnectionsStore.getState().tests['ollama']).toMatchObject({ ok: true });
    expect(tested).toEqual([{ id: 'ollama' }]);
  });

  it('a result about an address typed but not saved is not asked again by the live status', () => {
    useConnectionsStore.setState({ tests: { ollama: { ok: false, error: 'Could not reach http://10.0.0.9:11434' } }, testedUrls: { ollama: 'http://10.0.0.9:11434' } });
    retestOnLiveChange(false, 'ollama');
    expect(tested).toEqual([]);
  });

  it('saving a connection (its address or key) forgets its last Test result', async () => {
    const lm: ConnectionInfo = { id: 'lm', kind: 'openai-compatible', label: 'LM', baseUrl: 'http://127.0.0.1:1234', hasApiKey: false };
    const fb = (window as unknown as { firebrand: { connections: Record<string, unknown> } }).firebrand;
    fb.connections.save = () => Promise.resolve({ ...lm, baseUrl: 'http://127.0.0.1:1235' });
    fb.connections.list = () => Promise.resolve([ollama, { ...lm, baseUrl: 'http://127.0.0.1:1235' }]);
    useConnectionsStore.setState({ connections: [ollama, lm], tests: { lm: { ok: false, error: 'Could not reach http://127.0.0.1:1234' } }, testedUrls: { lm: lm.baseUrl } });
    await saveConnection({ id: 'lm', kind: 'openai-compatible', label: 'LM', baseUrl: 'http://127.0.0.1:1235' }, () => undefined);
    expect(useConnectionsStore.getState().tests['lm']).toBeUndefined();
  });
});
