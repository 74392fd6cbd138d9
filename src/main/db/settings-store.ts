import { isAbsolute } from 'node:path';
import type { Database } from 'better-sqlite3';
import type { Settings } from '../../shared/ipc';
import { readAddress } from '../../shared/server-address';
import { serverUrlProblem } from '../connections/server-url';
import { UserFacingError } from '../errors';
import { chosenFolderProblem } from '../library/models-folder';
import { readOnlyReason } from './read-only-copy';

export const DEFAULT_SETTINGS: Settings = {
  ollamaUrl: 'http://127.0.0.1:11434',
  defaultModel: null,
  defaultChatModel: null,
  activeConnectionId: 'ollama',
  theme: 'system',
  modelsDir: null,
  builtinIdleMinutes: 10,
};

/**
 * Settings as one JSON value per key; unknown keys in the table are ignored, missing ones take the default.
 * `changed` hears every update with the settings as saved: each window and tab shows them (a theme picked in one
 * tab carried to the others only once they were reloaded).
 */
export class SettingsStore {
  /** Values given for this run that a full disk kept from being saved (`useForThisRun`); saved ones replace them. */
  private unsaved: Partial<Settings> = {};

  constructor(
    private readonly db: Database,
    private readonly changed: (settings: Settings) => void = () => {},
  ) {}

  get(): Settings {
    const rows = this.db.prepare('SELECT key, value FROM settings').all() as { key: string; value: string }[];
    const settings: Settings = { ...DEFAULT_SETTINGS };
    for (const { key, value } of rows) {
      if (key in settings) (settings as unknown as Record<string, unknown>)[key] = JSON.parse(value);
    }
    const readOnly = readOnlyReason(this.db);
    return { ...settings, ...this.unsaved, ...(readOnly ? { readOnly } : {}) };
  }

  /**
   * Saves what the command line gave (`--ollama`, `--models-dir`), as `update` does; on a full disk they are used
   * for this run all the same, unsaved, and false comes back. (Round 6: serve mode started with `--ollama` on a
   * full disk ended with "Firebrand could not start: database or disk is full", the flag's save being the first
   * write a start makes, where without the flag it opened the chats.)
   */
  useForThisRun(given: Partial<Settings>): boolean {
    if (Object.keys(given).length === 0) return true;
    // `--ollama localhost` or `--ollama gpu-box:11434` is read as Settings → Ollama address reads it
    // (shared/server-address.ts): the command line refused what the field took.
    const patch = given.ollamaUrl === undefined ? given : { ...given, ollamaUrl: readAddress(given.ollamaUrl, 'ollama').address };
    try {
      // A folder named on the command line is made if it is missing (as `mkdir -p` would): it was asked for by name.
      this.refuseBad(patch);
      this.write(patch);
      return true;
    } catch (err) {
      const code = (err as { code?: unknown } | null)?.code;
      // SQLITE_READONLY: the chats open read-only on a full disk (read-only-copy.ts).
      if (code !== 'SQLITE_FULL' && code !== 'ENOSPC' && code !== 'SQLITE_READONLY') throw err;
      this.unsaved = { ...this.unsaved, ...patch };
      return false;
    }
  }

  /** A change made in Settings: a models folder must be there already, and be a folder (chosenFolderProblem). */
  update(patch: Partial<Settings>): Settings {
    this.refuseBad(patch);
    const folderProblem = typeof patch.modelsDir === 'string' ? chosenFolderProblem(patch.modelsDir) : null;
    if (folderProblem) throw new UserFacingError('invalid-payload', folderProblem, 'modelsDir');
    return this.write(patch);
  }

  private refuseBad(patch: Partial<Settings>): void {
    // Checked before the transaction: a patch with one bad value writes none of its values.
    const urlProblem = patch.ollamaUrl !== undefined ? serverUrlProblem(patch.ollamaUrl) : undefined;
    if (urlProblem) throw new UserFacingError('invalid-payload', urlProblem, 'ollamaUrl');
    if (typeof patch.modelsDir === 'string' && !isAbsolute(patch.modelsDir)) {
      throw new UserFacingError('invalid-payload', `The models folder must be a full path (such as /home/me/models), not “${patch.modelsDir.slice(0, 200)}”.`, 'modelsDir');
    }
  }

  private write(patch: Partial<Settings>): Settings {
    const put = this.db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
    this.db.transaction(() => {
      for (const [key, value] of Object.entries(patch)) {
        if (value !== undefined && key in DEFAULT_SETTINGS) put.run(key, JSON.stringify(value));
      }
    })();
    for (const key of Object.keys(patch)) delete (this.unsaved as Record<string, unknown>)[key];
    const saved = this.get();
    this.changed(saved);
    return saved;
  }
}
