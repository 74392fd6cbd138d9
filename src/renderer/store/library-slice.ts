/**
 * The model library and the built-in engine, as the Models screen shows them: GGUF files of the models folder,
 * downloads with live progress (`library:download-progress`), what the engine has loaded and what it holds.
 * Main stays the source of truth: any `library:changed` re-reads the list.
 */
import { create } from 'zustand';
import type { BuiltinStatus, DownloadProgress, LibraryEntry } from '../../shared/library';
import type { ContextAdvice } from '../../shared/models';
import { firebrand } from '../firebrand';
import { FirebrandError } from '../../shared/ipc';
import { engineBusy } from './engine-busy';
import { attemptWith, errorMessage } from './errors';
import { refreshContextChoice, refreshModels, useStore } from './index';
import { useModelsStore } from './models-slice';

export interface LibraryState {
  entries: LibraryEntry[];
  status: BuiltinStatus | null;
  /** Downloads by id, including ones that just finished or failed (until dismissed). */
  downloads: Record<string, DownloadProgress>;
  advice: ContextAdvice | null;
  error: string | null;
  /**
   * Where `error` is said: beside the control whose action failed. 'section': the top of the library (a file not
   * added, the list not read); 'download': the download box; `file:<name>`: that file's row (rename, delete, load).
   * All were said at the top, above the path box: a refused rename or download address read as the path's fault,
   * and on a phone the line was scrolled out of sight, so the button seemed to do nothing.
   */
  errorAt: string;
  /**
   * `error` is a Load refused because the engine was busy (a race: this page's status showed it free): it goes once a
   * status shows the engine free, instead of staying on screen after the answer that caused it had ended.
   */
  errorUntilFree: boolean;
  /** A short confirmation of the last action (added, renamed...). */
  note: string | null;
}

export const useLibraryStore = create<LibraryState>(() => ({ entries: [], status: null, downloads: {}, advice: null, error: null, errorAt: 'section', errorUntilFree: false, note: null }));

const set = useLibraryStore.setState;
const get = useLibraryStore.getState;
const attempt = (action: () => Promise<void>, at = 'section') => attemptWith((error) => set({ error, errorAt: at, errorUntilFree: false }), action);
/**
 * The download box's rows: the downloads main lists with the folder (one paused in an earlier session, one another
 * tab started) and those this page follows live, whose events win for the same download.
 */
export function downloadRows(entries: LibraryEntry[], live: Record<string, DownloadProgress>): DownloadProgress[] {
  const all: Record<string, DownloadProgress> = {};
  for (const e of entries) if (e.download) all[e.download.downloadId] = e.download;
  return Object.values(Object.assign(all, live));
}

/** Where a file's own action says why it failed: its row. */
export const fileErrorAt = (file: string) => `file:${file}`;

/** Takes main's status of the engine; a busy refusal shown goes once the engine is free. */
function takeStatus(status: BuiltinStatus): void {
  set(get().errorUntilFree && engineBusy(status) === null ? { status, error: null, errorUntilFree: false } : { status });
}

/**
 * The composer lists library files while the built-in engine is the active connection, and so does the Models
 * screen's alias editor (its Model list). Before, only the picker was read again: after a rename the editor still
 * offered the old file name (a new alias could name a file that no longer existed), and a file added or deleted
 * was missing or still offered until the screen was opened again. One read serves both.
 */
function refreshPickerIfBuiltin(): void {
  if (useStore.getState().settings?.activeConnectionId === 'builtin') refreshModelLists();
}

/** Reads the picker's models and aliases again; the Models screen's model list takes the files where they are listed. */
function refreshModelLists(): void {
  void refreshModels().then(() => {
    if (useStore.getState().modelsConnection === 'builtin') useModelsStore.setState({ models: useStore.getState().models });
  });
}

/**
 * Reads the folder and the engine's status again. Read, it clears only a failure to read them: it runs after every
 * change in the folder (another tab's, a download's), and it took away a refused rename's reason as it was shown.
 */
export async function loadLibrary(): Promise<boolean> {
  try {
    const api = firebrand();
    const [entries, status] = await Promise.all([api.library.list({}), api.builtin.status({})]);
    set({ entries, downloads: keepRefused(entries, get().downloads) });
    takeStatus(status);
    if (get().errorAt === 'list') set({ error: null, errorAt: 'section' });
    return true;
  } catch (err) {
    set({ error: errorMessage(err), errorAt: 'list', errorUntilFree: false });
    return false;
  }
}

/**
 * `live` with the downloads refused for good that main lists in `entries` (the screen opened after the refusal, or
 * another tab's): such a row waits for its Dismiss, and is kept here until then. Shown from the listing alone, it went
 * away unasked once main listed it no more: serve mode restarted (main keeps no refused download across a restart),
 * or a download of the file from another address took the file's one place in the listing. Only while this page
 * follows the downloads' events: a Dismiss in another tab then reaches it.
 */
function keepRefused(entries: LibraryEntry[], live: Record<string, DownloadProgress>): Record<string, DownloadProgress> {
  if (!connected) return live;
  const refused = entries.flatMap((e) => (e.download?.state === 'error' && e.download.resumable === false && !live[e.download.downloadId] && !dismissed.has(e.download.downloadId) ? [e.download] : []));
  return refused.length === 0 ? live : { ...live, ...Object.fromEntries(refused.map((d) => [d.downloadId, d])) };
}

/**
 * Add, Delete and Rename each take the last confirmation away first, as keepWindow does: left there, "Added a.gguf."
 * stood under the next try's "There is no file at …", as if that try had added a file too (first-run hunt).
 */
export function addModelFile(path: string, mode: 'copy' | 'link'): Promise<boolean> {
  set({ note: null });
  return attempt(async () => {
    const entry = await firebrand().library.addFile({ path, mode });
    set({ note: `Added ${entry.file}.` });
    await loadLibrary();
    refreshPickerIfBuiltin();
  });
}

export function startDownload(source: string): Promise<boolean> {
  return attempt(async () => {
    await firebrand().library.download({ source });
  }, 'download');
}

export function pauseDownload(downloadId: string): Promise<boolean> {
  return attempt(async () => {
    await firebrand().library.pauseDownload({ downloadId });
  }, 'download');
}

export function cancelDownload(downloadId: string): Promise<boolean> {
  return attempt(async () => {
    await firebrand().library.cancelDownload({ downloadId });
    dismissDownload(downloadId);
    await loadLibrary();
  }, 'download');
}

/** Downloads dismissed on this page: a listing read before the Dismiss reached main does not bring one back. */
const dismissed = new Set<string>();

export function dismissDownload(downloadId: string): void {
  dismissed.add(downloadId);
  const { [downloadId]: _gone, ...rest } = get().downloads;
  set({ downloads: rest });
}

export function deleteModelFile(file: string): Promise<boolean> {
  set({ note: null });
  return attempt(async () => {
    await firebrand().library.delete({ file });
    set({ note: `Deleted ${file}.` });
    await loadLibrary();
    refreshPickerIfBuiltin();
  }, fileErrorAt(file));
}

export async function renameModelFile(file: string, to: string): Promise<boolean> {
  return (await renameModelFileTo(file, to)) !== null;
}

/** Renames a models-folder file: the name main gave it (it may add `.gguf`), or null where it was refused (said). */
export async function renameModelFileTo(file: string, to: string): Promise<string | null> {
  let renamed: string | null = null;
  set({ note: null });
  const ok = await attempt(async () => {
    const entry = await firebrand().library.rename({ file, to });
    renamed = entry.file;
    set({ note: `Renamed to ${entry.file}.` });
    await loadLibrary();
    // Its aliases now name the new file: the alias list and the picker's aliases are read again.
    useModelsStore.setState({ aliases: await firebrand().aliases.list({}) });
    refreshModelLists();
  }, fileErrorAt(file));
  return ok ? renamed : null;
}

/**
 * Load is offered only while the engine is free (engine-busy.ts), but an answer in another tab can take it between
 * that status and the click: main then refuses with `conflict`. The status is read again: still busy, the refusal
 * shows (and goes once the engine is free) and Load waits with why; free again already, the load the user asked for
 * is made.
 */
export async function loadBuiltin(file: string): Promise<boolean> {
  const load = async () => set({ status: await firebrand().builtin.load({ file }) });
  try {
    await load();
    set({ error: null, errorAt: 'section', errorUntilFree: false });
    return true;
  } catch (err) {
    if (!(err instanceof FirebrandError && err.code === 'conflict')) {
      set({ error: errorMessage(err), errorAt: fileErrorAt(file), errorUntilFree: false });
      return false;
    }
    const status = await firebrand().builtin.status({}).catch(() => null);
    if (status && engineBusy(status) === null) return attempt(load, fileErrorAt(file));
    set({ error: errorMessage(err), errorAt: fileErrorAt(file), errorUntilFree: true });
    if (status) takeStatus(status);
    return false;
  }
}

export function unloadBuiltin(file: string): Promise<boolean> {
  return attempt(async () => {
    set({ status: await firebrand().builtin.unload({ file }) });
  }, fileErrorAt(file));
}

export function recommendForFile(file: string): Promise<boolean> {
  return attempt(async () => {
    set({ advice: await firebrand().library.recommendContext({ file }) });
  }, fileErrorAt(file));
}

/**
 * Keeps (or forgets) a built-in model's window; resolves main's refusal (beyond the trained context, models audit #2)
 * for the panel to show beside its button, else null. The last "keeps …" note goes first: left there, it read as if
 * the refused window had been kept.
 */
export async function keepWindow(file: string, contextWindow: number | null): Promise<string | null> {
  set({ note: null });
  try {
    await firebrand().library.setContext({ file, contextWindow });
  } catch (err) {
    return errorMessage(err);
  }
  set({ note: contextWindow === null ? `${file}: the window that fits applies again.` : `${file}: keeps ${contextWindow.toLocaleString('en-US')} tokens.` });
  await attempt(async () => set({ advice: await firebrand().library.recommendContext({ file }) }), fileErrorAt(file));
  void refreshContextChoice();
  return null;
}

/** The reason said at `at` goes, where one is: the user left what it was about (a rename cancelled). */
export function forgetLibraryError(at: string): void {
  if (get().errorAt === at) set({ error: null, errorAt: 'section', errorUntilFree: false });
}

/** A window typed in a panel cannot be one: the last "keeps …" note goes, as it would read as kept (models audit #4). */
export function forgetLibraryNote(): void {
  set({ note: null });
}

/**
 * The link to serve mode is back: the library changes and download progress sent meanwhile were lost. A download
 * that ended in the gap kept its last live progress ("running", 80 %, with Pause) for good, since live progress wins
 * over the listing, and a file it added was not listed. Read again when the Models screen was ever shown; each live
 * download takes main's word: as listed (running, paused, failed), done where its file is now a model, else gone
 * (cancelled in another tab).
 */
export async function rereadLibrary(): Promise<void> {
  if (!connected) return;
  if (!(await loadLibrary())) return;
  const { entries, downloads } = get();
  const listed = new Map(entries.flatMap((e) => (e.download ? [[e.download.downloadId, e.download] as const] : [])));
  const next: Record<string, DownloadProgress> = {};
  for (const [id, p] of Object.entries(downloads)) {
    const now = listed.get(id);
    const model = entries.find((e) => e.file === p.file && e.state === 'usable');
    if (now) next[id] = now;
    else if (p.state === 'done' || p.state === 'error') next[id] = p;
    else if (model) next[id] = { ...p, state: 'done', bytes: model.sizeBytes, total: model.sizeBytes, bytesPerSecond: null, etaSeconds: null };
  }
  set({ downloads: next });
}

/** What the engine holds now (the Running panel), without reading the models folder again. */
async function loadBuiltinStatus(): Promise<void> {
  // Not through `attempt`: a change of the engine's state (another tab's answer loading its model) cleared whatever
  // error this screen showed (a refused rename, a failed download), read or not.
  try {
    takeStatus(await firebrand().builtin.status({}));
  } catch (err) {
    set({ error: errorMessage(err), errorAt: 'list', errorUntilFree: false });
  }
}

/**
 * Changes of what the built-in engine holds (a model loading for an answer, loaded, its idle unload time moved,
 * unloaded, the engine gone, the build it runs first known), not of the models folder: neither the file list nor the picker's models change.
 * Before, once the Models screen had been opened, every answer that loaded its model re-read both, each a scan of
 * the folder (round 7, engine #4).
 */
const ENGINE_STATE = /^(loading:|loaded(:|$)|idle:|unloaded$|engine-stopped$|backend$)/;

let connected = false;
let reloading: ReturnType<typeof setTimeout> | null = null;
/** Whether a change since the last re-read was more than the engine's state. */
let folderChanged = false;

/** Subscribes once to library changes and download progress. */
export function connectLibraryStore(): void {
  if (connected) return;
  connected = true;
  const api = firebrand();
  api.library.onChanged(({ reason }) => {
    if (!ENGINE_STATE.test(reason)) folderChanged = true;
    // Several changes arrive together (a download's end renames, verifies, lists): one re-read for all of them.
    if (reloading) return;
    reloading = setTimeout(() => {
      reloading = null;
      const all = folderChanged;
      folderChanged = false;
      if (!all) return void loadBuiltinStatus();
      void loadLibrary();
      refreshPickerIfBuiltin();
    }, 100);
  });
  api.library.onDownloadProgress((p) => set({ downloads: { ...get().downloads, [p.downloadId]: p } }));
}
