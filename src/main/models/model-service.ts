/**
 * The model manager behind the IPC handlers: Ollama models (pull, show, delete, running, unload), the GPU
 * probe and the context window kept per model. Pulls run in the background and report through an event.
 */
import type { EmitEvent } from '../events';
import { GPU_UNKNOWN_REASON, type ContextAdvice, type GpuReport, type KvCacheType, type ModelDetails, type PullProgress, type SetContextResult } from '../../shared/models';
import { DEFAULT_CONNECTION_LABEL } from '../connections/connection-store';
import { UserFacingError } from '../errors';
import { isLoopbackUrl, overrideReport, probeLocalGpus, remoteReport } from '../gpu/probe-gpu';
import type { ProbeHost } from '../gpu/types';
import { memoryForWindow, recommendContext, type WindowCost } from './context-recommendation';
import type { ModelSettingsStore } from './model-settings-store';
import { deleteModel, runningModels, showModel, unloadModel } from './ollama-admin';
import { listOllamaModels } from './ollama-models';
import { pullModel } from './ollama-pull';

/** An Ollama by its address and the name its failures say (shared connectionName: "GPU box", the default's "Ollama"). */
export interface NamedServer {
  baseUrl: string;
  name: string;
}

export interface ModelServiceDeps {
  baseUrl: () => string;
  /**
   * The Ollama the Models screen manages (pull, details, delete, running, unload): the active connection where it is
   * an Ollama (a second one, a GPU box), else the one in Settings. Absent: `baseUrl`, named "Ollama".
   */
  screen?: () => NamedServer;
  /** The name of the saved Ollama connection at `baseUrl`, if one is (a conversation's on another Ollama). */
  nameAt?: (baseUrl: string) => string | undefined;
  settings: ModelSettingsStore;
  emit: EmitEvent;
  probeHost: ProbeHost;
  newId: () => string;
  log: (message: string) => void;
  /** A model's `/api/show`, through the shared cache; throws a user-facing error when the server cannot say. */
  show?: (baseUrl: string, model: string, name?: string) => Promise<ModelDetails>;
}

/** How many ended pulls main remembers for pages that missed their end (a pull is a user's action: few a day). */
const ENDED_PULLS_KEPT = 20;
export { GPU_UNKNOWN_REASON };

export class ModelService {
  private readonly pulls = new Map<string, { model: string; controller: AbortController }>();
  /**
   * Each pull's last progress, running or ended (the newest last). Events alone were not enough: a pull that failed
   * while a page's link was down kept showing its last progress there, "running" with Cancel, for good.
   */
  private readonly reported = new Map<string, PullProgress>();

  constructor(private readonly deps: ModelServiceDeps) {}

  /** Starts a pull and returns at once; progress arrives as `models:pull-progress` events. */
  pull(model: string): { pullId: string } {
    for (const [pullId, p] of this.pulls) if (p.model === model) return { pullId };
    const pullId = this.deps.newId();
    const controller = new AbortController();
    this.pulls.set(pullId, { model, controller });
    this.remember({ pullId, model, status: 'starting', completedBytes: 0, totalBytes: 0, percent: null, bytesPerSecond: null, etaSeconds: null, state: 'running' });
    const { baseUrl, name } = this.screen();
    void pullModel({
      baseUrl,
      name,
      model,
      pullId,
      signal: controller.signal,
      onProgress: (p: PullProgress) => {
        this.remember(p);
        this.deps.emit('models:pull-progress', p);
      },
    })
      .catch((err: unknown) => this.deps.log(`models: pull of ${model} failed: ${String(err)}`))
      .finally(() => this.pulls.delete(pullId));
    return { pullId };
  }

  /** The pulls running now and the last few that ended, each as last reported. */
  pullsReported(): PullProgress[] {
    return [...this.reported.values()];
  }

  private remember(p: PullProgress): void {
    this.reported.delete(p.pullId);
    this.reported.set(p.pullId, p);
    const ended = [...this.reported.values()].filter((r) => r.state !== 'running');
    for (const old of ended.slice(0, Math.max(0, ended.length - ENDED_PULLS_KEPT))) this.reported.delete(old.pullId);
  }

  cancelPull(pullId: string): boolean {
    const p = this.pulls.get(pullId);
    p?.controller.abort();
    return p !== undefined;
  }

  cancelAll(): void {
    for (const p of this.pulls.values()) p.controller.abort();
  }

  show(model: string): Promise<ModelDetails> {
    const { baseUrl, name } = this.screen();
    return showModel(baseUrl, model, name);
  }

  async delete(model: string): Promise<void> {
    const { baseUrl, name } = this.screen();
    await deleteModel(baseUrl, model, name);
    // A deleted model keeps no window: pulled again, it may be a different build.
    this.deps.settings.clearWindow(baseUrl, model);
  }

  running() {
    const { baseUrl, name } = this.screen();
    return runningModels(baseUrl, name);
  }

  unload(model: string): Promise<void> {
    const { baseUrl, name } = this.screen();
    return unloadModel(baseUrl, model, name);
  }

  /**
   * Where the Models screen's actions go. Before (round 9), they went to the Ollama in Settings whatever Ollama was
   * active: with a second Ollama in use, its screen listed that server's models but Running, Unload, details and
   * Delete acted on the other one.
   */
  screenUrl(): string {
    return this.screen().baseUrl;
  }

  /** The server the Models screen manages and its name (the connection's, as the rest of the app names it). */
  screen(): NamedServer {
    return this.deps.screen?.() ?? { baseUrl: this.deps.baseUrl(), name: DEFAULT_CONNECTION_LABEL };
  }

  /** The name failures on `baseUrl` say: the screen's connection's, or another saved one's there; else none (its address). */
  nameOf(baseUrl: string): string | undefined {
    const screen = this.screen();
    return screen.baseUrl === baseUrl ? screen.name : this.deps.nameAt?.(baseUrl);
  }

  /** The GPU memory a model may use: the hand-set value, else the server's view (remote) or a local probe. */
  async gpu(baseUrl = this.deps.baseUrl()): Promise<GpuReport> {
    const override = this.deps.settings.gpuOverride();
    if (override !== null) return overrideReport(override);
    if (!isLoopbackUrl(baseUrl)) {
      const running = await runningModels(baseUrl).catch(() => []);
      return remoteReport(running);
    }
    return probeLocalGpus(this.deps.probeHost);
  }

  setGpuOverride(bytes: number | null): Promise<GpuReport> {
    this.deps.settings.setGpuOverride(bytes);
    return this.gpu();
  }

  /**
   * `baseUrl`: the server whose window is worked out (the engine's, for a conversation's connection); absent, the
   * Ollama the Models screen lists. A window is kept per server address, and the screen's Details panel (and its
   * "Kept for this model" line) must read the server whose models it shows (context audit #1).
   */
  async recommend(model: string, flashAttention: boolean, kvCacheType: KvCacheType, baseUrl = this.screenUrl()): Promise<ContextAdvice> {
    const [gpu, details, list, running] = await Promise.all([
      this.gpu(baseUrl),
      (this.deps.show ?? showModel)(baseUrl, model, this.nameOf(baseUrl)),
      listOllamaModels(baseUrl, this.nameOf(baseUrl)),
      runningModels(baseUrl).catch(() => []),
    ]);
    const weightsBytes = list.find((m) => m.name === model)?.sizeBytes ?? null;
    const stored = this.deps.settings.getWindow(baseUrl, model);
    const base = { model, gpu, weightsBytes, stored };
    if (gpu.usableBytes === null) {
      return { ...base, recommendation: null, reason: GPU_UNKNOWN_REASON };
    }
    if (!details.architecture || weightsBytes === null) {
      return { ...base, recommendation: null, reason: 'The server did not describe this model’s architecture or size.' };
    }
    const gpuCount = Math.max(1, gpu.devices.filter((d) => !d.integrated).length);
    // Models already loaded hold their memory (a 70B model using 22 GB leaves that much less); this one, if
    // loaded, is the one being sized, so it is not counted twice.
    const others = running.filter((m) => !sameModel(m.name, model) && m.sizeVramBytes > 0);
    const othersBytes = others.reduce((n, m) => n + m.sizeVramBytes, 0);
    const recommendation = recommendContext({
      arch: details.architecture, weightsBytes, usableVramBytes: gpu.usableBytes, gpuCount, flashAttention, kvCacheType,
      ...(othersBytes > 0 ? { othersBytes, othersLabel: others.map((m) => m.name).join(', ') } : {}),
    });
    return { ...base, recommendation, reason: null };
  }

  /**
   * What `window` would cost `model` on the server at `baseUrl` (issue 21's larger-window offer): its trained
   * context, the memory it would need (the same arithmetic as the recommendation), the memory there is.
   */
  async windowCost(model: string, window: number, baseUrl = this.screenUrl()): Promise<WindowCost> {
    const [gpu, details, list] = await Promise.all([
      this.gpu(baseUrl).catch(() => null),
      (this.deps.show ?? showModel)(baseUrl, model, this.nameOf(baseUrl)),
      listOllamaModels(baseUrl).catch(() => []),
    ]);
    const arch = details.architecture;
    const weightsBytes = list.find((m) => m.name === model)?.sizeBytes ?? null;
    const usableBytes = gpu?.usableBytes ?? null;
    if (!arch || weightsBytes === null) return { trained: arch?.contextLength ?? null, memoryBytes: null, usableBytes, fitsTokens: null };
    const gpuCount = Math.max(1, gpu?.devices.filter((d) => !d.integrated).length ?? 1);
    const shape = { arch, weightsBytes, gpuCount, flashAttention: true, kvCacheType: 'f16' as const };
    const fitsTokens = usableBytes === null ? null : recommendContext({ ...shape, usableVramBytes: usableBytes }).contextTokens;
    return { trained: arch.contextLength, memoryBytes: memoryForWindow(shape, window), usableBytes, fitsTokens };
  }

  /**
   * Keeps the user's window for a model on the server at `baseUrl` (null: forget it, so the recommendation applies
   * again); absent, the Ollama the Models screen lists. The engine reads it back by the conversation's connection
   * address (ContextWindowResolver), the same string `screenUrl` gives for the active connection. Before, a window kept
   * in Models with a second Ollama in use was saved under the Ollama in Settings: "Kept" was said, but the row, the
   * meter and `num_ctx` kept the default (context audit #1).
   */
  setContext(model: string, contextWindow: number | null, source: 'recommended' | 'user' = 'user', baseUrl = this.screenUrl()): SetContextResult {
    if (contextWindow === null) {
      const had = this.deps.settings.getWindow(baseUrl, model) !== null;
      this.deps.settings.clearWindow(baseUrl, model);
      return { contextWindow: null, reloads: had };
    }
    if (contextWindow < 256) throw new UserFacingError('invalid-payload', 'A context window needs at least 256 tokens.');
    const reloads = this.deps.settings.setWindow(baseUrl, model, { contextWindow, source });
    return { contextWindow, reloads };
  }
}

/** `llama3` and `llama3:latest` are one Ollama model. */
function sameModel(a: string, b: string): boolean {
  const plain = (n: string) => (n.endsWith(':latest') ? n.slice(0, -':latest'.length) : n);
  return plain(a) === plain(b);
}
