import { memo, useEffect, useState } from 'react';
import { turnTiming } from '../../store/turn-timings';

interface Props {
  turnId: string;
  text: string;
  /** Which reasoning run of the turn this is (0-based), to find its timing. */
  ordinal: number;
  /** The run is still growing: nothing came after it yet and the turn streams. */
  active: boolean;
  /**
   * How long the run took as main measured it (turn meta timing): sent as the run ended, then saved with the answer.
   */
  savedMs?: number | undefined;
}

/** The live count, in whole seconds from 1: it ticks once a second, and "Thinking… 0 s" would read as stuck. */
function liveSeconds(ms: number): number {
  return Math.max(1, Math.round(ms / 1000));
}

/**
 * What a finished run took. Under a second it says so: the live count's floor of 1 made an 80 ms run read
 * "Thought for 1 s", and a figure such as "0.1 s" would read 0.0 for the quickest runs.
 */
function thoughtFor(ms: number): string {
  return ms < 1000 ? 'Thought for under a second' : `Thought for ${Math.round(ms / 1000)} s`;
}

/**
 * A reasoning run: open with a live timer while it grows, then collapsed once the answer starts (the user's own
 * toggle wins from then on). Rendered as plain text: reasoning is untrusted output.
 *
 * "Thought for N s" is one figure, live and after a reload: main's, as "first token" (answer-stats.ts). The page's
 * clock (from the run's first part reaching the page to the answer's) gave another number for the same run until a
 * reload showed main's; it now only counts up while the run grows. Main sends its figure as the run ends, with the
 * part that ended it (a `timing` part, kept in the turn's meta as the saved answer keeps it), so the panel says
 * "Thought for N s" while the rest of the answer streams, where it said "Thoughts" until the answer ended. "Thoughts"
 * is left for runs main kept no figure for (answers saved before it did, a run with no text).
 */
export const ThinkingBlock = memo(function ThinkingBlock({ turnId, text, ordinal, active, savedMs }: Props) {
  const [userOpen, setUserOpen] = useState<boolean | null>(null);
  const [, tick] = useState(0);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, [active]);

  const timing = turnTiming(turnId)?.reasoning[ordinal];
  let label: string;
  if (active) label = timing ? `Thinking… ${liveSeconds(Date.now() - timing.start)} s` : 'Thinking…';
  else if (savedMs !== undefined) label = thoughtFor(savedMs);
  else label = 'Thoughts';

  const open = userOpen ?? active;
  return (
    <details
      className={active ? 'reasoning active' : 'reasoning'}
      data-run="reasoning"
      open={open}
      onToggle={(e) => {
        const next = e.currentTarget.open;
        if (next !== open) setUserOpen(next);
      }}
    >
      <summary data-testid="reasoning-summary">{label}</summary>
      <div className="reasoning-text" dir="auto">{text}</div>
    </details>
  );
});
