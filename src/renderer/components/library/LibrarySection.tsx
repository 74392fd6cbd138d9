import { useEffect, useId, useRef, useState } from 'react';
import type { BuiltinStatus, LibraryEntry } from '../../../shared/library';
import { addModelFile, connectLibraryStore, deleteModelFile, loadLibrary, renameModelFileTo, useLibraryStore } from '../../store/library-slice';
import { useFocusAfterRemoval } from '../../hooks/use-focus-after-removal';
import { useFocusWhenShown } from '../../hooks/use-focus-when-shown';
import { DownloadBox } from './DownloadBox';
import { loadBlockedReason } from '../../store/engine-busy';
import { LibraryItem } from './LibraryItem';
import './library.css';
import { PathWords } from './PathWords';

/** Paths of dropped files, where the carrier can tell them (the desktop app's preload); a browser cannot. */
declare global {
  interface Window {
    firebrandFiles?: { pathFor(file: File): string };
  }
}

/**
 * The built-in engine's model library: which llama.cpp build runs (and why not a GPU one), the models folder and
 * its GGUF files (unusable ones with the reason), add a file (copy or link, or drop it here), download one.
 */
export function LibrarySection() {
  const entries = useLibraryStore((s) => s.entries);
  const status = useLibraryStore((s) => s.status);
  // The section's own failures; a row's or the download box's are said there (library-slice's errorAt).
  const error = useLibraryStore((s) => (s.errorAt === 'section' || s.errorAt === 'list' ? s.error : null));
  const note = useLibraryStore((s) => s.note);
  const [path, setPath] = useState('');
  const [mode, setMode] = useState<'copy' | 'link'>('copy');
  const [dropNote, setDropNote] = useState<string | null>(null);
  const pathId = useId();
  useEffect(() => {
    connectLibraryStore();
    void loadLibrary();
  }, []);
  const onDrop = (e: React.DragEvent) => {
    e.preventDefault();
    const files = [...e.dataTransfer.files].filter((f) => f.name.toLowerCase().endsWith('.gguf'));
    if (files.length === 0) return setDropNote('Drop a .gguf file.');
    const pathFor = window.firebrandFiles?.pathFor;
    if (!pathFor) return setDropNote('A browser cannot hand over a file’s location: type its path below, put it in the models folder, or download it by URL.');
    setDropNote(null);
    for (const f of files) void addModelFile(pathFor(f), mode);
  };
  return (
    <section className="mm-section lib" aria-label="Built-in llama.cpp library" data-testid="library" onDragOver={(e) => e.preventDefault()} onDrop={onDrop}>
      <h3>Built-in (llama.cpp)</h3>
      <p className="mm-muted" data-testid="library-backend">
        {status?.unavailable ?? status?.backend?.reason ?? 'The engine starts on first use; it then says which build runs.'}
      </p>
      <p className="mm-muted">
        Models folder: <code data-testid="library-folder">{status?.modelsDir ?? '…'}</code>. Every .gguf in it (subfolders too) is listed; change it in Settings.
      </p>
      {error && <p role="alert" className="mm-error" data-testid="library-error"><PathWords text={error} /></p>}
      {note && <p className="mm-ok" data-testid="library-note">{note}</p>}
      {/* Named where it can be seen: two boxes of placeholders alone read alike, and the words went as one typed. */}
      <label className="lib-label" htmlFor={pathId}>Add a .gguf file from this machine</label>
      <form className="mm-row" onSubmit={(e) => { e.preventDefault(); if (path.trim() !== '') void addModelFile(path.trim(), mode).then((ok) => ok && setPath('')); }}>
        <input id={pathId} className="lib-source" data-testid="library-add-path" placeholder="/path/to/model.gguf (or drop it here)" value={path} onChange={(e) => setPath(e.target.value)} />
        <select aria-label="Copy or link" data-testid="library-add-mode" value={mode} onChange={(e) => setMode(e.target.value as 'copy' | 'link')}>
          <option value="copy">copy it</option>
          <option value="link">link to it</option>
        </select>
        <button type="submit" data-testid="library-add">Add</button>
      </form>
      {dropNote && <p className="mm-muted" data-testid="library-drop-note">{dropNote}</p>}
      <DownloadBox />
      {folderFiles(entries).length === 0 && <p className="mm-muted" data-testid="library-empty">No GGUF files in the models folder yet.</p>}
      <LibraryRows entries={entries} status={status} />
    </section>
  );
}

/**
 * The entries shown as files: a download's own entry is left to its row in the download box, which says how far it
 * got and offers Resume or Cancel. Listed here as well, a download refused before its first byte read as a model
 * file of the size it would have ("x.gguf 2.5 MiB"), beside the row saying it was not downloaded.
 */
export function folderFiles(entries: LibraryEntry[]): LibraryEntry[] {
  return entries.filter((e) => !(e.state === 'downloading' && e.download !== null));
}

/** The models folder's files, each with what the engine's status says of it: loaded, loading, or why Load waits. */
export function LibraryRows({ entries, status }: { entries: LibraryEntry[]; status: BuiltinStatus | null }) {
  const loaded = new Map((status?.loaded ?? []).map((l) => [l.file, l]));
  const files = folderFiles(entries);
  // A file deleted: the focus on its Delete goes to the file that takes its place (else the one before), else to the
  // path box above the list; it fell to <body> with the row. Refused, it stays on the row's Delete….
  const list = useRef<HTMLUListElement>(null);
  const row = (file: string) => list.current?.querySelector<HTMLElement>(`[data-testid="library-item"][data-file="${CSS.escape(file)}"]`);
  const removal = useFocusAfterRemoval(
    files.map((e) => e.file),
    (file) => row(file)?.querySelector<HTMLElement>('button:not(:disabled)'),
    () => list.current?.closest('[data-testid="library"]')?.querySelector<HTMLElement>('[data-testid="library-add-path"]'),
  );
  const remove = async (file: string) => {
    removal.arm(file);
    if (await deleteModelFile(file)) return;
    removal.disarm();
    row(file)?.querySelector<HTMLElement>('[data-testid="library-delete"]')?.focus();
  };
  // Renamed, the row comes back under its new name (a new row): the focus goes to its Rename…, where it began.
  const focusWhenShown = useFocusWhenShown();
  const rename = async (file: string, to: string) => {
    const renamed = await renameModelFileTo(file, to);
    if (renamed !== null) focusWhenShown(() => row(renamed)?.querySelector<HTMLElement>('[data-testid="library-rename"]'));
    return renamed;
  };
  return (
    <ul className="mm-list" ref={list}>
      {files.map((e) => (
        <LibraryItem key={e.file} entry={e} loaded={loaded.get(e.file)} loading={status?.loading.includes(e.file) ?? false} loadBlocked={loadBlockedReason(status, e.file)} onDelete={remove} onRename={rename} />
      ))}
    </ul>
  );
}
