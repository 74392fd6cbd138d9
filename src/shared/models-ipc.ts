/**
 * The model manager's part of the IPC contract (models, GPU, aliases). Kept in its own file and merged into
 * `InvokeContract` / `EventContract` in ./ipc.ts, so the shared contract file only grows by a few lines.
 */
import type {
  Alias,
  AliasInput,
  ContextAdvice,
  ContextWindowChoice,
  GpuReport,
  KvCacheType,
  ModelsChanged,
  LlamaServerInfo,
  ModelDetails,
  PullProgress,
  RunningModel,
  SetContextResult,
} from './models';

type NoPayload = Record<string, never>;

export interface ModelInvokeContract {
  'models:show': { req: { model: string }; res: ModelDetails };
  /** Starts a pull; progress arrives as `models:pull-progress`. Pulling again after a cancel goes on from what Ollama kept. */
  'models:pull': { req: { model: string }; res: { pullId: string } };
  'models:cancel-pull': { req: { pullId: string }; res: { cancelled: boolean } };
  /** The pulls running now and those that ended lately, each as last reported: a page that missed how one ended (its link was down) reads it here. */
  'models:pulls': { req: NoPayload; res: PullProgress[] };
  'models:delete': { req: { model: string }; res: { deleted: boolean } };
  'models:running': { req: NoPayload; res: RunningModel[] };
  'models:unload': { req: { model: string }; res: { unloaded: boolean } };
  'models:version': { req: NoPayload; res: { version: string } };
  'models:recommend-context': { req: { model: string; flashAttention?: boolean; kvCacheType?: KvCacheType }; res: ContextAdvice };
  /** Keeps one window per model (null forgets it); a changed window reloads the model. */
  'models:set-context': { req: { model: string; contextWindow: number | null; source?: 'recommended' | 'user' }; res: SetContextResult };
  'models:llama-server-info': { req: { baseUrl: string }; res: LlamaServerInfo };
  /** The window the next message to `model` (a model or alias name) carries, and where it came from. */
  /** `wait`: the Models screen waits for the GPU recommendation; a send (and the meter) takes the default after a few seconds. */
  'models:context-window': { req: { model: string; connectionId?: string; wait?: boolean }; res: ContextWindowChoice };
  'gpu:probe': { req: NoPayload; res: GpuReport };
  /** Look at the server in use now (a banner's Retry): a change arrives as `models:changed`. */
  'models:watch-now': { req: NoPayload; res: { ok: true } };
  /** Hand-set usable GPU memory in bytes (null: probe again). */
  'gpu:set-override': { req: { bytes: number | null }; res: GpuReport };
  'aliases:list': { req: NoPayload; res: Alias[] };
  'aliases:create': { req: AliasInput; res: Alias };
  /**
   * `basedOn`: the alias's `updatedAt` the edit began from. A save over a version saved since (another window or tab)
   * is refused with code `conflict`, and nothing is saved; without it the save is unconditional.
   */
  'aliases:update': { req: { id: string; alias: AliasInput; basedOn?: number }; res: Alias };
  'aliases:delete': { req: { id: string }; res: { deleted: boolean } };
  /** Creates (or re-creates) the alias as a real Ollama model with `/api/create`. */
  'aliases:materialize': { req: { id: string }; res: Alias };
  /** A draft alias (not saved) started from an existing model's parameters and system prompt. */
  'aliases:from-model': { req: { model: string; name: string }; res: AliasInput };
}

export interface ModelEventContract {
  'models:pull-progress': PullProgress;
  /** The server in use came back, went away, or gained or lost models (src/main/models/server-watch.ts). */
  'models:changed': ModelsChanged;
  /** The aliases as saved, after any window or tab added, changed, removed or created one in Ollama (or a file it names was renamed). */
  'aliases:changed': { aliases: Alias[] };
  /** A model's kept window or the GPU memory was changed in some window or tab: the window each model runs with may differ now. */
  'models:windows-changed': NoPayload;
  /** Ollama's running models changed (a model loaded by an answer, or unloaded, from any window or tab). */
  'models:running-changed': { running: RunningModel[] };
}

export const MODEL_INVOKE_CHANNELS = [
  'models:show',
  'models:pull',
  'models:cancel-pull',
  'models:pulls',
  'models:delete',
  'models:running',
  'models:unload',
  'models:version',
  'models:recommend-context',
  'models:set-context',
  'models:llama-server-info',
  'models:context-window',
  'models:watch-now',
  'gpu:probe',
  'gpu:set-override',
  'aliases:list',
  'aliases:create',
  'aliases:update',
  'aliases:delete',
  'aliases:materialize',
  'aliases:from-model',
] as const satisfies readonly (keyof ModelInvokeContract)[];

export const MODEL_EVENT_CHANNELS = ['models:pull-progress', 'models:changed', 'aliases:changed', 'models:windows-changed', 'models:running-changed'] as const satisfies readonly (keyof ModelEventContract)[];
