/**
 * The data folder is private (issue 15: it was world-readable, 0755 folders and 0644 files, conversations and
 * attachments included). Folders 0700, files 0600, for new folders and for existing ones: a folder made by an
 * earlier version is tightened in place, its data untouched. Files inside a 0700 folder are out of others' reach
 * whatever their own mode, so existing attachment files are not walked; new ones are written 0600
 * (src/main/blobs/blob-store.ts). POSIX only: Windows folders under the user's profile are private already.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const PRIVATE_DIR = 0o700;
export const PRIVATE_FILE = 0o600;

/** The database and its companions, and the key file: the files that sit directly in the data folder. */
const TOP_FILES = ['firebrand.db', 'firebrand.db-lock', 'firebrand.db-wal', 'firebrand.db-shm', 'secrets.json', 'secrets.safe.json'];

/** Creates the data folder private, or makes an existing one private; never throws (a folder not ours is logged). */
export function preparePrivateDataDir(dir: string, log: (message: string) => void): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
  if (process.platform === 'win32') return;
  tighten(dir, PRIVATE_DIR, log);
  const blobs = join(dir, 'blobs');
  if (existsSync(blobs)) {
    tighten(blobs, PRIVATE_DIR, log);
    for (const a of listDirs(blobs)) {
      tighten(join(blobs, a), PRIVATE_DIR, log);
      for (const b of listDirs(join(blobs, a))) tighten(join(blobs, a, b), PRIVATE_DIR, log);
    }
  }
  tightenFiles(dir, log);
}

/** The files directly in the data folder, 0600: after opening the database too, since SQLite may create -wal/-shm. */
export function tightenFiles(dir: string, log: (message: string) => void): void {
  if (process.platform === 'win32') return;
  for (const name of TOP_FILES) {
    const path = join(dir, name);
    if (existsSync(path)) tighten(path, PRIVATE_FILE, log);
  }
}

function tighten(path: string, mode: number, log: (message: string) => void): void {
  try {
    const current = statSync(path).mode & 0o777;
    if ((current & ~mode) !== 0) chmodSync(path, current & mode);
  } catch (err) {
    log(`data folder: could not make ${path} private (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
}

function listDirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
  } catch {
    return [];
  }
}
