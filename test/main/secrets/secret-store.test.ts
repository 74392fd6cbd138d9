import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileSecretStore, SafeStorageSecretStore } from '../../../src/main/secrets/secret-store';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'firebrand-secrets-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('secret stores', () => {
  it.skipIf(process.platform === 'win32')('serve mode keeps keys in a 0600 file and refuses one others can read', () => {
    const path = join(dir, 'secrets.json');
    const store = new FileSecretStore(path);
    store.set('connection:a', 'key-1');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(new FileSecretStore(path).get('connection:a')).toBe('key-1');
    store.delete('connection:a');
    expect(store.get('connection:a')).toBeUndefined();
    chmodSync(path, 0o644);
    expect(() => store.get('connection:a')).toThrow(/chmod 600/);
  });

  it('safeStorage keeps only ciphertext on disk and refuses to save without encryption', () => {
    const path = join(dir, 'secrets.safe.json');
    let available = true;
    const crypto = {
      isEncryptionAvailable: () => available,
      encryptString: (s: string) => Buffer.from(`enc:${Buffer.from(s).toString('hex')}`),
      decryptString: (b: Buffer) => Buffer.from(b.toString().slice(4), 'hex').toString(),
    };
    const store = new SafeStorageSecretStore(path, crypto);
    store.set('k', 'plain-key');
    expect(readFileSync(path, 'utf8')).not.toContain('plain-key');
    expect(store.get('k')).toBe('plain-key');
    available = false;
    expect(() => store.set('k2', 'x')).toThrow(/no encryption/);
  });
});
