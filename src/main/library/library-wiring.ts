/**
 * The model library and the built-in engine, wired once for the services: the models folder, file digests,
 * downloads, the engine service and its requests, and the IPC handlers they add.
 */
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import type { LibraryEntry, LibraryInvokeContract } from '../../shared/library';
import type { ModelSummary } from '../../shared/ipc';
import { BuiltinRequests } from '../builtin/builtin-request';
import { BUILTIN_WINDOWS_KEY, BuiltinService } from '../builtin/builtin-service';
import type { EngineSpawner } from '../builtin/engine-host';
import type { EmitEvent } from '../events';
import { probeLocalGpus } from '../gpu/probe-gpu';
import type { ProbeHost } from '../gpu/types';
import { refuseBeyondTrained } from '../models/kept-window';
import { ModelSettingsStore } from '../models/model-settings-store';
import { DownloadManager } from './downloads/download-manager';
import { chatsOnDiskOf } from './downloads/disk-margin';
import { FileDigests } from './file-digest';
import { LibraryService } from './library-service';
import type { FolderFile } from './models-folder';

export type LibraryHandlers = {
  [C in keyof LibraryInvokeContract]: (req: LibraryInvokeContract[C]['req']) => Promise<LibraryInvokeContract[C]['res']> | LibraryInvokeContract[C]['res'];
};

export interface LibraryWiringDeps {
  db: Database;
  dataDir: string;
  /** The folder chosen in Settings (null: the default under the data folder). */
  modelsDirSetting: () => string | null;
  idleMinutes: () => number;
  spawner: EngineSpawner | null;
  probeHost: ProbeHost;
  emit: EmitEvent;
  newId: () => string;
  log: (message: string) => void;
  /** A GGUF was renamed: what names it by its file (aliases) follows it. */
  renamed?: (from: string, to: string) => void;
  /** The models folder's GGUFs as a list just read them (the folder watch, services.ts). */
  folderScanned?: (models: readonly FolderFile[]) => void;
}

export interface LibraryParts {
  library: LibraryService;
  builtin: BuiltinService;
  requests: BuiltinRequests;
  downloads: DownloadManager;
  modelsDir: () => string;
  handlers: LibraryHandlers;
  /** The picker's list when the built-in engine is the active connection: usable GGUFs by file name. */
  listModels: () => Promise<ModelSummary[]>;
  close(): void;
}

export function createLibrary(d: LibraryWiringDeps): LibraryParts {
  const modelsDir = () => d.modelsDirSetting() ?? join(d.dataDir, 'models');
  const digests = new FileDigests(d.db);
  const windows = new ModelSettingsStore(d.db);
  const changed = (reason: string, renamed?: { from: string; to: string }) => d.emit('library:changed', { reason, ...(renamed ? { renamed } : {}) });
  const downloads = new DownloadManager({ modelsDir, digests, newId: d.newId, log: d.log, emit: d.emit, changed, chatsOnDisk: chatsOnDiskOf(d.dataDir) });
  const library = new LibraryService({
    modelsDir,
    digests,
    log: d.log,
    downloads: async () => {
      await downloads.restore();
      return downloads.list();
    },
    changed,
    ...(d.folderScanned ? { scanned: d.folderScanned } : {}),
  });
  const builtin = new BuiltinService({
    library,
    digests,
    spawner: d.spawner,
    log: d.log,
    idleMinutes: d.idleMinutes,
    memoryOverride: () => windows.gpuOverride(),
    storedWindow: (file) => windows.getWindow(BUILTIN_WINDOWS_KEY, file),
    probeGpu: () => probeLocalGpus(d.probeHost),
    changed,
    waitingChanged: (waiting) => d.emit('builtin:waiting', { waiting }),
  });
  const requests = new BuiltinRequests(builtin);
  const dl = downloads;

  /** Entries with the engine's last load failure of each file, where one failed (builtin audit #8). */
  const withLoadErrors = (entries: LibraryEntry[]): LibraryEntry[] =>
    entries.map((e) => {
      const loadError = e.state === 'usable' ? builtin.loadFailure(e.file) : undefined;
      return loadError === undefined ? e : { ...e, loadError };
    });

  const handlers: LibraryHandlers = {
    'library:list': async () => withLoadErrors(await library.list()),
    'library:add-file': ({ path, mode }) => library.addFile(path, mode),
    'library:download': ({ source }) => dl.start(source),
    'library:pause-download': ({ downloadId }) => ({ paused: dl.pause(downloadId) }),
    'library:cancel-download': async ({ downloadId }) => ({ cancelled: await dl.cancel(downloadId) }),
    'library:delete': async ({ file }) => {
      if (builtin.isLoaded(file)) await builtin.unload(file);
      const deleted = await library.delete(file);
      if (deleted) builtin.moveLoadFailure(file, null);
      return { deleted };
    },
    'library:rename': async ({ file, to }) => {
      if (builtin.isLoaded(file)) await builtin.unload(file);
      const entry = await library.rename(file, to);
      const kept = windows.getWindow(BUILTIN_WINDOWS_KEY, file);
      if (kept) {
        windows.setWindow(BUILTIN_WINDOWS_KEY, entry.file, kept);
        windows.clearWindow(BUILTIN_WINDOWS_KEY, file);
      }
      builtin.moveLoadFailure(file, entry.file);
      d.renamed?.(file, entry.file);
      return withLoadErrors([entry])[0] ?? entry;
    },
    'library:recommend-context': ({ file }) => builtin.advice(file),
    'library:set-context': async ({ file, contextWindow }) => {
      // A file that cannot be read now has no known trained context: the window is kept as typed.
      const trained = contextWindow === null ? null : ((await library.model(file).catch(() => null))?.info.trainedContext ?? null);
      refuseBeyondTrained(file, contextWindow, trained);
      if (contextWindow === null) windows.clearWindow(BUILTIN_WINDOWS_KEY, file);
      else windows.setWindow(BUILTIN_WINDOWS_KEY, file, { contextWindow, source: 'user' });
      changed('context');
      // Every page's meter reads the window again (a page that never opened Models does not follow the library).
      d.emit('models:windows-changed', {});
      return { contextWindow };
    },
    'builtin:status': () => builtin.status(),
    'builtin:load': ({ file }) => builtin.load(file),
    'builtin:unload': ({ file }) => builtin.unload(file),
  };

  const listModels = async (): Promise<ModelSummary[]> => {
    const entries = withLoadErrors(await library.list());
    return entries
      .filter((e) => e.state === 'usable')
      .map((e) => ({
        name: e.file,
        sizeBytes: e.sizeBytes,
        family: e.architecture,
        parameterSize: e.parameterCount === null ? null : formatParameters(e.parameterCount),
        quantization: e.quantization,
        capabilities: ['completion', ...(e.tools ? ['tools'] : []), ...(e.thinking ? ['thinking'] : [])],
        ...(e.trainedContext !== null ? { contextLength: e.trainedContext } : {}),
        ...(e.loadError !== undefined ? { loadError: e.loadError } : {}),
      }));
  };

  return {
    library,
    builtin,
    requests,
    downloads: dl,
    modelsDir,
    handlers,
    listModels,
    close: () => {
      dl.pauseAll();
      builtin.close();
    },
  };
}

/** 1_425_920 -> "1.4M", 7_241_732_096 -> "7.2B": how model pages write sizes. */
export function formatParameters(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)}B`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}K`;
  return String(n);
}
