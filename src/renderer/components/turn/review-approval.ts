import type { Turn } from '../../../shared/turn';
import { focusTurn } from '../../store';

/** How many frames the list may take to scroll a card it had not mounted into place before giving up. */
const MOUNT_FRAMES = 60;

const firstButton = (cardId: string) => document.querySelector<HTMLElement>(`[data-turn-id="${CSS.escape(cardId)}"] .approval-actions button:not(:disabled)`);

/**
 * Puts the focus on a waiting approval card's first button (Allow once): the way a keyboard or screen-reader user
 * gets from the message box to the card, which does not take the focus itself (it would take it from a user typing).
 * The chat is virtualized: a card scrolled far out of view is not mounted, so the list is taken to it first.
 */
export function reviewApproval(cardId: string): void {
  const there = firstButton(cardId);
  if (there) {
    there.focus();
    return;
  }
  focusTurn(cardId);
  let frames = 0;
  const tick = () => {
    const button = firstButton(cardId);
    if (button) button.focus();
    else if (++frames < MOUNT_FRAMES) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

/** The open branch's waiting approval card, if any: the last one (a run waits on one card at a time). */
export function pendingApprovalId(turns: readonly Turn[]): string | undefined {
  return turns.findLast((t) => t.source === 'tool-approval' && t.meta.state === 'pending')?.id;
}
