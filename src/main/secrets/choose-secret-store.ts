/**
 * Which secret store the desktop app uses (issue 15). Electron's safeStorage is only as strong as its backend: on
 * Linux without a keyring it silently falls back to `basic_text`, a fixed key compiled into Chromium, which is
 * obfuscation, not encryption. So safeStorage is used only with a real backend; otherwise keys live in the 0600
 * private file and Settings says so. Keys saved earlier under `basic_text` are moved there (they were readable
 * by anyone with the file anyway). Pure apart from the files: the shell passes Electron's safeStorage in.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { FileSecretStore, SafeStorageSecretStore, type SecretStore, type StringEncryptor } from './secret-store';

/** What the shell passes of Electron's `safeStorage` (getSelectedStorageBackend exists on Linux only). */
export interface SafeStorageLike extends StringEncryptor {
  getSelectedStorageBackend?: () => string;
}

/** Linux backends that are a real keyring; anything else (`basic_text`, `unknown`) is not. */
const LINUX_KEYRINGS: Record<string, string> = {
  gnome_libsecret: 'the GNOME keyring (libsecret)',
  kwallet: 'KWallet',
  kwallet5: 'KWallet 5',
  kwallet6: 'KWallet 6',
};

/** The keyring safeStorage really uses on this platform, or undefined when it has none. */
export function realKeyring(safeStorage: SafeStorageLike, platform: NodeJS.Platform): string | undefined {
  if (!safeStorage.isEncryptionAvailable()) return undefined;
  if (platform === 'darwin') return 'the macOS Keychain';
  if (platform === 'win32') return 'Windows (DPAPI, your user account)';
  const backend = safeStorage.getSelectedStorageBackend?.() ?? 'unknown';
  return LINUX_KEYRINGS[backend];
}

export function chooseSecretStore(dataDir: string, safeStorage: SafeStorageLike, platform: NodeJS.Platform, log: (m: string) => void): SecretStore {
  const safePath = join(dataDir, 'secrets.safe.json');
  const keyring = realKeyring(safeStorage, platform);
  if (keyring) return new SafeStorageSecretStore(safePath, safeStorage, keyring);
  const file = new FileSecretStore(join(dataDir, 'secrets.json'), 'no system keyring was found (Electron would only have obfuscated them)');
  moveWeakCiphertexts(safePath, safeStorage, file, log);
  return file;
}

function moveWeakCiphertexts(safePath: string, safeStorage: SafeStorageLike, file: FileSecretStore, log: (m: string) => void): void {
  if (!existsSync(safePath)) return;
  try {
    const parsed: unknown = JSON.parse(readFileSync(safePath, 'utf8'));
    const entries = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? Object.entries(parsed) : [];
    for (const [name, cipher] of entries) {
      if (typeof cipher !== 'string' || file.get(name) !== undefined) continue;
      file.set(name, safeStorage.decryptString(Buffer.from(cipher, 'base64')));
    }
    rmSync(safePath, { force: true });
    log(`secrets: no system keyring; ${entries.length} saved key(s) moved to the private file, which Settings now names`);
  } catch (err) {
    log(`secrets: keys saved without a keyring could not be moved (${err instanceof Error ? err.message : String(err)}); enter them again in Settings`);
  }
}
