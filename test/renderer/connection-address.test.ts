/** What the connection forms make of what was typed. */
import { describe, expect, it } from 'vitest';
import { typedConnection } from '../../src/renderer/components/settings/connection-address';

const form = { id: 'c1', kind: 'openai-compatible' as const, label: 'LM Studio', defaultLabel: 'LM Studio', url: 'http://127.0.0.1:1234', key: '' };

describe('typedConnection', () => {
  // Settings audit #8: an empty key field keeps the saved key, and nothing else could remove it.
  it('keeps the saved key when none is typed, removes it when asked, and a typed key wins', () => {
    expect(typedConnection(form)).toEqual({ input: { id: 'c1', kind: 'openai-compatible', label: 'LM Studio', baseUrl: 'http://127.0.0.1:1234' } });
    expect(typedConnection({ ...form, removeKey: true })).toMatchObject({ input: { apiKey: '' } });
    expect(typedConnection({ ...form, removeKey: true, key: 'sk-new' })).toMatchObject({ input: { apiKey: 'sk-new' } });
  });
});
