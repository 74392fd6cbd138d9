import { Fragment, useEffect, useState } from 'react';
import { useStore } from '../../store';
import { freshest } from '../../store/live-turns';
import { formatStats } from './answer-stats';
import { countedTokens, formatLive, keepLiveFigures, LIVE_STATS_MS, LiveSampler, type LiveFigures } from './live-stats';

const COUNTED_TITLE = 'So far, counted from the pieces the server streamed (about one token each); the server’s count replaces it when the answer ends.';
const ESTIMATED_TITLE = 'So far, estimated from the characters written (about 4 a token); the server’s count replaces it when the answer ends.';

interface Props {
  turnId: string;
  /** Main's "first token", shown as soon as it comes (a `timing` part: the turn re-renders with it at once). */
  ttftMs: number | undefined;
}

/**
 * A streaming answer's running figures (live-stats.ts), drawn on a timer of their own: only this span re-renders, a
 * few times a second, and the timer goes with the answer's end (the footer then shows the server's figures) or the
 * view. Not a live region: a screen reader would read every update; the announcer says the answer's end once.
 */
export function LiveStats({ turnId, ttftMs }: Props) {
  const [figures, setFigures] = useState<LiveFigures | undefined>(undefined);
  const [counted, setCounted] = useState(false);
  useEffect(() => {
    const sampler = new LiveSampler();
    const tick = () => {
      const stored = useStore.getState().turns.find((t) => t.id === turnId);
      // The fast lane holds the text grown since the store's copy (live-turns.ts).
      const fresh = stored ? freshest(stored) : undefined;
      const next = fresh ? sampler.sample(fresh, performance.now()) : undefined;
      setCounted(fresh !== undefined && countedTokens(fresh) !== undefined);
      if (next) keepLiveFigures(turnId, next);
      setFigures((prev) => (prev?.tokens === next?.tokens && prev?.tokensPerSecond === next?.tokensPerSecond ? prev : next));
    };
    tick();
    const timer = setInterval(tick, LIVE_STATS_MS);
    return () => clearInterval(timer);
  }, [turnId]);

  const parts = [...(figures ? formatLive(figures) : []), ...formatStats(ttftMs === undefined ? {} : { ttftMs })];
  if (parts.length === 0) return null;
  return (
    <span
      className="stats"
      data-testid="answer-stats"
      data-live="true"
      aria-live="off"
      title={figures ? (counted ? COUNTED_TITLE : ESTIMATED_TITLE) : undefined}
    >
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && ' · '}
          <span className="stat">{part}</span>
        </Fragment>
      ))}
    </span>
  );
}
