import { useEffect, useRef } from 'react';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import type { Turn } from '../../../shared/turn';
import { switchSibling } from '../../store/branch-actions';
import { useStore } from '../../store';
import { useRunActive } from '../../store/use-run-active';

/**
 * The switcher that should take the focus when it is drawn: the version switched to is another turn, drawn by
 * another switcher, and the button pressed went away with the old one (the focus fell to <body>). Kept a few
 * seconds only, so a switch that failed does not steal the focus later.
 */
let focusWhenDrawn: { turnId: string; side: 'prev' | 'next'; until: number } | null = null;

/** `< 2/3 >` between a turn and its siblings (other edits of a message, other answers to it). */
export function BranchSwitcher({ turn }: { turn: Turn }) {
  const info = useStore((s) => s.siblings[turn.id]);
  const streaming = useRunActive();
  const prev = useRef<HTMLButtonElement>(null);
  const next = useRef<HTMLButtonElement>(null);
  // The pressed side, or the other one where the first or last version disables it.
  useEffect(() => {
    const want = focusWhenDrawn;
    if (!want || want.turnId !== turn.id || !prev.current) return;
    focusWhenDrawn = null;
    if (performance.now() > want.until) return;
    const side = want.side === 'prev' ? prev.current : next.current;
    const other = want.side === 'prev' ? next.current : prev.current;
    (side && !side.disabled ? side : other)?.focus();
  });
  if (!info || info.ids.length < 2) return null;
  const go = (offset: -1 | 1) => {
    const target = info.ids[info.index + offset];
    if (target) focusWhenDrawn = { turnId: target, side: offset < 0 ? 'prev' : 'next', until: performance.now() + 5_000 };
    void switchSibling(turn, offset);
  };
  return (
    <span className="branch-switcher" data-testid="branch-switcher">
      <button type="button" ref={prev} className="icon-btn small" data-testid="branch-prev" aria-label="Previous version" disabled={streaming || info.index === 0} onClick={() => go(-1)}>
        <ChevronLeft className="icon" aria-hidden />
      </button>
      <span data-testid="branch-position">
        {info.index + 1}/{info.ids.length}
      </span>
      <button
        type="button"
        ref={next}
        data-testid="branch-next"
        className="icon-btn small"
        aria-label="Next version"
        disabled={streaming || info.index === info.ids.length - 1}
        onClick={() => go(1)}
      >
        <ChevronRight className="icon" aria-hidden />
      </button>
    </span>
  );
}
