/**
 * The model manager behind the IPC handlers: Ollama models (pull, show, delete, running, unload), the GPU
 * probe and the context window kept per model. Pulls run in the background and report through an event.
 */
import type { EmitEvent } from '../events';
import type { ContextAdvice, GpuReport, KvCacheType, ModelDetails, PullProgress, SetContextResult } from '../../shared/models';
import { UserFacingError } from '../errors';
import { isLoopbackUrl, overrideReport, probeLocalGpus, remoteReport } from '../gpu/probe-gpu';
import type { ProbeHost } from '../gpu/types';
import { recommendContext } from './context-recommendation';
import type { ModelSettingsStore } from './model-settings-store';
import { deleteModel, runningModels, showModel, unloadModel } from './ollama-admin';
import { listOllamaModels } from './ollama-models';
import { pullModel } from './ollama-pull';

export interface ModelServiceDeps {
  baseUrl: () => string;
  settings: ModelSettingsStore;
  emit: EmitEvent;
  probeHost: ProbeHost;
  newId: () => string;
  log: (message: string) => void;
  /** A model's `/api/show`, through the shared cache; throws a user-facing error when the server cannot say. */
  show?: (baseUrl: string, model: string) => Promise<ModelDetails>;
}

export class ModelService {
  private readonly pulls = new Map<string, { model: string; controller: AbortController }>();

  constructor(private readonly deps: ModelServiceDeps) {}

  /** Starts a pull and returns at once; progress arrives as `models:pull-progress` events. */
  pull(model: string): { pullId: string } {
    for (const [pullId, p] of this.pulls) if (p.model === model) return { pullId };
    const pullId = this.deps.newId();
    const controller = new AbortController();
    this.pulls.set(pullId, { model, controller });
    void pullModel({
      baseUrl: this.deps.baseUrl(),
      model,
      pullId,
      signal: controller.signal,
      onProgress: (p: PullProgress) => this.deps.emit('models:pull-progress', p),
    })
      .catch((err: unknown) => this.deps.log(`models: pull of ${model} failed: ${String(err)}`))
      .finally(() => this.pulls.delete(pullId));
    return { pullId };
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
    return showModel(this.deps.baseUrl(), model);
  }

  async delete(model: string): Promise<void> {
    await deleteModel(this.deps.baseUrl(), model);
    // A deleted model keeps no window: pulled again, it may be a different build.
    this.deps.settings.clearWindow(this.deps.baseUrl(), model);
  }

  running() {
    return runningModels(this.deps.baseUrl());
  }

  unload(model: string): Promise<void> {
    return unloadModel(this.deps.baseUrl(), model);
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

  /** `baseUrl`: another Ollama connection than the default one (the engine's window for that connection). */
  async recommend(model: string, flashAttention: boolean, kvCacheType: KvCacheType, baseUrl = this.deps.baseUrl()): Promise<ContextAdvice> {
    const [gpu, details, list, running] = await Promise.all([
      this.gpu(baseUrl),
      (this.deps.show ?? showModel)(baseUrl, model),
      listOllamaModels(baseUrl),
      runningModels(baseUrl).catch(() => []),
    ]);
    const weightsBytes = list.find((m) => m.name === model)?.sizeBytes ?? null;
    const stored = this.deps.settings.getWindow(baseUrl, model);
    const base = { model, gpu, weightsBytes, stored };
    if (gpu.usableBytes === null) {
      return { ...base, recommendation: null, reason: 'GPU memory is unknown: set it in Settings → GPU memory to get a recommendation.' };
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

  /** Keeps the user's window for a model (null: forget it, so the recommendation applies again). */
  setContext(model: string, contextWindow: number | null, source: 'recommended' | 'user' = 'user'): SetContextResult {
    const baseUrl = this.deps.baseUrl();
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
