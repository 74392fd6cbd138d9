import { useRef, useState, type KeyboardEvent } from 'react';
import type { LibraryEntry, LoadedModel } from '../../../shared/library';
import { deleteModelFile, fileErrorAt, forgetLibraryError, loadBuiltin, recommendForFile, renameModelFileTo, unloadBuiltin, useLibraryStore } from '../../store/library-slice';
import { formatBytes, formatTokens } from '../models/format';
import { LibraryContext } from './LibraryContext';
import { useNextBuiltinWindow } from './next-window';
import { PathWords } from './PathWords';

function params(n: number | null): string | null {
  if (n === null) return null;
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)}B params`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M params`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}K params`;
  return `${n} params`;
}

/** Why Unload and Delete… wait on a file an answer runs on. */
const ANSWERING = 'It is answering: stop that answer first.';

/**
 * One GGUF of the models folder: what its metadata says, or why it cannot be used; load, window, rename, delete.
 * `loading`: the engine is loading it now (Load in any tab, or an answer), as main's status says. `loadBlocked`: why
 * the engine cannot load it now (./engine-busy.ts), if so: Load waits, with that on hover, instead of being offered
 * and then refused.
 */
export function LibraryItem({
  entry,
  loaded,
  loading = false,
  loadBlocked = null,
  onDelete = (file) => void deleteModelFile(file),
  onRename = (file, to) => renameModelFileTo(file, to),
}: {
  entry: LibraryEntry;
  loaded: LoadedModel | undefined;
  loading?: boolean;
  loadBlocked?: string | null;
  /** Delete confirmed (the list moves the focus once the row is gone). */
  onDelete?: (file: string) => void | Promise<void>;
  /** Rename asked: the new name where it was renamed (the list moves the focus to the renamed row), else null. */
  onRename?: (file: string, to: string) => Promise<string | null>;
}) {
  const [mode, setMode] = useState<'none' | 'delete' | 'rename' | 'context' | 'where'>('none');
  const [name, setName] = useState(entry.file);
  // Why this file's last action (rename, delete, load, unload) failed: said on its row, beside the buttons.
  const error = useLibraryStore((s) => (s.errorAt === fileErrorAt(entry.file) ? s.error : null));
  // The question comes under Delete…: the focus goes to Keep (the safe answer), and back to Delete… on Keep (the
  // question, and the focus in it, are gone).
  const deleteButton = useRef<HTMLButtonElement>(null);
  const keep = () => {
    setMode('none');
    deleteButton.current?.focus();
  };
  // Rename… opens its form with the focus in the name; Cancel gives it back to Rename… (it fell to <body>).
  const renameButton = useRef<HTMLButtonElement>(null);
  const cancelRename = () => {
    setMode('none');
    // Its refusal ("There is already a model named …") stayed under the buttons, about a rename no longer asked.
    forgetLibraryError(fileErrorAt(entry.file));
    renameButton.current?.focus();
  };
  // Escape in the question or the name form answers it (Keep, Cancel), as a question elsewhere in the app does; it
  // went on to the Models screen and closed it, with the question, the name typed and the place in the list.
  const escapeTo = (answer: () => void) => (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || e.nativeEvent.isComposing) return;
    e.preventDefault();
    e.stopPropagation();
    answer();
  };
  // While an answer runs on the file, main refuses its delete: Delete… waits, as Unload does, with the same reason
  // (it was offered, then refused with a message far from the row on a phone).
  const answering = loaded?.answering === true;
  // A window kept since the file was loaded applies when an answer next runs on it (the engine then makes its context
  // again): the row says so, as Ollama's panel does. It went on saying "context 4,096" and nothing more.
  const next = useNextBuiltinWindow(entry.file, loaded?.requestedSize ?? null);
  const reloadsWith = loaded && next !== null && next !== loaded.requestedSize ? next : null;
  const facts = [
    formatBytes(entry.sizeBytes),
    entry.architecture,
    params(entry.parameterCount),
    entry.quantization,
    entry.trainedContext !== null ? `trained ${formatTokens(entry.trainedContext)} tokens` : null,
  ].filter(Boolean);
  const badges = [entry.tools && 'tools', entry.thinking && 'thinking', entry.vision && 'vision'].filter((b): b is string => typeof b === 'string');
  return (
    <li className="lib-item" data-testid="library-item" data-file={entry.file} data-state={entry.state}>
      <div className="mm-row">
        <strong className="lib-name">{entry.file}</strong>
        <span className="mm-muted">{facts.join(' · ')}</span>
        {badges.map((b) => (
          <span key={b} className={`cap cap-${b}`}>{b}</span>
        ))}
        {loaded && <span className="mm-ok" data-testid="library-loaded">loaded · {formatBytes(loaded.memoryBytes)} · context {formatTokens(loaded.contextSize)}{loaded.answering ? ' · answering now' : ''}</span>}
      </div>
      {loaded && reloadsWith !== null && (
        <p className="mm-warn" data-testid="library-window-pending">
          Loaded with {formatTokens(loaded.contextSize)} tokens: its next answer reloads it with {formatTokens(reloadsWith)}.
        </p>
      )}
      {/* A part file with no download behind it (its record lost): what is on disk, not a model yet. */}
      {entry.state === 'downloading' && <p className="mm-muted" data-testid="library-partial">Partly downloaded: download it again from its address to finish it.</p>}
      {entry.state === 'unusable' && <p className="mm-error" data-testid="library-reason"><PathWords text={entry.reason ?? ''} /></p>}
      {/* Its header reads, its weights did not load (builtin audit #8: the row read as usable, with only Load). */}
      {entry.state === 'usable' && entry.loadError !== undefined && !loaded && (
        <p className="mm-error" data-testid="library-load-error">
          Loading it failed: {entry.loadError} Load tries again.
        </p>
      )}
      {entry.vision && <p className="mm-muted">Vision projector beside it ({entry.mmproj}); the built-in engine does not read images yet, so images are refused with the reason.</p>}
      {entry.state === 'usable' && (
        <div className="mm-row">
          {loaded ? (
            <button type="button" data-testid="library-unload" aria-label={`Unload ${entry.file}`} disabled={answering} title={answering ? ANSWERING : undefined} onClick={() => void unloadBuiltin(entry.file)}>Unload</button>
          ) : (
            // Loading takes seconds to minutes on a CPU: the button says so (in every tab) instead of inviting a second click.
            <button
              type="button"
              data-testid="library-load"
              data-state={loading ? 'loading' : 'idle'}
              aria-label={`Load ${entry.file}`}
              disabled={loading || loadBlocked !== null}
              title={!loading && loadBlocked !== null ? loadBlocked : undefined}
              onClick={() => void loadBuiltin(entry.file)}
            >
              {loading ? 'Loading…' : 'Load'}
            </button>
          )}
          <button type="button" data-testid="library-context" aria-label={`Context window of ${entry.file}`} onClick={() => { setMode(mode === 'context' ? 'none' : 'context'); void recommendForFile(entry.file); }}>Context window</button>
          <button type="button" data-testid="library-rename" aria-label={`Rename ${entry.file}…`} ref={renameButton} onClick={() => setMode('rename')}>Rename…</button>
          <button type="button" data-testid="library-where" aria-label={`Show location of ${entry.file}`} onClick={() => setMode(mode === 'where' ? 'none' : 'where')}>Show location</button>
          <button
            type="button"
            data-testid="library-delete"
            aria-label={`Delete ${entry.file}…`}
            ref={deleteButton}
            disabled={answering}
            title={answering ? ANSWERING : undefined}
            onClick={() => setMode('delete')}
          >
            Delete…
          </button>
        </div>
      )}
      {entry.state === 'unusable' && (
        <div className="mm-row">
          <button type="button" data-testid="library-where" aria-label={`Show location of ${entry.file}`} onClick={() => setMode(mode === 'where' ? 'none' : 'where')}>Show location</button>
          <button type="button" data-testid="library-delete" aria-label={`Delete ${entry.file}…`} ref={deleteButton} onClick={() => setMode('delete')}>Delete…</button>
        </div>
      )}
      {mode === 'where' && <code className="lib-path" data-testid="library-location">{entry.path}</code>}
      {mode === 'delete' && (
        <div className="mm-row" role="alertdialog" aria-label={`Delete ${entry.file}`} onKeyDown={escapeTo(keep)}>
          <span>Delete {entry.file} ({formatBytes(entry.sizeBytes)}) from the disk? This cannot be undone.</span>
          <button type="button" data-testid="library-delete-confirm" aria-label={`Delete ${entry.file}`} onClick={() => { setMode('none'); void onDelete(entry.file); }}>Delete</button>
          <button type="button" autoFocus aria-label={`Keep ${entry.file}`} onClick={keep}>Keep</button>
        </div>
      )}
      {mode === 'rename' && (
        <form className="mm-row" onKeyDown={escapeTo(cancelRename)} onSubmit={(e) => { e.preventDefault(); void onRename(entry.file, name).then((to) => to !== null && setMode('none')); }}>
          <input aria-label="New file name" data-testid="library-rename-input" autoFocus value={name} onChange={(e) => setName(e.target.value)} />
          <button type="submit" data-testid="library-rename-save">Rename</button>
          <button type="button" data-testid="library-rename-cancel" onClick={cancelRename}>Cancel</button>
        </form>
      )}
      {error && <p role="alert" className="mm-error" data-testid="library-row-error"><PathWords text={error} /></p>}
      {mode === 'context' && <LibraryContext file={entry.file} />}
    </li>
  );
}
