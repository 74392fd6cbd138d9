/**
 * Issue 15 items 10 and 11: what protects a saved key is said plainly (an OS keyring, or only a private file's
 * permissions; never "encrypted" when Electron fell back to `basic_text`), and a key is sent only to the origin
 * it was entered for.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chooseSecretStore, type SafeStorageLike } from '../../../src/main/secrets/choose-secret-store';
import { createServices, type Services } from '../../../src/main/services';
import { startReplayServer, type ReplayServer } from '../../replay-server/replay-server';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'firebrand-keys-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A stand-in for Electron's safeStorage with a chosen backend (its "ciphertext" is reversible, like basic_text). */
function fakeSafeStorage(backend: string | undefined, available = true): SafeStorageLike {
  return {
    isEncryptionAvailable: () => available,
    encryptString: (s) => Buffer.from(`v10${Buffer.from(s).toString('hex')}`),
    decryptString: (b) => Buffer.from(b.toString().slice(3), 'hex').toString(),
    ...(backend !== undefined ? { getSelectedStorageBackend: () => backend } : {}),
  };
}

describe('the desktop app picks a secret store by what really protects it', () => {
  it('uses safeStorage only with a real keyring, and says which', () => {
    for (const [backend, platform, words] of [
      ['gnome_libsecret', 'linux', 'the GNOME keyring (libsecret)'],
      ['kwallet5', 'linux', 'KWallet 5'],
      [undefined, 'darwin', 'the macOS Keychain'],
      [undefined, 'win32', 'Windows (DPAPI, your user account)'],
    ] as const) {
      const store = chooseSecretStore(dir, fakeSafeStorage(backend), platform, () => {});
      expect(store.kind, `${platform} ${backend}`).toBe('safe-storage');
      expect(store.storage()).toEqual({ encrypted: true, summary: `Saved keys are encrypted with ${words}.` });
    }
  });

  it.skipIf(process.platform === 'win32')('on Linux without a keyring (basic_text) keeps keys in the 0600 file, moves old ones there, and says they are not encrypted', () => {
    // A key an earlier version saved through basic_text.
    writeFileSync(join(dir, 'secrets.safe.json'), JSON.stringify({ 'connection:a': fakeSafeStorage('basic_text').encryptString('sk-old').toString('base64') }));
    const logs: string[] = [];
    const store = chooseSecretStore(dir, fakeSafeStorage('basic_text'), 'linux', (m) => logs.push(m));
    expect(store.kind).toBe('file');
    expect(store.get('connection:a')).toBe('sk-old');
    expect(existsSync(join(dir, 'secrets.safe.json'))).toBe(false);
    expect(statSync(join(dir, 'secrets.json')).mode & 0o777).toBe(0o600);
    const storage = store.storage();
    expect(storage.encrypted).toBe(false);
    expect(storage.summary).toContain('NOT encrypted');
    expect(storage.summary).toContain('only your user account can read their file, secrets.json.');
    expect(storage.summary).not.toContain(dir);
    expect(storage.summary).toContain('no system keyring was found');
    expect(logs.join('\n')).toContain('moved to the private file');
    for (const [backend, available] of [['unknown', true], ['gnome_libsecret', false]] as const) {
      expect(chooseSecretStore(dir, fakeSafeStorage(backend, available), 'linux', () => {}).kind, `${backend} ${available}`).toBe('file');
    }
  });
});

describe('serve mode', () => {
  it('says plainly that keys are in a private file, not encrypted', async () => {
    const services = createServices({ dataDir: dir, log: () => {} });
    try {
      const storage = await services.handlers['connections:key-storage']({});
      expect(storage.encrypted).toBe(false);
      // Short, without the data folder's whole path (a temporary folder's, six lines at 390 px).
      expect(storage.summary).toBe('Saved keys are NOT encrypted, because serve mode uses no keyring: only your user account can read their file, secrets.json.');
    } finally {
      services.close();
    }
  });
});

describe('a key belongs to the origin it was entered for (item 11)', () => {
  let a: ReplayServer;
  let b: ReplayServer;
  let services: Services;
  beforeEach(async () => {
    const routes = [{ path: '/v1/models', body: '{"data":[{"id":"m"}]}' }];
    a = await startReplayServer(routes);
    b = await startReplayServer(routes);
    services = createServices({ dataDir: dir, log: () => {} });
  });
  afterEach(async () => {
    services.close();
    await a.close();
    await b.close();
  });

  it('is removed when the address moves to another origin, is never sent there, and is kept for a new path on the same origin', async () => {
    const h = services.handlers;
    const saved = await h['connections:save']({ kind: 'openai-compatible', label: 'GPU box', baseUrl: a.url, apiKey: 'sk-secret-for-a' });
    expect(saved.hasApiKey).toBe(true);
    await h['connections:test']({ id: saved.id });
    expect(a.requests.at(-1)?.headers['authorization']).toBe('Bearer sk-secret-for-a');

    // Same origin, another path: the key stays.
    expect((await h['connections:save']({ id: saved.id, kind: 'openai-compatible', label: 'GPU box', baseUrl: `${a.url}/proxy` })).hasApiKey).toBe(true);

    // Another origin (another port of the same host): the key is gone, and B never sees it.
    const moved = await h['connections:save']({ id: saved.id, kind: 'openai-compatible', label: 'GPU box', baseUrl: b.url });
    expect(moved.hasApiKey).toBe(false);
    await h['connections:test']({ id: saved.id });
    expect(b.requests.length).toBeGreaterThan(0);
    expect(b.requests.map((r) => r.headers['authorization'])).toEqual(b.requests.map(() => undefined));
    expect(readFileSync(join(dir, 'secrets.json'), 'utf8')).not.toContain('sk-secret-for-a');

    // Entered again for B: sent to B.
    await h['connections:save']({ id: saved.id, kind: 'openai-compatible', label: 'GPU box', baseUrl: b.url, apiKey: 'sk-for-b' });
    await h['connections:test']({ id: saved.id });
    expect(b.requests.at(-1)?.headers['authorization']).toBe('Bearer sk-for-b');
  });
});
