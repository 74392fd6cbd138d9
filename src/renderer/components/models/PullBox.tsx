import { useState } from 'react';
import { cancelPull, dismissPull, retryPull, startPull, useModelsStore } from '../../store/models-slice';
import { formatBytes, formatDuration } from './format';

/** Pull by name, with one progress bar per pull: bytes, percent, speed, time left, cancel. */
export function PullBox() {
  const [name, setName] = useState('');
  const pulls = useModelsStore((s) => s.pulls);
  const submit = async () => {
    const model = name.trim();
    if (!model) return;
    if (await startPull(model)) setName('');
  };
  return (
    <section className="mm-section" aria-label="Pull a model">
      <h3>Pull a model</h3>
      <form className="mm-row" onSubmit={(e) => { e.preventDefault(); void submit(); }}>
        <input data-testid="pull-input" placeholder="e.g. llama3.2:1b" value={name} onChange={(e) => setName(e.target.value)} aria-label="Model to pull" />
        <button type="submit" data-testid="pull-button" disabled={name.trim() === ''}>Pull</button>
      </form>
      {Object.values(pulls).map((p) => (
        <div key={p.pullId} className="mm-pull" data-testid="pull-progress" data-percent={p.percent ?? 0} data-state={p.state}>
          <div className="mm-row">
            <strong>{p.model}</strong>
            <span className="mm-muted">{p.state === 'error' ? 'failed' : p.state === 'cancelled' ? 'cancelled' : p.state === 'done' ? 'done' : p.status}</span>
          </div>
          {/* A bar only while it runs or where bytes came: a failed pull does not keep an animated, empty bar. */}
          {(p.state === 'running' || p.totalBytes > 0) && (
            <progress max={100} value={p.percent ?? (p.state === 'running' ? undefined : 0)} aria-label={`Pulling ${p.model}`} />
          )}
          {p.totalBytes > 0 && (
            <div className="mm-row mm-muted" data-testid="pull-stats">
              <span>{formatBytes(p.completedBytes)} / {formatBytes(p.totalBytes)}</span>
              <span>{p.percent === null ? '' : `${p.percent}%`}</span>
              {p.state === 'running' && <span>{p.bytesPerSecond === null ? '' : `${formatBytes(p.bytesPerSecond)}/s`}</span>}
              {p.state === 'running' && <span>{p.etaSeconds === null ? '' : `${formatDuration(p.etaSeconds)} left`}</span>}
            </div>
          )}
          {p.state === 'error' && <p role="alert" className="mm-error" data-testid="pull-error">{p.error}</p>}
          {p.state === 'cancelled' && <p className="mm-muted">Cancelled. Pull again to resume where it stopped.</p>}
          {p.state === 'done' && <p className="mm-ok" data-testid="pull-done">Pulled.</p>}
          {p.state === 'running' ? (
            <button type="button" data-testid="pull-cancel" onClick={() => void cancelPull(p.pullId)}>Cancel</button>
          ) : (
            <div className="mm-row">
              {(p.state === 'error' || p.state === 'cancelled') && (
                <button type="button" data-testid="pull-retry" onClick={() => void retryPull(p.pullId)}>Pull again</button>
              )}
              <button type="button" onClick={() => dismissPull(p.pullId)}>Dismiss</button>
            </div>
          )}
        </div>
      ))}
    </section>
  );
}
