import type { CutPlan } from '../../../shared/context-ipc';

/**
 * What the Make-room card says when a cut is not enough: move the point later, unless it is already at the latest
 * place a cut can be (context audit #2: the card advised moving a point that could not move), where the ways left
 * are an item left out or a larger window. Null when the cut makes the request fit.
 */
export function cutNotEnough(cut: Pick<CutPlan, 'fitsDropped' | 'fitsSummarized' | 'latest'>, how: 'summarized' | 'dropped'): string | null {
  if (how === 'summarized' ? cut.fitsSummarized : cut.fitsDropped) return null;
  return cut.latest ? 'even so the rest does not fit, and no later point can be chosen: leave out a large item, or use a larger window' : 'even so the rest does not fit: move the point later';
}
