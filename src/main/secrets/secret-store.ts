import { chmodSync, existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { KeyStorage } from '../../shared/connections';

/** Secrets (API keys) at rest, by name. Values never leave main except as the leg's auth headers. */
export interface SecretStore {
  readonly kind: 'safe-storage' | 'file';
  get(name: string): string | undefined;
  set(name: string, value: string): void;
  delete(name: string): void;
  /** What protects a saved key, in plain words for Settings (issue 15: "stored encrypted" was not always true). */
  storage(): KeyStorage;
}

/** What main needs of Electron's `safeStorage`; the shell passes the real one, so main never imports electron. */
export interface StringEncryptor {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(cipher: Buffer): string;
}

/** A JSON map in one file, written atomically with mode 0600 (a temp file renamed over the old one). */
class SecretFile {
  constructor(private readonly path: string) {}

  read(): Record<string, string> {
    if (!existsSync(this.path)) return {};
    const parsed: unknown = JSON.parse(readFileSync(this.path, 'utf8'));
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(parsed)) if (typeof v === 'string') out[k] = v;
    return out;
  }

  write(map: Record<string, string>): void {
    const tmp = `${this.path}.tmp`;
    writeFileSync(tmp, JSON.stringify(map), { mode: 0o600 });
    chmodSync(tmp, 0o600); // an existing tmp keeps its old mode otherwise
    renameSync(tmp, this.path);
  }

  /** The file's permission bits, or undefined when it does not exist. */
  mode(): number | undefined {
    return existsSync(this.path) ? statSync(this.path).mode & 0o777 : undefined;
  }
}

/**
 * Electron safeStorage backed by a real OS keyring (macOS Keychain, Windows DPAPI, GNOME libsecret or KWallet;
 * src/main/secrets/choose-secret-store.ts decides): ciphertexts, base64, in `<dataDir>/secrets.safe.json`.
 */
export class SafeStorageSecretStore implements SecretStore {
  readonly kind = 'safe-storage';
  private readonly file: SecretFile;

  constructor(
    path: string,
    private readonly crypto: StringEncryptor,
    private readonly keyring = 'your system keyring',
  ) {
    this.file = new SecretFile(path);
  }

  storage(): KeyStorage {
    return { encrypted: true, summary: `Saved keys are encrypted with ${this.keyring}.` };
  }

  get(name: string): string | undefined {
    const cipher = this.file.read()[name];
    if (cipher === undefined || !this.crypto.isEncryptionAvailable()) return undefined;
    return this.crypto.decryptString(Buffer.from(cipher, 'base64'));
  }

  set(name: string, value: string): void {
    if (!this.crypto.isEncryptionAvailable()) {
      throw new Error('This system offers no encryption for saved keys (no keychain); the key was not saved.');
    }
    const map = this.file.read();
    map[name] = this.crypto.encryptString(value).toString('base64');
    this.file.write(map);
  }

  delete(name: string): void {
    const map = this.file.read();
    if (!(name in map)) return;
    delete map[name];
    this.file.write(map);
  }
}

/**
 * Serve mode's store, and the desktop's where no OS keyring exists: `<dataDir>/secrets.json`, mode 0600, like an
 * SSH key. The key is NOT encrypted: only the file's permissions protect it, and the UI says so. A file others can
 * read is refused (not silently used), so a key copied with loose permissions is noticed.
 */
export class FileSecretStore implements SecretStore {
  readonly kind = 'file';
  private readonly file: SecretFile;

  constructor(
    private readonly path: string,
    /** Why no keyring is used, for the summary ("serve mode has no keyring", "no keyring was found"). */
    private readonly why = 'serve mode uses no keyring',
  ) {
    this.file = new SecretFile(path);
  }

  // The file by its name in the data folder (it is always `<dataDir>/secrets.json`): the whole path, a temporary
  // folder's in serve mode, made the note six lines at a phone's width (settings user's-eyes pass).
  storage(): KeyStorage {
    return {
      encrypted: false,
      summary: `Saved keys are NOT encrypted, because ${this.why}: only your user account can read their file, ${basename(this.path)}.`,
    };
  }

  get(name: string): string | undefined {
    this.checkMode();
    return this.file.read()[name];
  }

  set(name: string, value: string): void {
    this.checkMode();
    const map = this.file.read();
    map[name] = value;
    this.file.write(map);
  }

  delete(name: string): void {
    this.checkMode();
    const map = this.file.read();
    if (!(name in map)) return;
    delete map[name];
    this.file.write(map);
  }

  private checkMode(): void {
    const mode = this.file.mode();
    if (mode !== undefined && process.platform !== 'win32' && (mode & 0o077) !== 0) {
      throw new Error(`${this.path} is readable by other users (mode ${mode.toString(8)}); run chmod 600 on it.`);
    }
  }
}
