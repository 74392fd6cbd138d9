/**
 * The model manager's state: its own small zustand store beside the app store (which another screen owns).
 * Main + SQLite stay the source of truth; pull progress arrives as `models:pull-progress` events.
 */
import { create } from 'zustand';
import { FirebrandError, type ModelSummary } from '../../shared/ipc';
import type { Alias, AliasInput, ContextAdvice, GpuReport, ModelDetails, PullProgress, RunningModel } from '../../shared/models';
import { firebrand } from '../firebrand';
import { refreshContextChoice, refreshModels } from './index';
import { pullAgainWords } from '../../shared/resume-words';
import { attemptWith, errorMessage } from './errors';

export interface ModelsState {
  models: ModelSummary[];
  running: RunningModel[];
  aliases: Alias[];
  pulls: Record<string, PullProgress>;
  details: ModelDetails | null;
  advice: ContextAdvice | null;
  gpu: GpuReport | null;
  error: string | null;
  /**
   * The active server's model list was read, and `models` is what it said: an empty list then means the server has
   * none (said so on the screen), not that it could not be asked or was not asked yet.
   */
  modelsRead: boolean;
  /**
   * Why the active server's model list could not be read (Ollama down, most often), said where the list would be: it
   * was said only at the top of the dialog, scrolled out of view at 390 px, with the "Models" heading over nothing
   * below (models eyes pass). Null once a read succeeds.
   */
  listError: string | null;
  /**
   * Ollama's running list was read (or told) and `running` is what it said; false where it could not be asked (the
   * server cannot be reached), so an empty list is not said to be "No model is loaded".
   */
  runningRead: boolean;
  busy: boolean;
  /** Bumped when a kept window or the GPU memory changes: each model row reads its window again (models audit #4). */
  windowVersion: number;
}

export const useModelsStore = create<ModelsState>(() => ({
  models: [],
  running: [],
  aliases: [],
  pulls: {},
  details: null,
  advice: null,
  gpu: null,
  error: null,
  modelsRead: false,
  listError: null,
  runningRead: false,
  busy: false,
  windowVersion: 0,
}));

const set = useModelsStore.setState;
const get = useModelsStore.getState;
const attempt = (action: () => Promise<void>) => attemptWith((error) => set({ error }), action);

/** Whether Ollama was the active connection when the screen last read its lists (a re-read asks as it did). */
let ollamaActive = true;

/**
 * Bumped by each `models:running-changed` taken: a running list read before it is older than the one it brought. The
 * screen's lists come together, after the slow model list: the running list read with them, answered before another
 * tab's change but taken after its event, put the old list back (found with round 8's cross-tab tests).
 */
let runningTold = 0;

/** Takes a running list read since `asked` (a `runningTold`), unless an event brought a newer one meanwhile. */
const runningSince = (asked: number, running: RunningModel[]): Partial<ModelsState> => (runningTold === asked ? { running, runningRead: true } : {});

/** Reads the screen's lists; Ollama's running models only where Ollama is the active connection (models audit #3). */
export function loadModelsScreen(ollama = ollamaActive): Promise<boolean> {
  ollamaActive = ollama;
  // Until this read answers, an empty list may be the last server's, or none read yet: not said to be empty.
  set({ modelsRead: false });
  let listed = true;
  return attempt(async () => {
    const api = firebrand();
    const asked = runningTold;
    // Taken as it answers: a model list that fails (Ollama down) must not leave an older running list standing, nor
    // an empty one said to be "No model is loaded" under "Cannot reach Ollama" (the first-run hunt).
    const running = (ollama ? api.models.running({}) : Promise.resolve([])).then(
      (list) => set(runningSince(asked, list)),
      () => set(runningTold === asked ? { running: [], runningRead: false } : {}),
    );
    // The list's failure is the list's to say (ModelList): the aliases are read all the same, for the alias form.
    const list = api.models.list({}).then(
      (models) => ({ models }),
      (err: unknown) => ({ failed: errorMessage(err) }),
    );
    const [read, aliases] = await Promise.all([list, api.aliases.list({}), running]);
    if ('failed' in read) {
      listed = false;
      set({ aliases, listError: read.failed });
      return;
    }
    set({ models: read.models, modelsRead: true, aliases, listError: null });
  }).then((ok) => ok && listed);
}

export function startPull(model: string): Promise<boolean> {
  return attempt(async () => {
    const { pullId } = await firebrand().models.pull({ model });
    // A pull that failed at once has already said so (its event can arrive before this answer): that stands.
    if (get().pulls[pullId]) return;
    set({ pulls: { ...get().pulls, [pullId]: { pullId, model, status: 'starting', completedBytes: 0, totalBytes: 0, percent: null, bytesPerSecond: null, etaSeconds: null, state: 'running' } } });
  });
}

export function cancelPull(pullId: string): Promise<boolean> {
  return attempt(async () => {
    await firebrand().models.cancelPull({ pullId });
  });
}

export function dismissPull(pullId: string): void {
  const { [pullId]: _gone, ...rest } = get().pulls;
  set({ pulls: rest });
}

export function deleteModel(model: string): Promise<boolean> {
  return attempt(async () => {
    await firebrand().models.delete({ model });
    set({ details: get().details?.name === model ? null : get().details });
    await loadModelsScreen();
    await refreshModels();
  });
}

/** Folds the Details that are open (Details clicked again). */
export function hideDetails(): void {
  set({ details: null, advice: null });
}

export function showDetails(model: string): Promise<boolean> {
  return attempt(async () => {
    set({ details: await firebrand().models.show({ model }), advice: null });
  });
}

export function recommendContext(model: string, flashAttention: boolean, kvCacheType: 'f16' | 'q8_0' | 'q4_0'): Promise<boolean> {
  return attempt(async () => {
    const advice = await firebrand().models.recommendContext({ model, flashAttention, kvCacheType });
    set({ advice, gpu: advice.gpu });
  });
}

/** Keeps a window for the model; resolves whether the model will reload (null on failure). */
/**
 * Keeps (or forgets) a model's window. Main's refusal (beyond the trained context, out of range) comes back for the
 * Context window panel to show beside its button, not at the top of the dialog (models audit #2).
 */
export async function setContextWindow(model: string, contextWindow: number | null, source: 'recommended' | 'user' = 'user'): Promise<{ reloads: boolean } | { refused: string }> {
  let result: { reloads: boolean } | { refused: string };
  try {
    result = { reloads: (await firebrand().models.setContext({ model, contextWindow, source })).reloads };
  } catch (err) {
    return { refused: errorMessage(err) };
  }
  // The composer's meter and the model's row show the window the next message carries: this one now.
  set({ windowVersion: get().windowVersion + 1 });
  void refreshContextChoice();
  return result;
}

export function setGpuOverride(bytes: number | null): Promise<boolean> {
  return attempt(async () => {
    set({ gpu: await firebrand().gpu.setOverride({ bytes }), windowVersion: get().windowVersion + 1 });
    void refreshContextChoice();
  });
}

export function loadRunning(): Promise<boolean> {
  return attempt(async () => {
    const asked = runningTold;
    set(runningSince(asked, await firebrand().models.running({})));
  });
}

export function unloadModel(model: string): Promise<boolean> {
  return attempt(async () => {
    await firebrand().models.unload({ model });
    const asked = runningTold;
    set(runningSince(asked, await firebrand().models.running({})));
  });
}

/** Why a save was refused (shown in the alias form); `conflict`: another window or tab saved the alias first. */
export interface AliasRefusal {
  message: string;
  conflict: boolean;
}

/**
 * Saves an alias; resolves why it was refused, or null once saved. `basedOn`: the `updatedAt` the edit began from
 * (main refuses the save where the alias was saved since; the list is read again, so the form can show theirs).
 */
export async function saveAlias(id: string | null, alias: AliasInput, basedOn?: number): Promise<AliasRefusal | null> {
  const api = firebrand();
  try {
    if (id) await api.aliases.update({ id, alias, ...(basedOn !== undefined ? { basedOn } : {}) });
    else await api.aliases.create(alias);
  } catch (err) {
    const conflict = err instanceof FirebrandError && err.code === 'conflict';
    if (conflict) await attempt(async () => set({ aliases: await api.aliases.list({}) }));
    return { message: errorMessage(err), conflict };
  }
  await attempt(async () => {
    set({ aliases: await api.aliases.list({}) });
    // The composer's picker offers aliases too.
    await refreshModels();
  });
  return null;
}

/** The models of a connection other than the active one (an alias of it is being edited). */
export function listModelsOf(connectionId: string): Promise<ModelSummary[]> {
  return firebrand().models.list({ connectionId });
}

export function deleteAlias(id: string): Promise<boolean> {
  return attempt(async () => {
    await firebrand().aliases.delete({ id });
    set({ aliases: await firebrand().aliases.list({}) });
    await refreshModels();
  });
}

/** Creates the alias as an Ollama model; the app's model picker then offers it like any model. */
export function materializeAlias(id: string): Promise<boolean> {
  return attempt(async () => {
    await firebrand().aliases.materialize({ id });
    set({ aliases: await firebrand().aliases.list({}) });
    await refreshModels();
    set({ models: await firebrand().models.list({}) });
  });
}

export async function aliasDraftFrom(model: string, name: string): Promise<AliasInput | null> {
  let draft: AliasInput | null = null;
  await attempt(async () => {
    draft = await firebrand().aliases.fromModel({ model, name });
  });
  return draft;
}

/**
 * The link to serve mode is back: pull progress sent meanwhile was lost, and a pull that ended in the gap kept its
 * last progress ("running", with Cancel) for good. Where the Models screen was ever shown its lists are read again,
 * and each pull shown as running takes what main last reported of it: done, failed with the reason, cancelled, or
 * further along. One main knows nothing of (serve mode restarted, and the pull with it) failed; one main no longer
 * remembers that is now listed is done. A pull another tab started meanwhile is shown too.
 */
export async function rereadModelsScreen(): Promise<void> {
  if (!connected) return;
  const [loaded, reported] = await Promise.all([loadModelsScreen(), firebrand().models.pulls({}).catch(() => null)]);
  if (!loaded && reported === null) return;
  const listed = new Set(loaded ? get().models.map((m) => m.name) : []);
  const pulls = Object.fromEntries(Object.entries(get().pulls).map(([id, p]) => [id, p.state === 'running' ? settledPull(p, reported, listed) : p]));
  for (const p of reported ?? []) if (p.state === 'running' && !pulls[p.pullId]) pulls[p.pullId] = p;
  set({ pulls });
}

/** A pull this page shows as running, as main (`reported`, null where it could not say) and the model list tell. */
function settledPull(p: PullProgress, reported: PullProgress[] | null, listed: ReadonlySet<string>): PullProgress {
  const said = reported?.find((r) => r.pullId === p.pullId);
  if (said) return said;
  if (listed.has(p.model) || listed.has(`${p.model}:latest`)) {
    return { ...p, state: 'done', status: 'success', completedBytes: p.totalBytes, percent: 100, bytesPerSecond: null, etaSeconds: null };
  }
  if (reported === null) return p;
  return { ...p, state: 'error', bytesPerSecond: null, etaSeconds: null, error: `Pulling ${p.model} stopped: Firebrand was restarted meanwhile. ${pullAgainWords(p.completedBytes)}` };
}

/** "Pull again" on a failed or cancelled pull: Ollama kept what arrived, so it goes on from there (resume-words.ts). */
export async function retryPull(pullId: string): Promise<boolean> {
  const model = get().pulls[pullId]?.model;
  if (model === undefined) return false;
  dismissPull(pullId);
  return startPull(model);
}

let connected = false;
/** Subscribes once to pull progress; a finished pull refreshes the model lists. */
export function connectModelsStore(): void {
  if (connected) return;
  connected = true;
  // An alias saved in another window or tab shows in this screen's list at once (and in its editor's choices).
  firebrand().aliases.onChanged(({ aliases }) => set({ aliases }));
  // The server in use lists other models (one deleted or pulled in another tab, or outside Firebrand): the screen
  // lists them too, as the picker does. Before, an open screen kept listing a model another tab had deleted.
  firebrand().models.onChanged(() => void loadModelsScreen());
  firebrand().models.onWindowsChanged(() => set({ windowVersion: get().windowVersion + 1 }));
  // A model loaded (an answer) or unloaded in any tab: the Running panel shows it without a Refresh.
  firebrand().models.onRunningChanged(({ running }) => {
    runningTold++;
    set({ running, runningRead: true });
  });
  firebrand().models.onPullProgress((p) => {
    set({ pulls: { ...get().pulls, [p.pullId]: p } });
    if (p.state === 'done') void loadModelsScreen().then(() => refreshModels());
  });
}
