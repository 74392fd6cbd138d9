/**
 * The model list and the choice among it: the picker's models and aliases, the model chosen, the window its next
 * message carries, and the Think choice a request carries.
 */
import { FirebrandError, type ModelSummary } from '../../shared/ipc';
import type { Alias } from '../../shared/models';
import { aliasOfRef, aliasRef, refFor, refLabel } from '../../shared/model-ref';
import { BUILTIN_CONNECTION_ID } from '../../shared/connections';
import { firebrand } from '../firebrand';
import { errorMessage } from './errors';
import { useStore, type AppState } from './app-state';
import { CHOOSE_MODEL } from './notice';
import { stoppableTurn } from './run-state';

const set = useStore.setState;
const get = useStore.getState;

export type ModelList = [ModelSummary[], Alias[]];

/**
 * GGUFs renamed in Models while this page was open, old file name → new. The choice follows them, as aliases do
 * (builtin audit #3: the renamed file was taken for one that went away, and the first file listed was chosen, there
 * one whose load had just failed).
 */
const renamedFiles = new Map<string, string>();

/** A file renamed in Models (`library:changed`): the composer's choice goes with it, before any list shows it. */
export function followRenamedFile(from: string, to: string): void {
  renamedFiles.set(from, to);
  if (get().selectedModel === from) selectModel(to);
}

/**
 * `name` as the list `names` has it: followed through renames while the list lacks it; kept as it is when the list is
 * older than a rename to it (it holds the old name still), so a late answer does not undo the choice.
 */
function afterRenames(name: string | null, names: readonly string[]): string | null {
  if (name === null || names.includes(name)) return name;
  const seen = new Set<string>();
  let now = name;
  for (let next = renamedFiles.get(now); next !== undefined && !seen.has(next); next = renamedFiles.get(now)) {
    seen.add(now);
    now = next;
    if (names.includes(now)) return now;
  }
  const older = [...renamedFiles].some(([from, to]) => to === name && names.includes(from));
  return older ? name : null;
}

/**
 * The chosen model removed (its GGUF deleted from disk, or gone from the server) while it answered in the open chat:
 * it stays chosen until that answer ends, then the next is chosen and the user told why. Before, the composer moved
 * to another model mid-answer, under the answer still streaming from the first.
 */
let removedWhileAnswering: string | null = null;

/** Whether the open chat's running answer (streaming, or waiting on a tool approval) is `model`'s. */
function answeringWith(model: string, s: AppState = get()): boolean {
  return stoppableTurn(s.turns)?.turn.model === model;
}

/**
 * The choice put off while the removed model answered is made once the answer ends (or another chat is opened):
 * from the list as it is now, which no longer holds the model.
 */
export function connectRemovedWhileAnswering(subscribe: typeof useStore.subscribe = useStore.subscribe): () => void {
  return subscribe((s, before) => {
    if (removedWhileAnswering === null || s.turns === before.turns || answeringWith(removedWhileAnswering, s)) return;
    void showModels(Promise.resolve([s.models, s.aliases]));
  });
}

/** Bumped by each `aliases:changed` taken: a list asked before it holds aliases older than the store's. */
let aliasesAdopted = 0;

export function listModels(models = firebrand().models.list({}), aliases = firebrand().aliases.list({})): Promise<ModelList> {
  const asked = aliasesAdopted;
  // The aliases answer quickly and the models after a server round trip: an alias changed in another tab meanwhile
  // came as an event, which this older answer must not undo.
  return Promise.all([models, aliases.catch(() => get().aliases)]).then(([m, a]) => [m, aliasesAdopted === asked ? a : get().aliases]);
}

/**
 * What the banner says of a connection that lists no models. A first run on an Ollama with nothing pulled said
 * "The server has no models yet. Pull one (ollama pull llama3.2) and refresh": the banner has no Refresh (its
 * buttons are Open Models and Retry), the way to pull in the app went unsaid, and a llama-server or OpenAI-compatible
 * server was told to run `ollama pull`. The default Ollama connection is `ollama`; another server may be any kind.
 */
export function emptyListMessage(connectionId: string | undefined): string {
  if (connectionId === BUILTIN_CONNECTION_ID) return 'No GGUF models yet: add or download one in Models (or put a .gguf file in the models folder).';
  if (connectionId === undefined || connectionId === 'ollama') return 'Ollama has no models yet. Pull one in Models, or run ollama pull llama3.2:1b in a terminal and press Retry.';
  return 'This server lists no models. Start it with a model, then press Retry.';
}

export function refreshModels(): Promise<void> {
  // Another connection was made active: what the last one said of its list (its error, "no models") is not said of
  // this one while it is asked, which a slow server makes seconds (first-hour audit: "Cannot reach Ollama" stayed up,
  // and the composer said the new server had no models, while it was being asked).
  const active = get().settings?.activeConnectionId;
  if (get().modelsConnection !== undefined && active !== undefined && get().modelsConnection !== active) set({ modelsError: null, modelsConnection: undefined });
  const ask = nextModelsAsk();
  return showModels(listModels(), undefined, ask);
}

/**
 * Lists asked of main, in order, and the newest of them shown. A slow answer that came after a newer one overwrote it:
 * a model deleted meanwhile came back into the picker (the newer answer, after `models:changed`, had it gone).
 */
let modelsAsks = 0;
let newestShownAsk = 0;

/** The number of a list about to be asked (showModels drops its answer when a newer one was shown first). */
export function nextModelsAsk(): number {
  return ++modelsAsks;
}

/** Whether the answer to `ask` is older than one shown already; marks it the newest shown when it is not. */
function olderThanShown(ask: number | undefined): boolean {
  if (ask === undefined) return false;
  if (ask < newestShownAsk) return true;
  newestShownAsk = ask;
  return false;
}

/**
 * Shows a model list asked for already (at start, before the settings that pick among it have come). `shown`: the
 * aliases the choice so far was made among (what a deleted chosen alias was called). `ask`: the list's number
 * (nextModelsAsk), where it was asked of main; absent for the store's own list shown again.
 */
export async function showModels(listed: Promise<ModelList>, shown: readonly Alias[] = get().aliases, ask?: number): Promise<void> {
  const askedOf = get().settings?.activeConnectionId;
  try {
    const [models, aliases] = await listed;
    if (olderThanShown(ask)) return;
    // An alias is offered as `alias:<id>` (never a model's name); settings from before that name it by name.
    const names = [...aliases.map((a) => aliasRef(a.id)), ...models.map((m) => m.name)];
    const settings = get().settings;
    const chosen = get().selectedModel;
    // A file renamed in Models is the same file: followed, not "no longer in the models folder".
    const followed = afterRenames(chosen, names);
    const before = followed ?? chosen;
    const staleList = followed !== null && !names.includes(followed);
    // A chosen alias deleted (in another tab): the model it named comes next, where this connection lists it. Before,
    // the first model listed was chosen, and the next message went to a model the chat had never used (round 9).
    const deletedAlias = aliasOfRef(before, shown);
    const goneAliasModel = deletedAlias && deletedAlias.connectionId === (askedOf ?? 'ollama') ? deletedAlias.model : undefined;
    const preferred = [before, goneAliasModel, settings?.defaultChatModel, settings?.defaultModel]
      .map((n) => (n ? refFor(n, models, aliases) : n))
      .find((n) => n && names.includes(n));
    // A file whose load failed is not chosen on its own (builtin audit #8: a rename fell back on one); the user may
    // still pick it to try again, and it stays chosen then.
    const fallback = models.find((m) => m.loadError === undefined)?.name ?? null;
    const selected = staleList ? before : (preferred ?? fallback);
    const empty = emptyListMessage(settings?.activeConnectionId);
    // A model that went away (deleted on the server) or an alias deleted (in another tab) is not kept selected
    // silently: the user is told what changed.
    const goneAlias = aliasOfRef(before, shown);
    // Only a list of the same connection can have lost it: another connection made active lists other models, and
    // "no longer on the server" said of the one the user had just left was untrue (context audit #10).
    const sameConnection = get().modelsConnection !== undefined && get().modelsConnection === (askedOf ?? get().settings?.activeConnectionId);
    const wasAnswering = before !== null && before === removedWhileAnswering;
    const listedBefore = (sameConnection && get().models.some((m) => m.name === before)) || goneAlias !== undefined || wasAnswering;
    const removed = !staleList && before !== null && listedBefore && !names.includes(before);
    const gone = removed && selected !== null;
    const goneWhere = goneAlias ? 'an alias (it was deleted)' : settings?.activeConnectionId === BUILTIN_CONNECTION_ID ? 'in the models folder' : 'on the server';
    // Its answer goes on (the engine answers from the weights in memory): the composer keeps it until the answer ends.
    const putOff = removed && answeringWith(before);
    removedWhileAnswering = putOff ? before : null;
    const changed = gone && !putOff
      ? `${refLabel(before, shown)} is no longer ${goneWhere}${wasAnswering ? ' (it was removed while it answered)' : ''}; ${refLabel(selected, aliases)} is chosen now.`
      : null;
    set({
      models,
      aliases,
      modelsError: models.length === 0 ? empty : null,
      modelsUnreachable: false,
      modelsAnswered: false,
      modelsConnection: askedOf ?? get().settings?.activeConnectionId,
      reachedModels: { connectionId: askedOf ?? get().settings?.activeConnectionId, models },
      selectedModel: putOff ? before : selected,
      ...(changed !== null ? { notice: { message: changed, action: CHOOSE_MODEL } } : {}),
    });
  } catch (err) {
    if (olderThanShown(ask)) return;
    const answered = err instanceof FirebrandError && err.code === 'server-error';
    set({ models: [], modelsError: errorMessage(err), modelsUnreachable: true, modelsAnswered: answered, modelsConnection: askedOf ?? get().settings?.activeConnectionId });
  }
  await refreshContextChoice();
}

/**
 * Aliases saved in another window or tab (`aliases:changed`): the picker offers them as saved now, a renamed one
 * under its new name, a deleted one no more. Without this a tab offered what it had listed when it opened.
 */
export function adoptAliases(aliases: Alias[]): void {
  aliasesAdopted++;
  const before = get().aliases;
  set({ aliases });
  // No model list to choose among (not come yet, or the server could not be asked): only the aliases change.
  if (get().modelsError !== null || get().modelsConnection === undefined) return;
  // The choice is made as after a fresh list (a deleted chosen alias is named as it was called).
  void showModels(Promise.resolve([get().models, aliases]), before);
}

/** The model the shown window choice was read for: a failed read again keeps it only for that model. */
let choiceOf: string | null = null;

/**
 * Asks main which window the selected model's next message carries (the meter shows it, with its source). The window
 * shown stays while it is asked again (after each answer, a Stop included): a read that failed then emptied it, and
 * the meter said "29K / … reading the window…" until the next read, for a window that had not changed.
 */
export async function refreshContextChoice(): Promise<void> {
  const model = get().selectedModel;
  if (!model) {
    choiceOf = null;
    return set({ contextChoice: null });
  }
  try {
    const choice = await firebrand().models.contextWindow({ model, ...connectionOf() });
    if (get().selectedModel !== model) return;
    choiceOf = model;
    set({ contextChoice: choice });
  } catch {
    // Another model's window is not shown as this one's: the meter waits for main's instead.
    if (get().selectedModel === model && choiceOf !== model) set({ contextChoice: null });
  }
}

/** The active connection, as the chat channels take it (absent for the built-in Ollama). */
export function connectionOf(): { connectionId?: string } {
  const id = get().settings?.activeConnectionId;
  return id && id !== 'ollama' ? { connectionId: id } : {};
}

export function selectModel(name: string): void {
  set({ selectedModel: name });
  void refreshContextChoice();
}

/**
 * Whether the composer offers its Think toggle: the chosen model (or the model under the chosen alias) can think,
 * and neither the conversation nor the alias sets the think mode (those layers win: DESIGN.md §2).
 */
export function thinkToggleOffered(s: Pick<AppState, 'models' | 'aliases' | 'selectedModel' | 'conversationSettings'>): boolean {
  const alias = aliasOfRef(s.selectedModel, s.aliases);
  const model = s.models.find((m) => m.name === s.selectedModel) ?? s.models.find((m) => m.name === alias?.model);
  return (model?.capabilities?.includes('thinking') ?? false) && s.conversationSettings.think === null && alias === undefined;
}

/**
 * Whether the Think toggle stays in place, disabled, because the server in use cannot be reached just now: it was
 * offered for the chosen model when the server last answered. Before, it went with the model list, the composer's
 * row jumped, and the user's choice looked lost (it came back as it was once the server did).
 */
export function thinkToggleHeld(s: Pick<AppState, 'models' | 'aliases' | 'selectedModel' | 'conversationSettings' | 'modelsUnreachable' | 'modelsConnection' | 'reachedModels'>): boolean {
  const reached = heldModels(s);
  return reached !== null && !thinkToggleOffered(s) && thinkToggleOffered({ ...s, models: reached });
}

/**
 * Whether the chosen model (or the model under the chosen alias) can think, as its server last said: held, like the
 * Think toggle, while that server cannot be reached. The composer's "think … (by …)" label, set by the chat or the
 * alias, is shown for such a model only; it went with the model list while the toggle stayed.
 */
export function chosenModelThinks(s: Pick<AppState, 'models' | 'aliases' | 'selectedModel' | 'modelsUnreachable' | 'modelsConnection' | 'reachedModels'>): boolean {
  const models = heldModels(s) ?? s.models;
  const alias = aliasOfRef(s.selectedModel, s.aliases);
  const model = models.find((m) => m.name === s.selectedModel) ?? models.find((m) => m.name === alias?.model);
  return model?.capabilities?.includes('thinking') ?? false;
}

/** The last list the server in use gave, while it cannot be reached; null while it can (or none came from it). */
function heldModels(s: Pick<AppState, 'modelsUnreachable' | 'modelsConnection' | 'reachedModels'>): ModelSummary[] | null {
  const reached = s.reachedModels;
  return s.modelsUnreachable && reached !== null && reached.connectionId === s.modelsConnection ? reached.models : null;
}

/**
 * The think choice a request the user starts carries: the toggle's, where it is offered, else none (the layers or
 * the server decide). Send, Regenerate, Retry, an edit and Continue all ask the same (turns audit #1: only Send did).
 */
export function thinkChoice(s: AppState = get()): boolean | undefined {
  return thinkToggleOffered(s) ? s.composerThink : undefined;
}
