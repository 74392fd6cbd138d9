import { useEffect, useId } from 'react';
import { AUTO_COMPACT_THRESHOLDS, type AutoCompactSetting } from '../../../shared/context-ipc';
import { loadAutoCompact, setAutoCompact, useRoom } from '../../store/context-room';

/**
 * Compact automatically at a threshold, per connection or alias (issue 21): off unless chosen. When it happens
 * the summary card appears in the chat, so it is never silent.
 */
export function AutoCompactSelect({ kind, id, hint = false }: { kind: AutoCompactSetting['kind']; id: string; hint?: boolean }) {
  const hintId = useId();
  const all = useRoom((s) => s.autoCompact);
  useEffect(() => {
    if (all === null) void loadAutoCompact();
  }, [all]);
  const current = all?.find((s) => s.kind === kind && s.id === id)?.threshold;
  return (
    <label className="mm-muted auto-compact" title="When a request reaches this share of the window, the older turns are summarized first; the summary card shows it.">
      Summarize older turns on its own{' '}
      <select
        data-testid={`${kind}-auto-compact`}
        value={current === undefined ? 'off' : String(current)}
        disabled={all === null}
        aria-describedby={hint ? hintId : undefined}
        onChange={(e) => void setAutoCompact(kind, id, e.target.value === 'off' ? null : Number(e.target.value))}
      >
        <option value="off">off</option>
        {AUTO_COMPACT_THRESHOLDS.map((t) => (
          <option key={t} value={String(t)}>
            at {Math.round(t * 100)}% of the window
          </option>
        ))}
      </select>
      {/* Said where it is chosen (a connection's row): the title above is seen only by a pointer that waits on it, and
          the choice's name alone did not say what is summarized, when, or whether the chat loses anything. Short enough
          for two lines at 390 px: it ran to three under every row. */}
      {hint && (
        <span className="hint" id={hintId} data-testid={`${kind}-auto-compact-hint`}>
          Past this share of the model&apos;s window, older turns go as a summary; the chat keeps them.
        </span>
      )}
    </label>
  );
}
