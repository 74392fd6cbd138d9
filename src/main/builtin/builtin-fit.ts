/**
 * What fits the built-in engine: the context window each model's requests carry (kept by the user, else the largest
 * that fits), the advice behind it, what a window would cost, why one is known not to fit, and which idle models a
 * load must let go of to make room. The arithmetic itself is ./builtin-memory.ts.
 */
import type { ContextAdvice, ContextWindowChoice, GpuReport } from '../../shared/models';
import { DEFAULT_CONTEXT_WINDOW } from '../../shared/context-estimate';
import type { LibraryModel, LibraryService } from '../library/library-service';
import { memoryForWindow, type WindowCost } from '../models/context-recommendation';
import { beyondTrained } from '../models/kept-window';
import type { StoredWindow } from '../models/model-settings-store';
import { builtinAdvice, CPU_RUNTIME_BYTES, windowDoesNotFit } from './builtin-memory';
import type { Loaded, LoadedModels } from './loaded-models';
import type { EngineBackend } from './protocol';

export interface BuiltinFitDeps {
  library: LibraryService;
  loaded: LoadedModels;
  /** The backend the engine last reported, null before it has. */
  backend: () => EngineBackend | null;
  /** Starts the engine to learn its backend, where it has not reported one yet (a failure is logged, not thrown). */
  learnBackend: () => Promise<void>;
  /** Hand-set usable memory (the model manager's override), bytes. */
  memoryOverride: () => number | null;
  storedWindow: (file: string) => StoredWindow | null;
  probeGpu: () => Promise<GpuReport>;
  log: (message: string) => void;
}

export class BuiltinFit {
  constructor(private readonly deps: BuiltinFitDeps) {}

  /** The window a request to `file` carries: kept by the user, else the largest that fits, else the default. */
  async windowFor(file: string): Promise<ContextWindowChoice> {
    const kept = this.deps.storedWindow(file);
    if (kept) return this.keptWithinTrained(file, kept);
    const advice = await this.advice(file).catch((err: unknown) => {
      this.deps.log(`builtin: no recommendation for ${file}: ${String(err)}`);
      return null;
    });
    const rec = advice?.recommendation;
    if (rec?.fits) return { contextWindow: rec.contextTokens, source: 'recommended', reason: rec.message, ...(this.deps.backend()?.backend === 'cpu' ? { memory: 'system' as const } : {}) };
    const trained = (await this.deps.library.model(file).catch(() => null))?.info.trainedContext ?? null;
    const fallback = trained !== null ? Math.min(DEFAULT_CONTEXT_WINDOW, trained) : DEFAULT_CONTEXT_WINDOW;
    return { contextWindow: fallback, source: 'fallback', reason: rec?.message ?? advice?.reason ?? 'No recommendation could be made.' };
  }

  /**
   * A kept window, but never past what the model was trained for (models audit #2): one kept before that was refused,
   * or for another file of the same name, loaded weather.gguf (trained for 4,096) with 1,000,000 tokens. The trained
   * context unknown, the kept window applies as it is.
   */
  private async keptWithinTrained(file: string, kept: StoredWindow): Promise<ContextWindowChoice> {
    const trained = (await this.deps.library.model(file).catch(() => null))?.info.trainedContext ?? null;
    if (trained === null || beyondTrained(file, kept.contextWindow, trained) === null) return { contextWindow: kept.contextWindow, source: kept.source, reason: null };
    const fmt = (n: number) => n.toLocaleString('en-US');
    return { contextWindow: trained, source: kept.source, reason: `${fmt(kept.contextWindow)} tokens are kept for ${file}, but it was trained for ${fmt(trained)}: it runs with ${fmt(trained)}.` };
  }

  /**
   * What fits `file`. Other loaded models that are idle count as free (they are let go when it needs their room,
   * ./idleToLetGo) unless `idleAsHeld`; those answering now do not.
   */
  async advice(file: string, opts: { idleAsHeld?: boolean } = {}): Promise<ContextAdvice> {
    const model = await this.deps.library.model(file);
    await this.deps.learnBackend();
    const loaded = this.deps.loaded;
    const self = loaded.get(file)?.memoryBytes ?? 0;
    const others = loaded.all().filter((l) => l.file !== file);
    const idle = opts.idleAsHeld ? 0 : others.filter((l) => !loaded.answering(l.file)).reduce((n, l) => n + l.memoryBytes, 0);
    return builtinAdvice({
      file,
      weightsBytes: model.entry.sizeBytes,
      arch: model.info.arch,
      backend: this.deps.backend(),
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
    const cpu = this.deps.backend()?.backend === 'cpu';
    return arch
      ? memoryForWindow({ arch, weightsBytes: model.entry.sizeBytes, gpuCount: 1, flashAttention: true, kvCacheType: 'f16', ...(cpu ? { runtimeBytes: CPU_RUNTIME_BYTES } : {}) }, window)
      : null;
  }

  /** Why `file` with `contextSize` is known not to fit, or null. A model already loaded at that size fits. */
  async fitProblem(model: LibraryModel, contextSize: number): Promise<string | null> {
    const held = this.deps.loaded.get(model.entry.file);
    if (held?.requestedSize === contextSize) return null;
    const advice = await this.advice(model.entry.file);
    return windowDoesNotFit(advice, contextSize, this.memoryFor(model, contextSize));
  }

  /**
   * The idle models `file` with `contextSize` needs the room of (the advice counted them as free): none while there
   * is room for both, so a model switched away from stays loaded until its idle timeout.
   */
  async idleToLetGo(file: string, contextSize: number): Promise<Loaded[]> {
    const loaded = this.deps.loaded;
    if (loaded.get(file)?.requestedSize === contextSize) return [];
    const idle = loaded.all().filter((l) => l.file !== file && !loaded.answering(l.file));
    if (idle.length === 0) return [];
    const model = await this.deps.library.model(file);
    const strict = await this.advice(file, { idleAsHeld: true });
    if (windowDoesNotFit(strict, contextSize, this.memoryFor(model, contextSize)) === null) return [];
    return idle;
  }
}
