import { ChevronLeft, ChevronRight } from 'lucide-react';
import type { Turn } from '../../../shared/turn';
import { switchSibling } from '../../store/branch-actions';
import { useStore } from '../../store';

/** `< 2/3 >` between a turn and its siblings (other edits of a message, other answers to it). */
export function BranchSwitcher({ turn }: { turn: Turn }) {
  const info = useStore((s) => s.siblings[turn.id]);
  const streaming = useStore((s) => s.turns.some((t) => t.status === 'streaming'));
  if (!info || info.ids.length < 2) return null;
  return (
    <span className="branch-switcher" data-testid="branch-switcher">
      <button type="button" className="icon-btn small" data-testid="branch-prev" aria-label="Previous version" disabled={streaming || info.index === 0} onClick={() => void switchSibling(turn, -1)}>
        <ChevronLeft className="icon" aria-hidden />
      </button>
      <span data-testid="branch-position">
        {info.index + 1}/{info.ids.length}
      </span>
      <button
        type="button"
        data-testid="branch-next"
        className="icon-btn small"
        aria-label="Next version"
        disabled={streaming || info.index === info.ids.length - 1}
        onClick={() => void switchSibling(turn, 1)}
      >
        <ChevronRight className="icon" aria-hidden />
      </button>
    </span>
  );
}
