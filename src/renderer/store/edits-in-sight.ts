/**
 * Which sent messages have their edit box on screen now, for the message box's "unsent edit" note
 * (KeptEditNote.tsx): it points to an edit out of sight, and said so too of one the user could see. A count per
 * message, not a flag: the first screenful's rows and the list under them (ChatView.tsx) may both show one.
 */
import { create } from 'zustand';

export const useEditsInSight = create<Record<string, number>>(() => ({}));

/** One edit box of a message came into sight (+1) or left it (-1: scrolled away, closed, unmounted). */
export function countEditInSight(turnId: string, change: 1 | -1): void {
  useEditsInSight.setState((all) => {
    const next = { ...all, [turnId]: (all[turnId] ?? 0) + change };
    if ((next[turnId] ?? 0) <= 0) delete next[turnId];
    return next;
  }, true);
}
