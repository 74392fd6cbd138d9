import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Database } from 'better-sqlite3';

const KEY = 'library.digests';

interface Known {
  size: number;
  mtimeMs: number;
  sha256: string;
}

/** sha256 of a whole file, streamed (a model is gigabytes: never read at once). */
export async function sha256File(path: string, signal?: AbortSignal): Promise<string> {
  const hash = createHash('sha256');
  const stream = createReadStream(path, { highWaterMark: 4 * 1024 * 1024, ...(signal ? { signal } : {}) });
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Model files' sha256, computed once per file version (path, size, mtime) and kept in the settings table, so the
 * built-in engine's request record names the exact file it ran without hashing gigabytes per message. One hash
 * per file at a time; a download's verified digest is recorded without hashing again.
 */
export class FileDigests {
  private known: Record<string, Known>;
  private readonly running = new Map<string, Promise<string>>();

  constructor(private readonly db: Database) {
    this.known = this.load();
  }

  /** The digest if it is known for the file as it is now. */
  async peek(path: string): Promise<string | null> {
    const s = await stat(path).catch(() => null);
    const k = this.known[path];
    return s && k && k.size === s.size && k.mtimeMs === s.mtimeMs ? k.sha256 : null;
  }

  async get(path: string): Promise<string> {
    const hit = await this.peek(path);
    if (hit) return hit;
    let run = this.running.get(path);
    if (!run) {
      run = (async () => {
        const before = await stat(path);
        const sha256 = await sha256File(path);
        const after = await stat(path);
        // Changed while hashing (still being written): the digest is of no version; do not keep it.
        if (after.size === before.size && after.mtimeMs === before.mtimeMs) this.remember(path, { size: after.size, mtimeMs: after.mtimeMs, sha256 });
        return sha256;
      })().finally(() => this.running.delete(path));
      this.running.set(path, run);
    }
    return run;
  }

  /** A digest known another way (a verified download). */
  async record(path: string, sha256: string): Promise<void> {
    const s = await stat(path);
    this.remember(path, { size: s.size, mtimeMs: s.mtimeMs, sha256 });
  }

  forget(path: string): void {
    if (!(path in this.known)) return;
    const { [path]: _gone, ...rest } = this.known;
    this.known = rest;
    this.save();
  }

  private remember(path: string, k: Known): void {
    this.known = { ...this.known, [path]: k };
    this.save();
  }

  private save(): void {
    this.db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(KEY, JSON.stringify(this.known));
  }

  private load(): Record<string, Known> {
    const row = this.db.prepare('SELECT value FROM settings WHERE key = ?').get(KEY) as { value: string } | undefined;
    if (!row) return {};
    try {
      const parsed = JSON.parse(row.value) as unknown;
      return parsed && typeof parsed === 'object' ? (parsed as Record<string, Known>) : {};
    } catch {
      return {};
    }
  }
}
