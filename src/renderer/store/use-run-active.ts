import { useStore } from './index';
import { stoppableTurn } from './run-state';
import { useToolProgress } from './tool-progress';

/**
 * Whether a run is going on in the open branch: an answer streams, a tool call runs, or the run waits on a pending
 * approval card (stoppableTurn, what Stop aims at). Regenerate, Edit and the version arrows wait for it to end: one
 * pressed while a tool waited for approval started a second answer beside a run that Stop could then not reach.
 */
export function useRunActive(): boolean {
  // The turns whose tool calls run, as one string: a progress tick changes the record but not this, so the turns
  // on screen do not draw again at every tick of a long call.
  const calling = useToolProgress((s) => [...new Set(Object.values(s.running).map((p) => p.turnId))].join('\n'));
  return useStore((s) => {
    const ids = calling === '' ? [] : calling.split('\n');
    return stoppableTurn(s.turns, (turnId) => ids.includes(turnId)) !== undefined;
  });
}
