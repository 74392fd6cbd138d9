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
    expect(typedConnection({ ...form, url: 'lmstudio.local' })).toEqual({ refused: 'Enter an address that starts with http:// or https://' });
    expect(savedNote('my-box:11434', 'http://my-box:11434')).toBe('Saved as http://my-box:11434: an address typed without http:// or https:// is taken as http://, which local servers speak.');
    expect(savedNote('my-box:1234/v1', 'http://my-box:1234')).toBe(
      'Saved as http://my-box:1234: an address typed without http:// or https:// is taken as http://, which local servers speak; Firebrand adds /v1/… to the address itself, so the /v1 at its end was left out.',
    );
    expect(savedNote('http://my-box:11434/', 'http://my-box:11434')).toBeNull();
  });
});
