/**
 * What is in the models folder: every `.gguf` (subfolders too, symlinks followed), vision projectors
 * (`mmproj*.gguf`) matched to the models beside them, the later parts of split models hidden behind their first,
 * and unfinished downloads (`.gguf.part`). Never throws for one bad entry: an unreadable subfolder is skipped.
 */
import { statSync } from 'node:fs';
import { mkdir, readdir, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { UserFacingError } from '../errors';

export interface FolderFile {
  /** Relative to the models folder, `/`-separated: the model's name in Firebrand. */
  file: string;
  path: string;
  size: number;
  mtimeMs: number;
}

export interface FolderScan {
  models: FolderFile[];
  /** Vision projectors by the folder (relative, `/`) they sit in. */
  projectors: Map<string, string[]>;
  /** Unfinished downloads: `x.gguf.part`, named by the model they become (`x.gguf`). */
  parts: FolderFile[];
}

const MAX_DEPTH = 6;
export const PART_SUFFIX = '.part';
const SPLIT = /-(\d{5})-of-(\d{5})\.gguf$/i;

export const isProjector = (name: string) => /mmproj/i.test(name);

/**
 * Why `dir` cannot be chosen as the models folder in Settings, or null. A folder that is not there is refused, not
 * created: Save cannot tell a typo from a new folder, and a typo made into a folder hid the user's models behind
 * "No GGUF models yet" (settings audit #7). A file was accepted and then failed every list with EEXIST.
 */
export function chosenFolderProblem(dir: string): string | null {
  const shown = dir.slice(0, 200);
  let s;
  try {
    s = statSync(dir);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === 'ENOENT') return `There is no folder at ${shown}. Check the spelling, or create the folder first, then save again.`;
    if (code === 'ENOTDIR') return `${shown} is not a folder: part of the path is a file.`;
    if (code === 'EACCES' || code === 'EPERM') return `Firebrand may not open ${shown}: check the folder's permissions.`;
    throw err;
  }
  return s.isDirectory() ? null : `${shown} is a file, not a folder: choose the folder that holds your .gguf files.`;
}

export async function scanModelsFolder(dir: string): Promise<FolderScan> {
  // A file where the folder should be (saved before Settings checked it, or put there since): said, not an EEXIST.
  const there = await stat(dir).catch(() => null);
  if (there && !there.isDirectory()) throw new UserFacingError('invalid-payload', `The models folder ${dir} is a file, not a folder: choose a folder in Settings.`);
  await mkdir(dir, { recursive: true });
  const scan: FolderScan = { models: [], projectors: new Map(), parts: [] };
  await walk(dir, dir, 0, scan);
  scan.models.sort((a, b) => a.file.localeCompare(b.file));
  return scan;
}

async function walk(root: string, dir: string, depth: number, scan: FolderScan): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (name.startsWith('.')) continue;
    const path = join(dir, name);
    const s = await stat(path).catch(() => null);
    if (!s) continue;
    if (s.isDirectory()) {
      if (depth < MAX_DEPTH) await walk(root, path, depth + 1, scan);
      continue;
    }
    if (!s.isFile()) continue;
    const file = relative(root, path).split(sep).join('/');
    const lower = name.toLowerCase();
    if (lower.endsWith(`.gguf${PART_SUFFIX}`)) {
      scan.parts.push({ file: file.slice(0, -PART_SUFFIX.length), path, size: s.size, mtimeMs: s.mtimeMs });
      continue;
    }
    if (!lower.endsWith('.gguf')) continue;
    if (isProjector(name)) {
      const folder = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
      scan.projectors.set(folder, [...(scan.projectors.get(folder) ?? []), file]);
      continue;
    }
    const split = SPLIT.exec(name);
    // A split model loads from its first part; the others are not models of their own.
    if (split && split[1] !== '00001') continue;
    scan.models.push({ file, path, size: s.size, mtimeMs: s.mtimeMs });
  }
}

/**
 * The absolute path of `file` inside the models folder. A name that would leave the folder (`..`, an absolute
 * path) is refused: the renderer names files, and it must not reach anything else on disk.
 */
export function pathInFolder(dir: string, file: string): string {
  const root = resolve(dir);
  const full = resolve(root, file);
  if (full !== root && full.startsWith(root + sep)) return full;
  throw new UserFacingError('invalid-payload', `“${file.slice(0, 200)}” is not a file in the models folder.`);
}

/** A file name a user typed for a model: one path segment or a relative path, ending `.gguf`. */
export function modelFileName(name: string): string {
  const trimmed = name.trim().replace(/\\/g, '/');
  if (trimmed === '' || trimmed.split('/').some((seg) => seg === '' || seg === '.' || seg === '..')) {
    throw new UserFacingError('invalid-payload', 'Give the model a file name such as my-model.gguf.');
  }
  return trimmed.toLowerCase().endsWith('.gguf') ? trimmed : `${trimmed}.gguf`;
}
