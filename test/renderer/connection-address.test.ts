/** What the connection forms make of what was typed. */
import { describe, expect, it } from 'vitest';
import { savedNote, typedConnection } from '../../src/renderer/components/settings/connection-address';

const form = { id: 'c1', kind: 'openai-compatible' as const, label: 'LM Studio', defaultLabel: 'LM Studio', url: 'http://127.0.0.1:1234', key: '' };

describe('typedConnection', () => {
  // Settings audit #8: an empty key field keeps the saved key, and nothing else could remove it.
  it('keeps the saved key when none is typed, removes it when asked, and a typed key wins', () => {
    expect(typedConnection(form)).toEqual({ input: { id: 'c1', kind: 'openai-compatible', label: 'LM Studio', baseUrl: 'http://127.0.0.1:1234' } });
    expect(typedConnection({ ...form, removeKey: true })).toMatchObject({ input: { apiKey: '' } });
    expect(typedConnection({ ...form, removeKey: true, key: 'sk-new' })).toMatchObject({ input: { apiKey: 'sk-new' } });
  });
});

describe('an address typed without http://', () => {
  // Refused with "starts with http://" before, though every local server speaks plain http.
  it('is saved with http:// assumed, and the note says so; https:// stays, and what is not an address is refused', () => {
    expect(typedConnection({ ...form, url: 'localhost:11434' })).toMatchObject({ input: { baseUrl: 'http://localhost:11434' } });
    expect(typedConnection({ ...form, url: '192.168.1.20:8080' })).toMatchObject({ input: { baseUrl: 'http://192.168.1.20:8080' } });
    expect(typedConnection({ ...form, url: 'https://my-box:8443' })).toMatchObject({ input: { baseUrl: 'https://my-box:8443' } });
    expect(typedConnection({ ...form, url: 'not an address' })).toEqual({ refused: 'Enter an address that starts with http:// or https://' });
    expect(savedNote('my-box:11434', 'http://my-box:11434', 'ollama')).toBe('Saved as http://my-box:11434: an address typed without http:// or https:// is taken as http://, which local servers speak.');
    expect(savedNote('my-box:1234/v1', 'http://my-box:1234', 'openai-compatible')).toBe(
      'Saved as http://my-box:1234: an address typed without http:// or https:// is taken as http://, which local servers speak; Firebrand adds /v1/… to the address itself, so the /v1 at its end was left out.',
    );
    expect(savedNote('http://my-box:11434/', 'http://my-box:11434', 'ollama')).toBeNull();
  });
});

// A host typed alone was refused ("its port cannot be guessed") though the form knows the kind's usual port.
describe('a host typed alone', () => {
  it("is saved with http:// and the kind's usual port, and the note names the port", () => {
    expect(typedConnection({ ...form, kind: 'ollama', url: ' localhost ' })).toMatchObject({ input: { kind: 'ollama', baseUrl: 'http://localhost:11434' } });
    expect(typedConnection({ ...form, kind: 'llama-server', url: '192.168.1.20' })).toMatchObject({ input: { baseUrl: 'http://192.168.1.20:8080' } });
    expect(typedConnection({ ...form, kind: 'llama-server', url: '[::1]' })).toMatchObject({ input: { baseUrl: 'http://[::1]:8080' } });
    expect(savedNote('localhost', 'http://localhost:11434', 'ollama')).toBe("Saved as http://localhost:11434, Ollama's usual port.");
    expect(savedNote('gpu-box.local', 'http://gpu-box.local:8080', 'llama-server')).toBe("Saved as http://gpu-box.local:8080, llama-server's usual port.");
    // main drops a llama-server's /v1: both are said.
    expect(savedNote('gpu-box.local/v1', 'http://gpu-box.local:8080', 'llama-server')).toBe(
      "Saved as http://gpu-box.local:8080, llama-server's usual port: Firebrand adds /v1/… to the address itself, so the /v1 at its end was left out.",
    );
  });

  it('is refused for a kind with no usual port, asking for the port, and a scheme typed keeps its meaning', () => {
    const askPort = "Add the port the server listens on, such as lmstudio.local:1234 (LM Studio's), or enter an address that starts with http:// or https://";
    expect(typedConnection({ ...form, kind: 'openai-compatible', url: 'lmstudio.local' })).toEqual({ refused: askPort });
    expect(typedConnection({ ...form, kind: 'openai-compatible', url: 'lmstudio.local/v1' })).toEqual({ refused: askPort });
    expect(typedConnection({ ...form, kind: 'ollama', url: 'http://gpu-box.local' })).toMatchObject({ input: { baseUrl: 'http://gpu-box.local' } });
    expect(savedNote('http://gpu-box.local', 'http://gpu-box.local', 'ollama')).toBeNull();
  });

  // Settings: an Anthropic host typed alone was asked for LM Studio's port (":1234"); its API is https with none.
  it('asks an Anthropic address for its https://, not for a port, naming the host typed and Anthropic\'s own', () => {
    expect(typedConnection({ ...form, kind: 'anthropic', url: 'api.anthropic.com' })).toEqual({ refused: 'Enter the address with https:// before it: https://api.anthropic.com' });
    expect(typedConnection({ ...form, kind: 'anthropic', url: 'gateway.example.com/anthropic' })).toEqual({
      refused: "Enter the address with https:// before it, such as https://gateway.example.com/anthropic, or https://api.anthropic.com for Anthropic's own API",
    });
    for (const kind of ['anthropic', 'openai-compatible'] as const) {
      const refused = typedConnection({ ...form, kind, url: kind === 'anthropic' ? 'api.anthropic.com' : 'lmstudio.local' });
      expect('refused' in refused && refused.refused.includes(':1234'), kind).toBe(kind === 'openai-compatible');
    }
  });
});

// "api.anthropic.com:443" was saved as http://api.anthropic.com:443, and the note said http:// is what local servers
// speak: Anthropic's API answers https only, and port 443 is https's for any server.
describe('an address typed with its port, for Anthropic or on port 443', () => {
  it('is saved as https://, and the note says why', () => {
    expect(typedConnection({ ...form, kind: 'anthropic', url: 'api.anthropic.com:443' })).toMatchObject({ input: { kind: 'anthropic', baseUrl: 'https://api.anthropic.com' } });
    expect(savedNote('api.anthropic.com:443', 'https://api.anthropic.com', 'anthropic')).toBe(
      'Saved as https://api.anthropic.com: an address typed with port 443 and without http:// or https:// is taken as https://, which that port is for.',
    );
    expect(typedConnection({ ...form, kind: 'anthropic', url: 'gateway.example.com:8443/anthropic' })).toMatchObject({ input: { baseUrl: 'https://gateway.example.com:8443/anthropic' } });
    expect(savedNote('gateway.example.com:8443', 'https://gateway.example.com:8443', 'anthropic')).toBe(
      "Saved as https://gateway.example.com:8443: an Anthropic address typed without https:// is taken as https://, the only one Anthropic's API answers.",
    );
    expect(typedConnection({ ...form, kind: 'openai-compatible', url: 'llm.example.com:443/v1' })).toMatchObject({ input: { baseUrl: 'https://llm.example.com/v1' } });
    // Another port, for another kind: http://, as before.
    expect(typedConnection({ ...form, kind: 'openai-compatible', url: 'llm.example.com:8443' })).toMatchObject({ input: { baseUrl: 'http://llm.example.com:8443' } });
  });
});
