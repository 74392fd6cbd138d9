/** The model picker's groups (issue 17: one entry per model, aliases of other connections not usable) and the app's units. */
import { describe, expect, it } from 'vitest';
import { filterGroups, noModelsHint, pickerGroups } from '../../src/renderer/components/composer/picker-groups';
import { formatBytes, formatDuration, formatExactTokens, formatTokens, plural } from '../../src/renderer/format';
import type { ConnectionInfo } from '../../src/shared/connections';
import type { Alias } from '../../src/shared/models';

const connections: ConnectionInfo[] = [
  { id: 'ollama', kind: 'ollama', label: 'Ollama', baseUrl: 'http://127.0.0.1:11434', hasApiKey: false, builtIn: true },
  { id: 'lms', kind: 'openai-compatible', label: 'LM Studio', baseUrl: 'http://127.0.0.1:1234', hasApiKey: false },
];
const model = (name: string, capabilities?: string[]) => ({ name, sizeBytes: 1, family: null, parameterSize: '3B', quantization: null, ...(capabilities ? { capabilities } : {}) });
const alias = (name: string, over: Partial<Alias> = {}): Alias => ({
  id: name, name, connectionId: 'ollama', model: 'llama3.2:3b', systemPrompt: '', parameters: {}, thinkMode: 'off', contextWindow: null, materializedDigest: null, status: 'not-materialized', updatedAt: 1, ...over,
});

describe('model picker groups', () => {
  it('lists a materialized alias once, not beside its Ollama copy under name:latest', () => {
    const groups = pickerGroups([model('llama3.2:3b', ['completion', 'tools']), model('terse-coder:latest')], [alias('terse-coder', { materializedDigest: 'abc', status: 'in-sync' })], connections, 'ollama');
    expect(groups.map((g) => g.label)).toEqual(['Ollama']);
    expect(groups[0]?.entries.map((e) => e.value)).toEqual(['alias:terse-coder', 'llama3.2:3b']);
    expect(groups[0]?.entries.map((e) => e.label)).toEqual(['terse-coder', 'llama3.2:3b']);
    expect(groups[0]?.entries[0]).toMatchObject({ kind: 'alias', target: 'llama3.2:3b', capabilities: ['tools'] });
  });

  it('keeps an alias of another connection in that connection’s group, not choosable, with the reason', () => {
    const groups = pickerGroups([model('llama3.2:3b')], [alias('lm-coder', { connectionId: 'lms' }), alias('orphan', { connectionId: 'gone' })], connections, 'ollama');
    expect(groups.map((g) => g.label)).toEqual(['Ollama', 'LM Studio (not active)', 'A removed connection']);
    expect(groups[1]?.entries[0]?.disabled).toContain('LM Studio');
    expect(groups[2]?.entries[0]?.disabled).toContain('removed');
  });

  it('filters by name or alias target, case-insensitively, dropping empty groups', () => {
    const groups = pickerGroups([model('llama3.2:3b'), model('qwen3:8b')], [alias('coder', { model: 'qwen3:8b' })], connections, 'ollama');
    expect(filterGroups(groups, 'QWEN')[0]?.entries.map((e) => e.label)).toEqual(['coder', 'qwen3:8b']);
    expect(filterGroups(groups, 'nothing')).toEqual([]);
  });
});

describe('model picker: an alias that shares a model’s name (models audit #1)', () => {
  it('offers the alias and the model under values that never collide, so picking the model reaches the model', () => {
    const groups = pickerGroups([model('llama3.2:3b'), model('qwen3:8b')], [alias('qwen3:8b', { id: 'a1' })], connections, 'ollama');
    const entries = groups[0]?.entries ?? [];
    expect(entries.filter((e) => e.label === 'qwen3:8b').map((e) => [e.kind, e.value])).toEqual([['alias', 'alias:a1'], ['model', 'qwen3:8b']]);
    expect(new Set(entries.map((e) => e.value)).size).toBe(entries.length);
  });

  it('marks an alias whose model is gone from the server as unavailable, with the reason', () => {
    const groups = pickerGroups([model('qwen3:8b')], [alias('small', { model: 'llama3.2:3b' }), alias('coder', { model: 'qwen3:8b' })], connections, 'ollama');
    const small = groups[0]?.entries.find((e) => e.label === 'small');
    expect(small?.disabled).toBe('Its model, llama3.2:3b, is not on this server any more: edit the alias in Models.');
    expect(groups[0]?.entries.find((e) => e.label === 'coder')?.disabled).toBeUndefined();
    // An empty list says nothing about the alias (the server is down or empty; the screen says that).
    expect(pickerGroups([], [alias('small')], connections, 'ollama')[0]?.entries[0]?.disabled).toBeUndefined();
  });

  it('says a built-in alias’s GGUF is gone from the models folder, not from a server', () => {
    const builtin: ConnectionInfo[] = [...connections, { id: 'builtin', kind: 'builtin', label: 'Built-in (llama.cpp)', baseUrl: '/models', hasApiKey: false, builtIn: true }];
    const groups = pickerGroups([model('other.gguf')], [alias('weather', { connectionId: 'builtin', model: 'plain.gguf' })], builtin, 'builtin');
    expect(groups[0]?.entries.find((e) => e.label === 'weather')?.disabled).toBe('Its model, plain.gguf, is not in the models folder any more: edit the alias in Models.');
  });
});

describe('model picker: nothing to choose (first-hour audit F1)', () => {
  const ollama = { kind: 'ollama' as const, label: 'Ollama' };
  it('names Built-in when the models folder has GGUFs the active connection does not list', () => {
    expect(noModelsHint(ollama, 1)).toBe('No models from Ollama. Your models folder has a GGUF file: to chat with it, choose Built-in (llama.cpp) in Settings → Connections.');
    expect(noModelsHint({ kind: 'llama-server', label: 'llama-server' }, 3)).toBe(
      'No models from llama-server. Your models folder has 3 GGUF files: to chat with them, choose Built-in (llama.cpp) in Settings → Connections.',
    );
  });
  it('says where models come from when there are none anywhere', () => {
    expect(noModelsHint(ollama, 0)).toBe('No models from Ollama. Pull a model in Models, or add a GGUF file in Models and choose Built-in (llama.cpp) in Settings → Connections.');
    expect(noModelsHint({ kind: 'openai-compatible', label: 'LM Studio' }, null)).toBe('No models from LM Studio. Add a GGUF file in Models and choose Built-in (llama.cpp) in Settings → Connections.');
    expect(noModelsHint({ kind: 'builtin', label: 'Built-in (llama.cpp)' }, 0)).toBe('No GGUF files in the models folder yet: add or download one in Models.');
  });
  // Real-engines audit D1: a server that was down got "pull a model" or "add a GGUF", away from the problem.
  it('says first that a server that cannot be reached is to be started or its address changed', () => {
    expect(noModelsHint(ollama, 0, true)).toBe('Ollama cannot be reached: start it, or change its address in Settings → Connections. Or add a GGUF file in Models and choose Built-in (llama.cpp) in Settings → Connections.');
    expect(noModelsHint({ kind: 'llama-server', label: 'GPU box' }, 2, true)).toBe(
      'GPU box cannot be reached: start it, or change its address in Settings → Connections. Your models folder has 2 GGUF files: to chat with them, choose Built-in (llama.cpp) in Settings → Connections.',
    );
  });
  it('sends the user to the reason, not to "start it", where the server answered and listed nothing', () => {
    expect(noModelsHint(ollama, 0, 'answered')).toBe(
      'Ollama answered but did not list its models (the message above says why): check its address and kind in Settings → Connections. Or add a GGUF file in Models and choose Built-in (llama.cpp) in Settings → Connections.',
    );
    expect(noModelsHint(ollama, 0, 'unreachable')).toBe(noModelsHint(ollama, 0, true));
  });
});

describe('units', () => {
  it('writes token windows as people do: 4K, 8K, 128K', () => {
    expect([4096, 8192, 131072, 32768, 43008, 1536, 512].map(formatTokens)).toEqual(['4K', '8K', '128K', '32K', '42K', '1.5K', '512']);
  });
  it('writes exact token counts with their digits grouped, as en-US does: 43,008', () => {
    expect([0, 999, 1000, 43008, 131072, 1234567, 43008.6, -1536].map(formatExactTokens)).toEqual(['0', '999', '1,000', '43,008', '131,072', '1,234,567', '43,009', '-1,536']);
  });
  it('labels binary memory as GiB: 24 GiB typed is shown as 24.0 GiB, not 25.8 GB', () => {
    expect(formatBytes(24 * 1024 ** 3)).toBe('24.0 GiB');
    expect(formatBytes(1536)).toBe('1.5 KiB');
  });
  it('writes the time left with the rounding carried: 7,170 s is "2 h 0 min", never "1 h 60 min"', () => {
    expect(formatDuration(7170)).toBe('2 h 0 min');
    expect(formatDuration(119.9 * 60)).toBe('2 h 0 min');
    expect(formatDuration(59.6 * 60)).toBe('59 min 36 s');
    expect(formatDuration(3599.5)).toBe('1 h 0 min');
    expect(formatDuration(3599.4)).toBe('59 min 59 s');
    expect(formatDuration(119.6)).toBe('2 min 0 s');
    expect(formatDuration(59.6)).toBe('1 min 0 s');
    expect(formatDuration(59.4)).toBe('59 s');
    expect(formatDuration(3600 + 29.9)).toBe('1 h 0 min');
    expect(formatDuration(3600 + 90)).toBe('1 h 2 min');
    expect(formatDuration(0)).toBe('0 s');
    expect(formatDuration(-3)).toBe('0 s');
  });
  it('writes a wait of a day and more in days and hours, the hours carried: 86,370 s is "1 d 0 h"', () => {
    expect(formatDuration(86_370)).toBe('1 d 0 h');
    expect(formatDuration(86_400 - 1801)).toBe('23 h 30 min');
    expect(formatDuration(86_400 + 5 * 3600 + 20 * 60)).toBe('1 d 5 h');
    expect(formatDuration(2 * 86_400 - 60)).toBe('2 d 0 h');
  });
  it('writes an unknown time as a dash', () => {
    expect(formatDuration(null)).toBe('—');
    expect(formatDuration(Number.POSITIVE_INFINITY)).toBe('—');
  });
  it('says "1 model", "2 models"', () => {
    expect(plural(1, 'model')).toBe('1 model');
    expect(plural(2, 'model')).toBe('2 models');
  });
});
