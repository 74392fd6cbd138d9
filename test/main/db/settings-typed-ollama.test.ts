/**
 * `--ollama` is read as Settings → Ollama address reads what is typed there (shared/server-address.ts): a host alone
 * is http:// and Ollama's usual port, a host and port http://. The command line refused both ("not a valid address",
 * "starts with http://") where the field took them; what the field refuses, it still refuses.
 */
import { describe, expect, it } from 'vitest';
import { SettingsStore } from '../../../src/main/db/settings-store';
import { memoryDb } from './helpers';

describe('the Ollama address given on the command line', () => {
  it('is read as the Settings field reads it', () => {
    for (const [given, saved] of [
      ['localhost', 'http://localhost:11434'],
      [' gpu-box.local ', 'http://gpu-box.local:11434'],
      ['[::1]', 'http://[::1]:11434'],
      ['192.168.1.20:8080', 'http://192.168.1.20:8080'],
      ['http://gpu-box.local', 'http://gpu-box.local'],
    ] as const) {
      const settings = new SettingsStore(memoryDb());
      expect(settings.useForThisRun({ ollamaUrl: given })).toBe(true);
      expect(settings.get().ollamaUrl).toBe(saved);
    }
  });

  it('is refused where the field refuses it', () => {
    expect(() => new SettingsStore(memoryDb()).useForThisRun({ ollamaUrl: 'gpu box' })).toThrow(/not a valid address/);
    expect(() => new SettingsStore(memoryDb()).useForThisRun({ ollamaUrl: 'ftp://gpu-box' })).toThrow(/starts with http/);
  });
});
