/**
 * The built-in llama.cpp engine as main uses it: which backend runs (and why not a GPU one), what is loaded and
 * what it holds, load and unload (with the idle timeout), the context window of each model (kept by the user,
 * else what fits), the model's capabilities from its GGUF, and exact token counts with its own tokenizer.
 * Requests themselves go through ./builtin-request.ts.
 */
import { isAbsolute, relative, sep } from 'node:path';
import type { BackendInfo, BuiltinStatus, LoadedModel, WaitingAnswer } from '../../shared/library';
import type { ContextAdvice, ContextWindowChoice, GpuReport } from '../../shared/models';
import { DEFAULT_CONTEXT_WINDOW } from '../../shared/context-estimate';
import type { ModelCapabilities } from '../engine/types';
import { UserFacingError } from '../errors';
import type { FileDigests } from '../library/file-digest';
import type { LibraryModel, LibraryService } from '../library/library-service';
import type { StoredWindow } from '../models/model-settings-store';
import { builtinAdvice, CPU_RUNTIME_BYTES, windowDoesNotFit } from './builtin-memory';
import { memoryForWindow, type WindowCost } from '../models/context-recommendation';
import { EngineHost, type EngineSpawner } from './engine-host';
import type { EngineBackend, EngineStatus } from './protocol';
import { WaitingAnswers } from './waiting-answers';

/** The key kept windows are stored under (model_context_windows.connection_id). */
export const BUILTIN_WINDOWS_KEY = 'builtin';

export interface BuiltinDeps {
  library: LibraryService;
  digests: FileDigests;
  /** Starts an engine process; null where this build has no engine entry (then every use says so). */
  spawner: EngineSpawner | null;
  log: (message: string) => void;
  /** Minutes an unused model stays loaded (0: no timeout). */
  idleMinutes: () => number;
  /** Hand-set usable memory (the model manager's override), bytes. */
  memoryOverride: () => number | null;
  storedWindow: (file: string) => StoredWindow | null;
  probeGpu: () => Promise<GpuReport>;
  /** The engine's state changed (loaded, unloaded, crashed): the Running panel refreshes. */
  changed: (reason: string) => void;
  /** The answers waiting before their first token changed (./waiting-answers.ts): the pages are told. */
  waitingChanged?: (waiting: WaitingAnswer[]) => void;
  now?: () => number;
}

interface Loaded {
  file: string;
  /** The file the engine loaded (absolute): a model stays loaded when the models folder changes. */
  path: string;
  /** The context the engine made (llama.cpp's 256-token steps), and the window it was asked for. */
  contextSize: number;
  requestedSize: number;
  memoryBytes: number;
  unloadsAt: number | null;
  timer: NodeJS.Timeout | null;
}

export class BuiltinService {
  readonly host: EngineHost | null;
  private backend: EngineBackend | null = null;
  private readonly loaded = new Map<string, Loaded>();
  /**
   * Answers running per model file. Kept apart from `loaded`: a model's first answer starts before the engine has
   * loaded it (and reported it), and must count as answering from the start.
   */
  private readonly busyCount = new Map<string, number>();
  /**
   * Answers waiting on the engine to load their model, per file. Reported in `status` as well as by `loading:`/`loaded:`
   * events: a page whose link was down when the `loaded:` event went out reads the truth again on reconnect, instead
   * of saying "Loading model…" on every later answer on that model.
   */
  private readonly loadingCount = new Map<string, number>();
  /** Each answer waiting before its first token, with its own state. */
  readonly waiting: WaitingAnswers;

  constructor(readonly deps: BuiltinDeps) {
    this.waiting = new WaitingAnswers((waiting) => deps.waitingChanged?.(waiting), (file, contextSize) => this.holds(file, contextSize));
    this.host = deps.spawner
      ? new EngineHost(deps.spawner, deps.log, () => {
          for (const l of this.loaded.values()) if (l.timer) clearTimeout(l.timer);
          this.loaded.clear();
          deps.changed('engine-stopped');
        })
      : null;
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }

  engine(): EngineHost {
    if (!this.host) throw new UserFacingError('internal', 'The built-in engine is not part of this build of Firebrand.');
    return this.host;
  }

  async status(): Promise<BuiltinStatus> {
    if (this.host?.running) await this.refresh().catch((err: unknown) => this.deps.log(`builtin: status failed: ${String(err)}`));
    return {
      backend: this.backend ? describeBackend(this.backend) : null,
      running: this.host?.running ?? false,
      loaded: [...this.loaded.values()].map((l): LoadedModel => ({ file: l.file, contextSize: l.contextSize, memoryBytes: l.memoryBytes, unloadsAt: l.unloadsAt })),
      loading: [...this.loadingCount.keys()],
      waiting: this.waiting.list(),
      modelsDir: this.deps.library.dir,
      unavailable: this.host ? null : 'The built-in engine is not part of this build of Firebrand.',
    };
  }

  /** Starts the engine if needed and records what it reports. */
  async refresh(): Promise<EngineStatus> {
    const status = await this.engine().request<EngineStatus>({ type: 'status' });
    this.apply(status);
    return status;
  }

  private apply(status: EngineStatus): void {
    this.backend = status.backend;
    const dir = this.deps.library.dir;
    const seen = new Set<string>();
    for (const l of status.loaded) {
      const file = fileOf(dir, l.path);
      seen.add(file);
      const had = this.loaded.get(file);
      this.loaded.set(file, { file, path: l.path, contextSize: l.contextSize, requestedSize: l.requestedSize, memoryBytes: l.memoryBytes, unloadsAt: had?.unloadsAt ?? null, timer: had?.timer ?? null });
    }
    for (const [file, l] of this.loaded) {
      if (seen.has(file)) continue;
      if (l.timer) clearTimeout(l.timer);
      this.loaded.delete(file);
    }
    // An answer waiting behind others loads its model then or not, by what the engine holds now.
    this.waiting.recheck();
  }

  isLoaded(file: string): boolean {
    return this.loaded.has(file);
  }

  /** Whether the engine is known to hold `file` loaded for this window (as of its last status). */
  holds(file: string, contextSize: number): boolean {
    return this.loaded.get(file)?.requestedSize === contextSize;
  }

  /**
   * Loads a model with its window, unless it is known not to fit. Not while an answer runs: the engine would load it
   * only once that answer (and any waiting behind it) ended, minutes perhaps, with Models showing nothing meanwhile.
   */
  async load(file: string): Promise<BuiltinStatus> {
    this.refuseLoadWhileBusy(file);
    const model = await this.deps.library.model(file);
    const window = await this.windowFor(file);
    const contextSize = window.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
    const refusal = await this.fitProblem(model, contextSize);
    if (refusal) throw new UserFacingError('invalid-payload', refusal);
    // Asked again: an answer (or another Load) may have taken the engine while the file and its fit were read.
    this.refuseLoadWhileBusy(file);
    // Every page's Models screen says it loads (`status.loading`, the `loading:`/`loaded:` events) until it ends: a
    // load takes seconds to minutes on a CPU, and Load showed nothing meanwhile.
    this.loadingFor(file, true);
    // Its place in the engine's line: an answer sent meanwhile waits for it, and says so (round 8, engine #4).
    const place = this.waiting.joinLoad(file, contextSize);
    place.started();
    try {
      await this.makeRoom(file, contextSize);
      const status = await this.engine()
        .request<EngineStatus>({ type: 'load', model: { path: model.entry.path, contextSize } })
        // The engine's message names the file and says why (a refused file, a window it could not make, a crash).
        .catch((err: unknown) => {
          throw new UserFacingError('server-error', err instanceof Error ? err.message : String(err));
        });
      // What the engine holds now is known before the load leaves the line: an answer on this model behind it then
      // starts without being said to load it again.
      this.apply(status);
    } finally {
      place.ended();
      this.loadingFor(file, false);
    }
    this.touch(file);
    this.deps.changed('loaded');
    return this.status();
  }

  private refuseLoadWhileBusy(file: string): void {
    const busy = this.waiting.current();
    if (busy?.load) throw new UserFacingError('invalid-payload', `The engine is loading ${busy.file} now: load ${file} once that load ends.`);
    if (busy) throw new UserFacingError('invalid-payload', `The engine is answering on ${busy.file} now: load ${file} once that answer ends, or stop it first.`);
  }

  async unload(file: string): Promise<BuiltinStatus> {
    const had = this.loaded.get(file);
    // The engine would wait for the answer to end (minutes) with nothing on screen: say so instead.
    if (had && this.answering(file)) throw new UserFacingError('invalid-payload', `${file} is answering now: stop that answer first.`);
    if (had && this.host?.running) this.apply(await this.engine().request<EngineStatus>({ type: 'unload', path: had.path }));
    if (had?.timer) clearTimeout(had.timer);
    this.loaded.delete(file);
    this.deps.changed('unloaded');
    return this.status();
  }

  /** An answer waits for the engine to load `file` (true) or no longer does (false): pages are told either way. */
  loadingFor(file: string, loading: boolean): void {
    const n = Math.max(0, (this.loadingCount.get(file) ?? 0) + (loading ? 1 : -1));
    if (n > 0) this.loadingCount.set(file, n);
    else this.loadingCount.delete(file);
    this.deps.changed(`${loading ? 'loading' : 'loaded'}:${file}`);
  }

  /** Whether an answer is running on `file`. */
  answering(file: string): boolean {
    return (this.busyCount.get(file) ?? 0) > 0;
  }

  /** A generation starts or ends on `file`: the idle clock stops while it runs and restarts after. */
  busy(file: string, delta: 1 | -1): void {
    const l = this.loaded.get(file);
    const n = Math.max(0, (this.busyCount.get(file) ?? 0) + delta);
    if (n > 0) this.busyCount.set(file, n);
    else this.busyCount.delete(file);
    const before = l?.unloadsAt ?? null;
    if (delta === -1) this.touch(file);
    else if (l?.timer) {
      clearTimeout(l.timer);
      l.timer = null;
      l.unloadsAt = null;
    }
    // The Running panel says when an idle model unloads: it kept the time from before the answer (past, while the
    // model stayed loaded), or one while it answered.
    if (l && l.unloadsAt !== before) this.deps.changed(`idle:${file}`);
  }

  private touch(file: string): void {
    const l = this.loaded.get(file);
    if (!l) return;
    if (l.timer) clearTimeout(l.timer);
    const minutes = this.deps.idleMinutes();
    if (minutes <= 0 || this.answering(file)) {
      l.timer = null;
      l.unloadsAt = null;
      return;
    }
    const ms = minutes * 60_000;
    l.unloadsAt = this.now() + ms;
    l.timer = setTimeout(() => {
      if (this.answering(file)) return;
      this.deps.log(`builtin: ${file} unloaded after ${minutes} idle minute(s)`);
      void this.unload(file).catch((err: unknown) => this.deps.log(`builtin: idle unload failed: ${String(err)}`));
    }, ms);
    l.timer.unref();
  }

  /** What the GGUF says the model can do; the record names the exact file (size and sha256). */
  async describe(file: string): Promise<ModelCapabilities> {
    const model = await this.deps.library.model(file);
    const caps = model.template.caps;
    const sha256 = await this.deps.digests.get(model.entry.path);
    return {
      tools: caps.toolCallFormat === 'hermes',
      thinking: caps.thinking,
      // llama.cpp reads images through an mmproj, which this engine build does not load: images are refused with why.
      vision: false,
      template: model.info.template,
      file: { bytes: model.entry.sizeBytes, sha256 },
    };
  }

  /** The window a request to `file` carries: kept by the user, else the largest that fits, else the default. */
  async windowFor(file: string): Promise<ContextWindowChoice> {
    const kept = this.deps.storedWindow(file);
    if (kept) return { contextWindow: kept.contextWindow, source: kept.source, reason: null };
    const advice = await this.advice(file).catch((err: unknown) => {
      this.deps.log(`builtin: no recommendation for ${file}: ${String(err)}`);
      return null;
    });
    const rec = advice?.recommendation;
    if (rec?.fits) return { contextWindow: rec.contextTokens, source: 'recommended', reason: rec.message, ...(this.backend?.backend === 'cpu' ? { memory: 'system' as const } : {}) };
    const trained = (await this.deps.library.model(file).catch(() => null))?.info.trainedContext ?? null;
    const fallback = trained !== null ? Math.min(DEFAULT_CONTEXT_WINDOW, trained) : DEFAULT_CONTEXT_WINDOW;
    return { contextWindow: fallback, source: 'fallback', reason: rec?.message ?? advice?.reason ?? 'No recommendation could be made.' };
  }

  /**
   * What fits `file`. Other loaded models that are idle count as free (they are let go when it needs their room,
   * ./makeRoom) unless `idleAsHeld`; those answering now do not.
   */
  async advice(file: string, opts: { idleAsHeld?: boolean } = {}): Promise<ContextAdvice> {
    const model = await this.deps.library.model(file);
    if (this.host && !this.backend) await this.refresh().catch((err: unknown) => this.deps.log(`builtin: engine did not start: ${String(err)}`));
    const self = this.loaded.get(file)?.memoryBytes ?? 0;
    const others = [...this.loaded.values()].filter((l) => l.file !== file);
    const idle = opts.idleAsHeld ? 0 : others.filter((l) => !this.answering(l.file)).reduce((n, l) => n + l.memoryBytes, 0);
    return builtinAdvice({
      file,
      weightsBytes: model.entry.sizeBytes,
      arch: model.info.arch,
      backend: this.backend,
      override: this.deps.memoryOverride(),
      heldByOthers: others.reduce((n, l) => n + l.memoryBytes, 0) - idle,
      heldBySelf: self,
      idleOthers: idle,
      stored: this.deps.storedWindow(file),
      probe: this.deps.probeGpu,
    });
  }

  /** What `window` would cost `file` (issue 21's larger-window offer), by the same arithmetic as its advice. */
  async windowCost(file: string, window: number): Promise<WindowCost> {
    const model = await this.deps.library.model(file);
    const advice = await this.advice(file);
    return { trained: model.info.trainedContext, memoryBytes: this.memoryFor(model, window), usableBytes: advice.gpu.usableBytes, fitsTokens: advice.recommendation?.contextTokens ?? null };
  }

  /** The memory `model` takes with `window`, by the same arithmetic as its advice; null without its architecture. */
  private memoryFor(model: LibraryModel, window: number): number | null {
    const arch = model.info.arch;
    const cpu = this.backend?.backend === 'cpu';
    return arch
      ? memoryForWindow({ arch, weightsBytes: model.entry.sizeBytes, gpuCount: 1, flashAttention: true, kvCacheType: 'f16', ...(cpu ? { runtimeBytes: CPU_RUNTIME_BYTES } : {}) }, window)
      : null;
  }

  /** Why `file` with `contextSize` is known not to fit, or null. A model already loaded at that size fits. */
  async fitProblem(model: LibraryModel, contextSize: number): Promise<string | null> {
    const held = this.loaded.get(model.entry.file);
    if (held?.requestedSize === contextSize) return null;
    const advice = await this.advice(model.entry.file);
    return windowDoesNotFit(advice, contextSize, this.memoryFor(model, contextSize));
  }

  /**
   * Before `file` loads with `contextSize`: unloads the idle models whose room it needs (the advice counted them
   * as free). A model switched away from stays loaded until its idle timeout only while there is room for both.
   */
  async makeRoom(file: string, contextSize: number): Promise<void> {
    if (this.loaded.get(file)?.requestedSize === contextSize) return;
    const idle = [...this.loaded.values()].filter((l) => l.file !== file && !this.answering(l.file));
    if (idle.length === 0) return;
    const model = await this.deps.library.model(file);
    const strict = await this.advice(file, { idleAsHeld: true });
    if (windowDoesNotFit(strict, contextSize, this.memoryFor(model, contextSize)) === null) return;
    for (const l of idle) {
      this.deps.log(`builtin: ${l.file} unloaded to make room for ${file}`);
      await this.unload(l.file);
    }
  }

  /** Tokens `text` makes with the model's own tokenizer (document extraction's exact budget, issue 18). */
  async countTokens(file: string, text: string): Promise<number> {
    const model = await this.deps.library.model(file);
    const res = await this.engine().request<{ tokens: number }>({ type: 'count', path: model.entry.path, text, addBos: false });
    return res.tokens;
  }

  close(): void {
    for (const l of this.loaded.values()) if (l.timer) clearTimeout(l.timer);
    this.loaded.clear();
    this.host?.close();
  }
}

/**
 * The engine reports absolute paths; Firebrand names models by their path in the folder, and one loaded from
 * elsewhere (the folder was changed in Settings since) by its whole path.
 */
function fileOf(dir: string, path: string): string {
  const rel = relative(dir, path);
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return path;
  return rel.split(sep).join('/');
}

const GPU_NAMES: Record<string, string> = { cuda: 'CUDA', vulkan: 'Vulkan', metal: 'Metal' };
const gpuName = (g: string) => GPU_NAMES[g] ?? g;

/** One sentence on the backend: what runs, and why a GPU build does not, where that is so. */
export function describeBackend(b: EngineBackend): BackendInfo {
  const free = b.backend === 'cpu' ? b.ram.free : (b.vram?.free ?? null);
  const total = b.backend === 'cpu' ? b.ram.total : (b.vram?.total ?? null);
  let reason: string;
  if (b.backend !== 'cpu') reason = `${gpuName(b.backend)}: llama.cpp runs on the GPU.`;
  else if (b.supportedGpus.length === 0) {
    reason = `CPU: no ${b.installedGpus.map(gpuName).join(' or ') || 'GPU'} driver was found on this machine, so the CPU build runs.`;
  } else reason = `CPU: the ${b.supportedGpus.map(gpuName).join('/')} build did not start here (or GPU use is turned off with FIREBRAND_BUILTIN_GPU), so the CPU build runs.`;
  return { backend: b.backend, reason, freeBytes: free, totalBytes: total };
}
