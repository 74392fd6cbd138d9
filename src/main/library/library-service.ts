/**
 * The model library (DESIGN.md §9): the GGUF files of the models folder as entries read from their own metadata,
 * with unusable files listed and the reason given. Entries are cached per file version (size, mtime), so listing
 * a folder of large models does not reread their headers. Add by copy or link, delete, rename.
 */
import type { Stats } from 'node:fs';
import { copyFile, link, mkdir, open, rename, rm, stat, symlink, utimes } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { DownloadProgress, LibraryEntry } from '../../shared/library';
import { ChatTemplate } from '../builtin/prompt/chat-template';
import { UserFacingError } from '../errors';
import type { FileDigests } from './file-digest';
import { readModelInfo, UnusableModelError, type ModelFileInfo } from './gguf-info';
import { modelFileName, pathInFolder, scanModelsFolder, type FolderFile } from './models-folder';
import { typedFilePathCandidates } from './typed-file-path';

export interface LibraryDeps {
  modelsDir: () => string;
  digests: FileDigests;
  log: (message: string) => void;
  /** Downloads in progress or paused, by the file they write (DownloadManager; restores earlier sessions' first). */
  downloads: () => Promise<DownloadProgress[]>;
  /** The folder's GGUFs as a list just read them (ServerWatch compares them with its own looks). */
  scanned?: (models: readonly FolderFile[]) => void;
  /** Something in the folder changed (added, deleted, renamed: then which file became which). */
  changed: (reason: string, renamed?: { from: string; to: string }) => void;
}

interface Cached {
  version: string;
  info: ModelFileInfo | null;
  reason: string | null;
  template?: ChatTemplate;
}

/** A usable model with everything the engine needs. */
export interface LibraryModel {
  entry: LibraryEntry;
  info: ModelFileInfo;
  template: ChatTemplate;
}

export class LibraryService {
  private readonly cache = new Map<string, Cached>();
  private last: LibraryEntry[] = [];

  constructor(private readonly deps: LibraryDeps) {}

  get dir(): string {
    return this.deps.modelsDir();
  }

  async list(): Promise<LibraryEntry[]> {
    const dir = this.dir;
    const scan = await scanModelsFolder(dir);
    this.deps.scanned?.(scan.models);
    const downloads = new Map((await this.deps.downloads()).map((d) => [d.file, d]));
    const entries: LibraryEntry[] = [];
    for (const f of scan.models) {
      const folder = f.file.includes('/') ? f.file.slice(0, f.file.lastIndexOf('/')) : '';
      const mmproj = scan.projectors.get(folder)?.[0] ?? null;
      entries.push(await this.entryOf(f, mmproj, downloads.get(f.file) ?? null));
      downloads.delete(f.file);
    }
    // A download's `.part` file (or one not yet begun) is listed under the name it will have.
    for (const p of scan.parts) {
      const d = downloads.get(p.file) ?? null;
      downloads.delete(p.file);
      entries.push(downloadingEntry(p.file, pathInFolder(dir, p.file), d?.bytes ?? p.size, d));
    }
    for (const d of downloads.values()) entries.push(downloadingEntry(d.file, pathInFolder(dir, d.file), d.bytes, d));
    entries.sort((a, b) => a.file.localeCompare(b.file));
    this.last = entries;
    return entries;
  }

  /** A usable model by its file name; a user-facing error says why not otherwise. */
  async model(file: string): Promise<LibraryModel> {
    const path = pathInFolder(this.dir, file);
    const s = await stat(path).catch(() => null);
    if (!s?.isFile()) throw new UserFacingError('not-found', `${file} is not in the models folder (${this.dir}). Add it in Models, or pick another model.`);
    const cached = await this.read(path, s.size, s.mtimeMs);
    if (!cached.info) throw new UserFacingError('invalid-payload', `${file} cannot be used: ${cached.reason ?? 'its header could not be read.'}`);
    if (!cached.template) throw new Error('usable model without a template');
    const entry = this.last.find((e) => e.file === file) ?? (await this.entryOf({ file, path, size: s.size, mtimeMs: s.mtimeMs }, null, null));
    return { entry, info: cached.info, template: cached.template };
  }

  /** Copies or links a GGUF into the folder; the file is checked first, so a non-model is refused with why. */
  async addFile(typed: string, mode: 'copy' | 'link'): Promise<LibraryEntry> {
    const { source, s } = await this.typedSource(typed);
    // Models audit #7: a folder was "no file at …", though something is there.
    if (s?.isDirectory()) {
      throw new UserFacingError('invalid-payload', `${source} is a folder, not a file: type the path of a .gguf file in it, or choose it as the models folder in Settings.`);
    }
    if (!s?.isFile()) throw new UserFacingError('not-found', `There is no file at ${source}.`);
    try {
      await readModelInfo(source);
    } catch (err) {
      if (err instanceof UnusableModelError) throw new UserFacingError('invalid-payload', `${basename(source)} was not added: ${err.message}`);
      throw err;
    }
    const there = (await this.listedAs(s)) ?? (await this.copyOf(source, s));
    if (there !== null) {
      const as = there === basename(source) ? '' : ` (as ${there})`;
      throw new UserFacingError('invalid-payload', `${basename(source)} is already in the models folder${as}, so nothing was added.`);
    }
    const file = await this.freeName(modelFileName(basename(source)));
    const target = pathInFolder(this.dir, file);
    await mkdir(dirname(target), { recursive: true });
    if (mode === 'copy') {
      await copyFile(source, target);
      // The copy keeps the original's modification time, so adding the same file again can be told from its size
      // and time (with a few samples of its bytes) instead of copying gigabytes twice.
      await utimes(target, s.atime, s.mtime).catch(() => undefined);
    } else {
      // A hard link costs no space and survives the original being moved; across disks a symlink is the link.
      await link(source, target).catch(() => symlink(source, target));
    }
    this.deps.changed('added');
    const entries = await this.list();
    const entry = entries.find((e) => e.file === file);
    if (!entry) throw new Error('added model vanished');
    return entry;
  }

  /** The first of the paths `typed` may mean that something is at, else the path as typed (to say it is not there). */
  private async typedSource(typed: string): Promise<{ source: string; s: Stats | null }> {
    const candidates = typedFilePathCandidates(typed);
    for (const source of candidates) {
      const s = await stat(source).catch(() => null);
      if (s) return { source, s };
    }
    return { source: candidates[0] ?? typed, s: null };
  }

  async delete(file: string): Promise<boolean> {
    const path = pathInFolder(this.dir, file);
    const s = await stat(path).catch(() => null);
    if (!s) return false;
    await rm(path, { force: true });
    this.cache.delete(path);
    this.deps.digests.forget(path);
    this.deps.changed('deleted');
    return true;
  }

  async rename(file: string, to: string): Promise<LibraryEntry> {
    const from = pathInFolder(this.dir, file);
    if (!(await stat(from).catch(() => null))) throw new UserFacingError('not-found', `${file} is not in the models folder.`);
    const name = modelFileName(to);
    const target = pathInFolder(this.dir, name);
    if (await stat(target).catch(() => null)) throw new UserFacingError('invalid-payload', `There is already a model named ${name}.`);
    await mkdir(dirname(target), { recursive: true });
    await rename(from, target);
    this.cache.delete(from);
    this.deps.digests.forget(from);
    // Said before the folder watch can see it: a page's choice follows the file, instead of taking it for gone.
    this.deps.changed('renamed', { from: file, to: name });
    const entry = (await this.list()).find((e) => e.file === name);
    if (!entry) throw new Error('renamed model vanished');
    return entry;
  }

  /** `name`, or `name-2.gguf`, `name-3.gguf`... whichever is free. */
  /**
   * The entry that is the file `source` (one stat), where the folder has it already: the file itself, a hard link
   * or a symbolic link to it. Models audit #5: adding weather.gguf from the models folder made weather-3.gguf, a
   * second copy of a model that may be many GB. A copy of an outside file added before is a file of its own: it is
   * found by its size and modification time (a copy keeps the original's), then a few samples of both files' bytes.
   */
  private async listedAs(source: Stats): Promise<string | null> {
    // A file system without inode numbers (0 for every file) cannot tell: nothing is refused on a guess.
    if (source.ino === 0) return null;
    for (const e of await this.list()) {
      const s = await stat(e.path).catch(() => null);
      if (s !== null && s.dev === source.dev && s.ino === source.ino) return e.file;
    }
    return null;
  }

  /** The entry that is a copy of `path` (whose stat is `source`), by size, modification time and sampled bytes. */
  private async copyOf(path: string, source: Stats): Promise<string | null> {
    for (const e of await this.list()) {
      const s = await stat(e.path).catch(() => null);
      // Two seconds: the coarsest modification time a file system keeps (FAT).
      if (s === null || s.size !== source.size || Math.abs(s.mtimeMs - source.mtimeMs) >= 2000) continue;
      if (await sameSamples(path, e.path, source.size)) return e.file;
    }
    return null;
  }

  private async freeName(name: string): Promise<string> {
    const stem = name.slice(0, -'.gguf'.length);
    for (let i = 1; ; i++) {
      const candidate = i === 1 ? name : `${stem}-${i}.gguf`;
      if (!(await stat(pathInFolder(this.dir, candidate)).catch(() => null))) return candidate;
    }
  }

  private async read(path: string, size: number, mtimeMs: number): Promise<Cached> {
    const version = `${size}:${mtimeMs}`;
    const hit = this.cache.get(path);
    if (hit?.version === version) return hit;
    let cached: Cached;
    try {
      const info = await readModelInfo(path);
      let template: ChatTemplate;
      try {
        template = new ChatTemplate(info.template, info.tokens);
        void template.caps;
      } catch (err) {
        throw new UnusableModelError(`Its chat template cannot be read: ${err instanceof Error ? err.message : String(err)}`);
      }
      cached = { version, info, reason: null, template };
    } catch (err) {
      const reason = err instanceof UnusableModelError ? err.message : `The file could not be read: ${err instanceof Error ? err.message : String(err)}`;
      cached = { version, info: null, reason };
    }
    this.cache.set(path, cached);
    return cached;
  }

  private async entryOf(f: FolderFile, mmproj: string | null, download: DownloadProgress | null): Promise<LibraryEntry> {
    const { info, reason, template } = await this.read(f.path, f.size, f.mtimeMs);
    const caps = template?.caps ?? null;
    return {
      file: f.file,
      path: f.path,
      sizeBytes: f.size,
      state: info ? 'usable' : 'unusable',
      reason: info ? null : reason,
      architecture: info?.architecture ?? null,
      parameterCount: info?.parameterCount ?? null,
      quantization: info?.quantization ?? null,
      trainedContext: info?.trainedContext ?? null,
      tools: caps?.toolCallFormat === 'hermes',
      thinking: caps?.thinking ?? false,
      vision: mmproj !== null,
      mmproj,
      sha256: await this.deps.digests.peek(f.path),
      download,
    };
  }

}

function downloadingEntry(file: string, path: string, bytes: number, download: DownloadProgress | null): LibraryEntry {
  return {
    file,
    path,
    sizeBytes: download?.total ?? bytes,
    state: 'downloading',
    reason: download?.state === 'error' ? (download.error ?? 'The download failed.') : null,
    architecture: null,
    parameterCount: null,
    quantization: null,
    trainedContext: null,
    tools: false,
    thinking: false,
    vision: false,
    mmproj: null,
    sha256: null,
    download,
  };
}

/** The first and last MiB and 14 blocks between them are the same in both files (both `size` bytes). */
async function sameSamples(a: string, b: string, size: number): Promise<boolean> {
  const block = 1024 * 1024;
  const offsets = new Set<number>([0, Math.max(0, size - block)]);
  for (let i = 1; i <= 14; i++) offsets.add(Math.floor((size * i) / 15));
  const [fa, fb] = await Promise.all([open(a, 'r'), open(b, 'r')]);
  try {
    const ba = Buffer.alloc(block);
    const bb = Buffer.alloc(block);
    for (const at of offsets) {
      const [ra, rb] = await Promise.all([fa.read(ba, 0, block, at), fb.read(bb, 0, block, at)]);
      if (ra.bytesRead !== rb.bytesRead || !ba.subarray(0, ra.bytesRead).equals(bb.subarray(0, rb.bytesRead))) return false;
    }
    return true;
  } finally {
    await Promise.all([fa.close(), fb.close()]);
  }
}
