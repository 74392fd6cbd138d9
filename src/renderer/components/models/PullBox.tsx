import { useEffect, useRef, useState } from 'react';
import { useFocusAfterRemoval } from '../../hooks/use-focus-after-removal';
import { useFocusWhenShown } from '../../hooks/use-focus-when-shown';
import { pullCancelledWords } from '../../../shared/resume-words';
import { cancelPull, dismissPull, retryPull, startPull, useModelsStore } from '../../store/models-slice';
import { formatBytes, formatDuration } from './format';

/**
 * Pull by name, with one progress bar per pull: bytes, percent, speed, time left, cancel. `name`: the Ollama's
 * (shared connectionName). Pull is off, and says why, while that Ollama's model list cannot be read (it is down,
 * most often): it was offered there to fail (models eyes pass). What is typed stays.
 */
export function PullBox({ name: server }: { name: string }) {
  const [name, setName] = useState('');
  const unreachable = useModelsStore((s) => s.listError !== null);
  const pulls = useModelsStore((s) => s.pulls);
  // Each pull's row has one place for its first button (Cancel, then "Pull again" or Dismiss): the focus stays on it
  // as the pull stops. A row that comes or goes moves the focus with it; it fell to <body>.
  const section = useRef<HTMLElement>(null);
  const action = (pullId: string) => section.current?.querySelector<HTMLElement>(`[data-pull-id="${CSS.escape(pullId)}"] [data-pull-action]`);
  const input = () => section.current?.querySelector<HTMLElement>('[data-testid="pull-input"]');
  const removal = useFocusAfterRemoval(Object.keys(pulls), action, input);
  const focusWhenShown = useFocusWhenShown();
  // A pull refused before its first byte (a misspelt name, most often) gives its name back to the box, if empty, to be
  // corrected: the box had emptied as the pull started, and the user typed the name again (models eyes pass). Those
  // refused before the screen opened are left alone.
  const refusedSeen = useRef<Set<string> | null>(null);
  useEffect(() => {
    const refused = Object.values(pulls).filter((p) => p.state === 'error' && p.totalBytes === 0);
    if (refusedSeen.current === null) {
      refusedSeen.current = new Set(refused.map((p) => p.pullId));
      return;
    }
    for (const p of refused) {
      if (refusedSeen.current.has(p.pullId)) continue;
      refusedSeen.current.add(p.pullId);
      setName((typed) => (typed === '' ? p.model : typed));
    }
  }, [pulls]);
  /** Starts a pull (`start`), then focuses the first button of the row it made (Cancel while it runs). */
  const focusNewRow = async (start: () => Promise<boolean>): Promise<boolean> => {
    const before = new Set(Object.keys(useModelsStore.getState().pulls));
    const ok = await start();
    const made = Object.keys(useModelsStore.getState().pulls).find((id) => !before.has(id));
    if (ok && made !== undefined) focusWhenShown(() => action(made));
    return ok;
  };
  const submit = async () => {
    const model = name.trim();
    if (!model || unreachable) return;
    // Pull disables as the box empties: the focus on it goes to the new row's Cancel. Enter in the box leaves it
    // there, for the next name.
    const fromButton = document.activeElement?.getAttribute('data-testid') === 'pull-button';
    const ok = fromButton ? await focusNewRow(() => startPull(model)) : await startPull(model);
    if (ok) setName('');
  };
  const dismiss = (pullId: string) => {
    removal.arm(pullId);
    dismissPull(pullId);
  };
  return (
    <section className="mm-section" aria-label="Pull a model" ref={section}>
      <h3>Pull a model</h3>
      <form className="mm-row" onSubmit={(e) => { e.preventDefault(); void submit(); }}>
        <input data-testid="pull-input" placeholder="e.g. llama3.2:1b" value={name} onChange={(e) => setName(e.target.value)} aria-label="Model to pull" />
        <button type="submit" data-testid="pull-button" disabled={name.trim() === '' || unreachable} aria-describedby={unreachable ? 'pull-off' : undefined}>Pull</button>
      </form>
      {unreachable && <p className="mm-muted" id="pull-off" data-testid="pull-off">Pull is off while {server} does not answer: see {server}’s models below, and Try again there once it runs.</p>}
      {Object.values(pulls).map((p) => (
        <div key={p.pullId} className="mm-pull" data-testid="pull-progress" data-pull-id={p.pullId} data-percent={p.percent ?? 0} data-state={p.state}>
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
          {p.state === 'cancelled' && <p className="mm-muted" data-testid="pull-cancelled">{pullCancelledWords(p.completedBytes)}</p>}
          {p.state === 'done' && <p className="mm-ok" data-testid="pull-done">Pulled.</p>}
          <div className="mm-row">
            {p.state === 'running' ? (
              <button type="button" key="action" data-pull-action data-testid="pull-cancel" onClick={() => void cancelPull(p.pullId)}>Cancel</button>
            ) : p.state === 'error' || p.state === 'cancelled' ? (
              <button type="button" key="action" data-pull-action data-testid="pull-retry" onClick={() => void focusNewRow(() => retryPull(p.pullId)).then((ok) => ok || input()?.focus())}>Pull again</button>
            ) : (
              <button type="button" key="action" data-pull-action data-testid="pull-dismiss" onClick={() => dismiss(p.pullId)}>Dismiss</button>
            )}
            {p.state !== 'running' && p.state !== 'done' && (
              <button type="button" data-testid="pull-dismiss" onClick={() => dismiss(p.pullId)}>Dismiss</button>
            )}
          </div>
        </div>
      ))}
    </section>
  );
}
