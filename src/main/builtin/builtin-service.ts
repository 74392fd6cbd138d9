/**
 * The built-in llama.cpp engine as main uses it: which backend runs, what is loaded (./loaded-models.ts, with the
 * idle timeout), load and unload, what fits (./builtin-fit.ts), the model's capabilities from its GGUF, and exact
 * token counts with its own tokenizer. Requests themselves go through ./builtin-request.ts.
 */
import type { BuiltinStatus, WaitingAnswer } from '../../shared/library';
import type { ContextAdvice, ContextWindowChoice, GpuReport } from '../../shared/models';
import { DEFAULT_CONTEXT_WINDOW } from '../../shared/context-estimate';
import type { ModelCapabilities } from '../engine/types';
import { UserFacingError } from '../errors';
import type { FileDigests } from '../library/file-digest';
import type { LibraryModel, LibraryService } from '../library/library-service';
import type { WindowCost } from '../models/context-recommendation';
import type { StoredWindow } from '../models/model-settings-store';
import { describeBackend } from './backend-description';
import { BuiltinFit } from './builtin-fit';
import { EngineHost, type EngineSpawner } from './engine-host';
import { LoadedModels } from './loaded-models';
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

export class BuiltinService {
  readonly host: EngineHost | null;
  private backend: EngineBackend | null = null;
  private readonly loaded: LoadedModels;
  private readonly fit: BuiltinFit;
  /**
   * Answers waiting on the engine to load their model, per file. Reported in `status` as well as by `loading:`/`loaded:`
   * events: a page whose link was down when the `loaded:` event went out reads the truth again on reconnect, instead
   * of saying "Loading model…" on every later answer on that model.
   */
  private readonly loadingCount = new Map<string, number>();
  /** The engine's message for each file whose last load failed, until one works (builtin audit #8). */
  private readonly loadFailures = new Map<string, string>();
  /** Each answer waiting before its first token, with its own state. */
  readonly waiting: WaitingAnswers;

  constructor(readonly deps: BuiltinDeps) {
    this.waiting = new WaitingAnswers((waiting) => deps.waitingChanged?.(waiting), (file, contextSize) => this.holds(file, contextSize));
    this.loaded = new LoadedModels({
      // Read through `deps` at each use, as before the split: tests (and the settings) change them on the fly.
      idleMinutes: () => deps.idleMinutes(),
      now: () => (deps.now ?? Date.now)(),
      idleExpired: (file, minutes) => {
        deps.log(`builtin: ${file} unloaded after ${minutes} idle minute(s)`);
        void this.unload(file).catch((err: unknown) => deps.log(`builtin: idle unload failed: ${String(err)}`));
      },
    });
    this.fit = new BuiltinFit({
      library: deps.library,
      loaded: this.loaded,
      backend: () => this.backend,
      learnBackend: async () => {
        if (this.host && !this.backend) await this.refresh().catch((err: unknown) => deps.log(`builtin: engine did not start: ${String(err)}`));
      },
      memoryOverride: () => deps.memoryOverride(),
      storedWindow: (file) => deps.storedWindow(file),
      probeGpu: () => deps.probeGpu(),
      log: (message) => deps.log(message),
    });
    this.host = deps.spawner
      ? new EngineHost(deps.spawner, deps.log, () => {
          this.loaded.clear();
          deps.changed('engine-stopped');
        })
      : null;
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
      loaded: this.loaded.list(),
      loading: [...this.loadingCount.keys()],
      waiting: this.waiting.list(),
      modelsDir: this.deps.library.dir,
      unavailable: this.host ? null : 'The built-in engine is not part of this build of Firebrand.',
    };
  }

  /** Starts the engine if needed and records what it reports. */
  async refresh(): Promise<EngineStatus> {
    const status = await this.engine().request<EngineStatus>({ type: 'status' });
    const learned = !this.backend && status.backend;
    this.apply(status);
    // The pages are told the build that runs once the engine first says it: the Models screen, open as a model
    // was chosen (which starts the engine), went on saying "The engine starts on first use" until opened again.
    if (learned) this.deps.changed('backend');
    return status;
  }

  private apply(status: EngineStatus): void {
    this.backend = status.backend;
    this.loaded.apply(status.loaded, this.deps.library.dir);
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
          const message = err instanceof Error ? err.message : String(err);
          this.loadFailures.set(file, message);
          this.deps.changed(`load-failed:${file}`);
          throw new UserFacingError('server-error', message);
        });
      this.loadFailures.delete(file);
      // What the engine holds now is known before the load leaves the line: an answer on this model behind it then
      // starts without being said to load it again.
      this.apply(status);
    } finally {
      place.ended();
      this.loadingFor(file, false);
    }
    this.loaded.touch(file);
    this.deps.changed('loaded');
    return this.status();
  }

  /**
   * `conflict`: the page offered Load because its status showed the engine free, and it no longer was (a race); the
   * page reads the status again, and clears the refusal once the engine is free (src/renderer/store/engine-busy.ts).
   */
  private refuseLoadWhileBusy(file: string): void {
    const busy = this.waiting.current();
    if (busy?.load) throw new UserFacingError('conflict', `The engine is loading ${busy.file} now: load ${file} once that load ends.`);
    if (busy) throw new UserFacingError('conflict', `The engine is answering on ${busy.file} now: load ${file} once that answer ends, or stop it first.`);
  }

  async unload(file: string): Promise<BuiltinStatus> {
    const had = this.loaded.get(file);
    // The engine would wait for the answer to end (minutes) with nothing on screen: say so instead.
    if (had && this.answering(file)) throw new UserFacingError('invalid-payload', `${file} is answering now: stop that answer first.`);
    if (had && this.host?.running) this.apply(await this.engine().request<EngineStatus>({ type: 'unload', path: had.path }));
    this.loaded.forget(file);
    this.deps.changed('unloaded');
    return this.status();
  }

  /** The engine's message the last time `file` failed to load, until a load of it works; undefined if none failed. */
  loadFailure(file: string): string | undefined {
    return this.loadFailures.get(file);
  }

  /** `file` was renamed or deleted: its failure goes with it (a new file of the old name has not failed). */
  moveLoadFailure(file: string, to: string | null): void {
    const failure = this.loadFailures.get(file);
    this.loadFailures.delete(file);
    if (failure !== undefined && to !== null) this.loadFailures.set(to, failure);
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
    return this.loaded.answering(file);
  }

  /** A generation starts or ends on `file`: the idle clock stops while it runs and restarts after. */
  busy(file: string, delta: 1 | -1): void {
    // The Running panel says when an idle model unloads: it kept the time from before the answer (past, while the
    // model stayed loaded), or one while it answered. It says a model answers too: it offered Unload, which was then
    // refused, with nothing on screen saying why (round 9).
    if (this.loaded.busy(file, delta)) this.deps.changed(`idle:${file}`);
  }

  /** The idle timeout was changed in Settings: loaded models take it now, and the pages are told their new time. */
  idleMinutesChanged(): void {
    for (const file of this.loaded.retime()) this.deps.changed(`idle:${file}`);
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
      ...(model.info.trainedContext !== null ? { trainedContext: model.info.trainedContext } : {}),
      file: { bytes: model.entry.sizeBytes, sha256 },
    };
  }

  /** The window a request to `file` carries (./builtin-fit.ts). */
  windowFor(file: string): Promise<ContextWindowChoice> {
    return this.fit.windowFor(file);
  }

  /** What fits `file` (./builtin-fit.ts). */
  advice(file: string, opts: { idleAsHeld?: boolean } = {}): Promise<ContextAdvice> {
    return this.fit.advice(file, opts);
  }

  /** What `window` would cost `file` (./builtin-fit.ts). */
  windowCost(file: string, window: number): Promise<WindowCost> {
    return this.fit.windowCost(file, window);
  }

  /** Why `file` with `contextSize` is known not to fit, or null (./builtin-fit.ts). */
  fitProblem(model: LibraryModel, contextSize: number): Promise<string | null> {
    return this.fit.fitProblem(model, contextSize);
  }

  /**
   * Before `file` loads with `contextSize`: unloads the idle models whose room it needs (the advice counted them
   * as free). A model switched away from stays loaded until its idle timeout only while there is room for both.
   */
  async makeRoom(file: string, contextSize: number): Promise<void> {
    for (const l of await this.fit.idleToLetGo(file, contextSize)) {
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
    this.loaded.clear();
    this.host?.close();
  }
}
