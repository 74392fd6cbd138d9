import { useId, useRef, useState } from 'react';
import type { DownloadProgress } from '../../../shared/library';
import { cancelDownload, dismissDownload, downloadRows, pauseDownload, startDownload, useLibraryStore } from '../../store/library-slice';
import { formatBytes, formatDuration } from '../models/format';
import { PathWords } from './PathWords';

/** Download a GGUF by URL or `hf:owner/repo/file.gguf`; one progress bar per download, pause/resume/cancel. */
export function DownloadBox() {
  const [source, setSource] = useState('');
  const live = useLibraryStore((s) => s.downloads);
  const entries = useLibraryStore((s) => s.entries);
  const error = useLibraryStore((s) => (s.errorAt === 'download' ? s.error : null));
  // Started, the box empties and Download greys out under the focus: the focus goes back to the box, for the next
  // address (it fell to <body>, and the next Tab started over at the top of the Models screen).
  const input = useRef<HTMLInputElement>(null);
  const sourceId = useId();
  const submit = async () => {
    const s = source.trim();
    if (s === '' || !(await startDownload(s))) return;
    setSource('');
    input.current?.focus();
  };
  return (
    <div className="lib-download">
      <label className="lib-label" htmlFor={sourceId}>Download a .gguf file</label>
      <form className="mm-row" onSubmit={(e) => { e.preventDefault(); void submit(); }}>
        <input
          ref={input}
          id={sourceId}
          data-testid="library-download-url"
          className="lib-source"
          placeholder="https://… or hf:owner/repo/file.gguf"
          value={source}
          onChange={(e) => setSource(e.target.value)}
        />
        <button type="submit" data-testid="library-download-start" disabled={source.trim() === ''}>Download</button>
      </form>
      {error && <p role="alert" className="mm-error" data-testid="library-download-refused"><PathWords text={error} /></p>}
      {downloadRows(entries, live).map((p) => (
        <DownloadRow key={p.downloadId} p={p} />
      ))}
    </div>
  );
}

export function DownloadRow({ p }: { p: DownloadProgress }) {
  // Stopped before a byte came (refused, unreachable, no room): "0 B / ?" and an empty bar said nothing a user
  // could use; the row says that nothing arrived, and the size to come where the source gave one.
  const nothing = p.bytes === 0 && (p.state === 'error' || p.state === 'paused');
  const percent = p.total && !nothing ? Math.floor((p.bytes / p.total) * 1000) / 10 : null;
  return (
    <div className="mm-pull" data-testid="library-download-progress" data-bytes={p.bytes} data-total={p.total ?? ''} data-state={p.state}>
      <div className="mm-row">
        <strong>{p.file}</strong>
        <span className="mm-muted">{stateWords(p)}</span>
      </div>
      {/* An animated bar only while bytes may come: a stopped download of unknown size shows none. */}
      {(p.state === 'running' || p.state === 'verifying' || percent !== null) && <progress max={100} value={percent ?? undefined} aria-label={`Downloading ${p.file}`} />}
      <div className="mm-row mm-muted">
        <span data-testid="library-download-bytes">
          {nothing ? `nothing arrived${p.total === null ? '' : ` of ${formatBytes(p.total)}`}` : `${formatBytes(p.bytes)} / ${p.total === null ? '?' : formatBytes(p.total)}`}
        </span>
        <span>{percent === null ? '' : `${percent}%`}</span>
        <span>{p.bytesPerSecond === null ? '' : `${formatBytes(p.bytesPerSecond)}/s`}</span>
        <span>{p.etaSeconds === null ? '' : `${formatDuration(p.etaSeconds)} left`}</span>
      </div>
      {p.state === 'error' && <p role="alert" className="mm-error" data-testid="library-download-error"><PathWords text={p.error ?? ''} /></p>}
      <div className="mm-row">
        {/* Pause and Resume are one button in one place, so the focus stays on it as one turns into the other (it
            fell to <body> as the button went). Refused for good (a 404, a web page): Resume would get the same
            answer (models audit #8); nothing is left to cancel. */}
        {p.state === 'running' ? (
          <button type="button" key="pause-resume" data-testid="library-download-pause" onClick={() => void pauseDownload(p.downloadId)}>Pause</button>
        ) : (p.state === 'paused' || (p.state === 'error' && p.resumable !== false)) ? (
          <button type="button" key="pause-resume" data-testid="library-download-resume" onClick={() => void startDownload(p.source)}>Resume</button>
        ) : null}
        {p.state !== 'done' && <button type="button" data-testid="library-download-cancel" onClick={() => void cancelDownload(p.downloadId)}>{p.resumable === false ? 'Dismiss' : 'Cancel'}</button>}
        {p.state === 'done' && <button type="button" onClick={() => dismissDownload(p.downloadId)}>Dismiss</button>}
      </div>
    </div>
  );
}

function stateWords(p: DownloadProgress): string {
  switch (p.state) {
    case 'running':
      return 'downloading';
    case 'paused':
      return p.bytes === 0 ? 'paused before it started' : 'paused: resumes where it stopped';
    case 'verifying':
      return 'verifying size and sha256';
    case 'done':
      // "Verified" only where a sha256 was checked: the size alone says little about the bytes.
      return p.verified ? 'done, sha256 verified' : p.total !== null ? 'done (size checked; the source gave no sha256 to verify)' : 'done';
    case 'error':
      return p.resumable === false ? 'not downloaded' : p.bytes === 0 ? 'not started' : 'stopped';
    case 'cancelled':
      return 'cancelled';
  }
}
