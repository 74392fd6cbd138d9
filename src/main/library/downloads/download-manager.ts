/**
 * Downloads into the models folder, resumable across dropped connections and app restarts (issue 14):
 * - bytes go to `<file>.part`; a hidden sidecar (./sidecar.ts) keeps the source, the size and sha256 the
 *   source stated and its ETag, so a later start (after a pause, a crash, a restart) resumes with `Range`;
 * - a dropped connection is retried with `Range: bytes=<what is on disk>-` (and `If-Range`, so a file that changed
 *   on the server starts over instead of being spliced), with a growing pause, while progress is being made;
 * - the room on the disk is checked before starting and while writing, so that a margin is left for the chats
 *   (./disk-margin.ts); the first bytes must be a GGUF's; the size (and the sha256, where
 *   the source gives one) is verified at the end, before the file takes its name. A failed check deletes the bytes.
 * undici does the HTTP (redirects, timeouts); what is written here is the resume and verification policy.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { request } from '../../leg/undici';
import type { DownloadProgress } from '../../../shared/library';
import { resumeWords } from '../../../shared/resume-words';
import type { EmitEvent } from '../../events';
import { isDiskFull } from '../../db/disk-reserve';
import { UserFacingError } from '../../errors';
import { sha256File, type FileDigests } from '../file-digest';
import { GgufIncompleteError, readGgufHeader } from '../gguf-header';
import { pathInFolder, PART_SUFFIX } from '../models-folder';
import { checkRoomBeforeStart, chatsMarginFor, diskSpaceOf, MarginGuard, marginReason, OutOfMarginError, type ChatsOnDisk, type DiskSpaceProbe, type MarginRule } from './disk-margin';
import { describeRemote, downloadDispatcher, elsewhere, fromUrl, parseSource, SourceRefusedError, type DownloadSource } from './download-source';
import { GGUF_MAGIC, NotGgufError, readHead } from './not-gguf';
import { isSidecarName, readSidecar, removeDownloadFiles, sidecarPath, writeSidecar, type Sidecar } from './sidecar';
import { SpeedMeter } from './speed-meter';
import { unreachableMessage } from './unreachable';

export interface DownloadDeps {
  modelsDir: () => string;
  digests: FileDigests;
  newId: () => string;
  log: (message: string) => void;
  emit: EmitEvent;
  changed: (reason: string) => void;
  /** Pause before retry n (1-based) after a dropped connection. */
  retryDelayMs?: (attempt: number) => number;
  /** The room on the models folder's disk (tests make a disk "full"). */
  diskSpace?: DiskSpaceProbe;
  /** The room a download leaves free there for the chats (tests with a small disk keep a smaller one). */
  marginFor?: MarginRule;
  /** Whether the chats are on that disk too (chatsOnDiskOf the data folder); taken to be when not given. */
  chatsOnDisk?: ChatsOnDisk;
}

interface Running {
  progress: DownloadProgress;
  controller: AbortController | null;
  meter: SpeedMeter;
  /** A report held back by the throttle, sent a moment later so a stalled download still shows its last bytes. */
  trailing?: NodeJS.Timeout;
}

/** Retries without progress before a download gives up (a server that keeps dropping at once). */
const MAX_RETRIES_WITHOUT_PROGRESS = 5;

export class DownloadManager {
  private readonly all = new Map<string, Running>();
  private restored: string | null = null;

  constructor(private readonly deps: DownloadDeps) {}

  /** Downloads running, paused (this session or an earlier one: from their sidecars), or just ended. */
  list(): DownloadProgress[] {
    return [...this.all.values()].map((r) => r.progress).filter((p) => p.state !== 'done' && p.state !== 'cancelled');
  }

  /** Reads the sidecars left by earlier sessions: those downloads show as paused, to resume. */
  async restore(): Promise<void> {
    const dir = this.deps.modelsDir();
    if (this.restored === dir) return;
    this.restored = dir;
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      if (!isSidecarName(name)) continue;
      const car = await readSidecar(join(dir, name));
      if (!car || [...this.all.values()].some((r) => r.progress.file === car.file)) continue;
      const bytes = (await stat(pathInFolder(dir, car.file) + PART_SUFFIX).catch(() => null))?.size ?? 0;
      const id = this.deps.newId();
      this.all.set(id, { progress: { downloadId: id, file: car.file, source: car.source, state: 'paused', bytes, total: car.total, bytesPerSecond: null, etaSeconds: null }, controller: null, meter: new SpeedMeter() });
    }
  }

  /**
   * Starts a download, or resumes the one from the same address. Another address for a file that a download still
   * writes is refused: it took over that download's row and source, and its bytes (a different file, maybe) went on
   * from the first one's. One refused for good (a 404, a web page) keeps its row and message beside the new one.
   */
  async start(input: string): Promise<{ downloadId: string }> {
    await this.restore();
    const src = parseSource(input);
    const sameFile = [...this.all.entries()].filter(([, r]) => r.progress.file === src.file && r.progress.state !== 'done' && r.progress.state !== 'cancelled');
    const going = sameFile.find(([, r]) => r.progress.resumable !== false);
    if (going && !fromUrl(going[1].progress.source, src.url)) throw new UserFacingError('invalid-payload', elsewhere(src.file, going[1].progress.state));
    const existing = going ?? sameFile.find(([, r]) => fromUrl(r.progress.source, src.url));
    if (existing && existing[1].progress.state === 'running') return { downloadId: existing[0] };
    const dir = this.deps.modelsDir();
    const target = pathInFolder(dir, src.file);
    if (!existing && (await stat(target).catch(() => null))) throw new UserFacingError('invalid-payload', `${src.file} is already in the models folder.`);
    const id = existing?.[0] ?? this.deps.newId();
    const run: Running = existing?.[1] ?? { progress: { downloadId: id, file: src.file, source: src.source, state: 'running', bytes: 0, total: null, bytesPerSecond: null, etaSeconds: null }, controller: null, meter: new SpeedMeter() };
    run.controller = new AbortController();
    run.progress = { ...run.progress, source: src.source, state: 'running', bytesPerSecond: null, etaSeconds: null };
    delete run.progress.error;
    delete run.progress.resumable;
    this.all.set(id, run);
    this.report(run);
    void this.run(run, src, run.controller.signal).catch((err: unknown) => this.fail(run, err, src.url));
    return { downloadId: id };
  }

  pause(id: string): boolean {
    const r = this.all.get(id);
    if (r?.progress.state !== 'running') return false;
    r.progress = { ...r.progress, state: 'paused', bytesPerSecond: null, etaSeconds: null };
    r.controller?.abort();
    this.report(r);
    return true;
  }

  pauseAll(): void {
    for (const id of this.all.keys()) this.pause(id);
  }

  /** Stops and deletes what was downloaded. */
  async cancel(id: string): Promise<boolean> {
    const r = this.all.get(id);
    if (!r) return false;
    r.progress = { ...r.progress, state: 'cancelled', bytesPerSecond: null, etaSeconds: null };
    r.controller?.abort();
    // One refused for good has nothing on disk (fail() removed it): what is there now is another download's.
    if (r.progress.resumable !== false) {
      await removeDownloadFiles(this.deps.modelsDir(), r.progress.file);
    }
    this.report(r);
    this.all.delete(id);
    this.deps.changed('download-cancelled');
    return true;
  }

  private async run(r: Running, src: DownloadSource, signal: AbortSignal): Promise<void> {
    const dir = this.deps.modelsDir();
    const target = pathInFolder(dir, src.file);
    const part = target + PART_SUFFIX;
    await mkdir(dirname(target), { recursive: true });
    const old = await readSidecar(sidecarPath(dir, src.file));
    const remote = await describeRemote(src.url, signal);
    // A file that changed at the source since the last session cannot be continued: its bytes start over.
    const same = old !== null && old.url === src.url && (old.etag === null || remote.etag === null || old.etag === remote.etag) && old.total === remote.size;
    if (!same) await rm(part, { force: true });
    const car: Sidecar = { source: src.source, url: src.url, file: src.file, total: remote.size, sha256: remote.sha256, etag: remote.etag };
    await writeSidecar(dir, car);
    let have = (await stat(part).catch(() => null))?.size ?? 0;
    r.progress = { ...r.progress, bytes: have, total: remote.size };
    const probe = this.deps.diskSpace ?? diskSpaceOf;
    const marginFor = this.deps.marginFor ?? chatsMarginFor;
    const why = marginReason(this.deps.chatsOnDisk ? await this.deps.chatsOnDisk(dir) : true);
    if (remote.size !== null) await checkRoomBeforeStart(src.file, dir, remote.size - have, probe, marginFor, why);
    const guard = new MarginGuard(src.file, dir, probe, marginFor, why);
    this.changedAndReport(r);

    let failures = 0;
    while (remote.size === null || have < remote.size) {
      if (signal.aborted) return;
      const before = have;
      try {
        const done = await this.transfer(r, src.url, part, have, car.etag, guard, signal);
        have = (await stat(part).catch(() => null))?.size ?? 0;
        // With no length from the source, a body that ended early looks like one that ended: the file's own
        // header says how long it must be, and a short one is resumed like a dropped connection.
        if (done && remote.size === null) await endedEarly(src.file, part);
        if (done) break;
      } catch (err) {
        if (signal.aborted) return;
        // Not a GGUF file: asking again gets the same page (its bytes are gone already). A full disk: asking again
        // cannot help until there is room (it was taken for a dropped connection and asked for five more times).
        if (err instanceof NotGgufError || err instanceof OutOfMarginError || isDiskFull(err)) throw err;
        have = (await stat(part).catch(() => null))?.size ?? 0;
        failures = have > before ? 1 : failures + 1;
        if (failures > MAX_RETRIES_WITHOUT_PROGRESS) throw err;
        this.deps.log(`downloads: ${src.file} dropped at ${have} bytes (${err instanceof Error ? err.message : String(err)}); resuming`);
        await sleep((this.deps.retryDelayMs ?? defaultDelay)(failures), signal);
      }
    }
    if (signal.aborted) return;
    await this.verify(r, car, part, target);
  }

  /** One request from byte `from`; true when the body ended with the whole file on disk. Throws when it broke. */
  private async transfer(r: Running, url: string, part: string, from: number, etag: string | null, guard: MarginGuard, signal: AbortSignal): Promise<boolean> {
    const headers: Record<string, string> = from > 0 ? { range: `bytes=${from}-`, ...(etag ? { 'if-range': etag } : {}) } : {};
    const res = await request(url, { method: 'GET', headers, signal, dispatcher: downloadDispatcher, headersTimeout: 60_000, bodyTimeout: 60_000 });
    if (res.statusCode === 416) {
      await res.body.dump();
      return true;
    }
    if (res.statusCode !== 200 && res.statusCode !== 206) {
      await res.body.dump();
      throw new UserFacingError('server-error', `The download answered HTTP ${res.statusCode}.`);
    }
    // 200 to a ranged request: the server sends the whole file, so what is on disk is replaced.
    const append = res.statusCode === 206 && from > 0;
    let bytes = append ? from : 0;
    // The file's first bytes say whether it is a GGUF at all: a web page (a Hugging Face blob/ link, a login
    // page) is refused at its first chunk, not downloaded whole and called verified (models audit #5).
    let head: Buffer | null = append ? null : Buffer.alloc(0);
    const contentType = String(res.headers['content-type'] ?? '');
    let refused: NotGgufError | null = null;
    const out = createWriteStream(part, { flags: append ? 'a' : 'w' });
    try {
      for await (const chunk of res.body) {
        const buf = chunk as Buffer;
        if (head !== null) {
          head = Buffer.concat([head, buf]);
          if (head.length >= GGUF_MAGIC.length) {
            if (!head.subarray(0, GGUF_MAGIC.length).equals(GGUF_MAGIC)) {
              refused = new NotGgufError(r.progress.file, head, contentType);
              break;
            }
            head = null;
          }
        }
        await guard.take(buf.length, r.progress.total === null ? null : r.progress.total - bytes, out.writableLength, bytes);
        // A write that fails (ENOSPC) ends the stream with 'error' and no 'drain': waiting for that only hung.
        if (!out.write(buf)) await drained(out);
        bytes += buf.length;
        this.progress(r, bytes);
      }
    } finally {
      await new Promise<void>((resolve, reject) => {
        // A stream a write failed on (ENOSPC) is destroyed already: its own error is the one to tell, not end()'s
        // "Cannot call end after a stream was destroyed", which hid the full disk.
        if (out.errored) return reject(out.errored);
        out.end((err?: Error | null) => (err ? reject(out.errored ?? err) : resolve()));
      });
    }
    if (refused) {
      // The body's rest is not read: the page (or a large wrong file) is left on the server.
      res.body.destroy();
      await rm(part, { force: true });
      throw refused;
    }
    return r.progress.total === null || bytes >= r.progress.total;
  }

  private async verify(r: Running, car: Sidecar, part: string, target: string): Promise<void> {
    r.progress = { ...r.progress, state: 'verifying', bytesPerSecond: null, etaSeconds: null };
    this.report(r);
    const size = (await stat(part)).size;
    // A resumed download's first bytes came in an earlier session; a file shorter than the magic never showed it.
    const first = await readHead(part, GGUF_MAGIC.length);
    if (!first.equals(GGUF_MAGIC)) {
      await rm(part, { force: true });
      throw new NotGgufError(car.file, first, '');
    }
    if (car.total !== null && size !== car.total) {
      await rm(part, { force: true });
      throw new UserFacingError('server-error', `${car.file} arrived with ${size} bytes where the source said ${car.total}; it was removed. Download it again.`);
    }
    const sha256 = await sha256File(part);
    if (car.sha256 !== null && sha256 !== car.sha256) {
      await rm(part, { force: true });
      throw new UserFacingError('server-error', `${car.file} does not match the sha256 its source gives (${car.sha256.slice(0, 12)}…, got ${sha256.slice(0, 12)}…); it was removed. Download it again.`);
    }
    if (await stat(target).catch(() => null)) throw new UserFacingError('invalid-payload', `${car.file} appeared in the models folder meanwhile; the download is kept as ${basename(part)}.`);
    await rename(part, target);
    await rm(sidecarPath(this.deps.modelsDir(), car.file), { force: true });
    await this.deps.digests.record(target, sha256);
    r.progress = { ...r.progress, state: 'done', bytes: size, total: size, bytesPerSecond: null, etaSeconds: null, verified: car.sha256 !== null };
    this.changedAndReport(r);
    this.deps.log(`downloads: ${car.file} done (${size} bytes, sha256 ${sha256}${car.sha256 ? ', verified' : ''})`);
  }

  private progress(r: Running, bytes: number): void {
    r.meter.add(bytes);
    const speed = r.meter.speed();
    const total = r.progress.total;
    r.progress = { ...r.progress, bytes, bytesPerSecond: speed, etaSeconds: speed && total !== null ? Math.ceil((total - bytes) / speed) : null };
    if (r.meter.due()) this.report(r);
    else if (!r.trailing) {
      r.trailing = setTimeout(() => {
        r.trailing = undefined;
        if (r.progress.state === 'running') this.report(r);
      }, 300);
      r.trailing.unref();
    }
  }

  private async fail(r: Running, err: unknown, url: string): Promise<void> {
    if (r.progress.state === 'paused' || r.progress.state === 'cancelled') return;
    // Refused for good (a 404, a web page): nothing is left to resume, so its hidden sidecar and any bytes go now,
    // not at Cancel (models audit #8: the sidecar stayed in the models folder, and Resume was offered).
    const final = err instanceof NotGgufError || err instanceof SourceRefusedError;
    if (final) {
      await removeDownloadFiles(this.deps.modelsDir(), r.progress.file);
      // Cancelled meanwhile: that said it already.
      if ((r.progress.state as DownloadProgress['state']) === 'cancelled') return;
    }
    const message =
      err instanceof UserFacingError
        ? err.message
        : isDiskFull(err)
          ? `The disk that holds the models folder ${this.deps.modelsDir()} is full, so the download of ${r.progress.file} stopped. ${resumeWords(r.progress.bytes, 'free some space')}`
          : (unreachableMessage(err, r.progress.file, url, r.progress.bytes) ??
            `The download of ${r.progress.file} stopped: ${(err instanceof Error ? err.message : String(err)).replace(/\.$/, '')}. ${resumeWords(r.progress.bytes)}`);
    r.progress = { ...r.progress, state: 'error', error: message, bytesPerSecond: null, etaSeconds: null, ...(final ? { resumable: false, bytes: 0 } : {}) };
    this.deps.log(`downloads: ${r.progress.file}: ${message}`);
    this.changedAndReport(r);
  }

  private report(r: Running): void {
    this.deps.emit('library:download-progress', r.progress);
  }

  private changedAndReport(r: Running): void {
    this.report(r);
    this.deps.changed(`download-${r.progress.state}`);
  }
}

/** Throws when the downloaded GGUF stops before the end its header gives (a source that sent no length). */
async function endedEarly(file: string, part: string): Promise<void> {
  try {
    await readGgufHeader(part);
  } catch (err) {
    // Any other fault of the file is the models list's to show, with its reason, as for a file copied in.
    if (err instanceof GgufIncompleteError) {
      throw new UserFacingError('server-error', `The download of ${file} ended early: ${err.size.toLocaleString('en-US')} bytes arrived, and its own header needs at least ${err.needed.toLocaleString('en-US')} (the source gave no length to check against). ${resumeWords(err.size)}`);
    }
  }
}

const defaultDelay = (attempt: number) => Math.min(30_000, 1000 * 2 ** (attempt - 1));

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}

/** Resolves when `out` takes writes again; rejects with its error where it failed instead. */
function drained(out: NodeJS.WritableStream): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const done = (err?: Error) => {
      out.off('drain', done);
      out.off('error', done);
      if (err) reject(err);
      else resolve();
    };
    out.once('drain', done);
    out.once('error', done);
  });
}
