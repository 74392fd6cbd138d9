import { useEffect, useRef, useState } from 'react';
import type { EditSpec, RoomPlan } from '../../../shared/context-ipc';
import { loadPlan } from '../../store/context-room';
import { errorMessage } from '../../store/errors';

export type PlanState = { status: 'loading' } | { status: 'ready'; plan: RoomPlan } | { status: 'failed'; message: string };

/**
 * Main's plan for making room (issue 21), asked again whenever `key` changes (the branch's tip, the model, the
 * draft's size) or the user moves the cut. `active` false asks nothing. `edit`: the plan for the branch as it will be
 * after that edit (the edit form's); its `key` names what the edit holds.
 */
export function useRoomPlan(conversationId: string | null, active: boolean, key: string, extraTokens = 0, edit?: EditSpec): { state: PlanState | null; keepFrom: string | undefined; setKeepFrom: (id: string | undefined) => void } {
  const [state, setState] = useState<PlanState | null>(null);
  const [keepFrom, setKeepFrom] = useState<string | undefined>(undefined);
  // The edit as it stands when the plan is asked (a new object each render; `key` says when it changed).
  const editNow = useRef(edit);
  editNow.current = edit;
  useEffect(() => {
    const editing = editNow.current;
    if (!active) return;
    let live = true;
    setState((s) => (s?.status === 'ready' ? s : { status: 'loading' }));
    // While the user types, ask once the draft rests (each plan may count exactly on the server).
    const timer = setTimeout(
      () =>
        void loadPlan(conversationId, { ...(keepFrom ? { keepFrom } : {}), ...(extraTokens > 0 ? { extraTokens } : {}), ...(editing ? { edit: editing } : {}) })
          .then((plan) => live && setState({ status: 'ready', plan }))
          .catch((err: unknown) => live && setState({ status: 'failed', message: errorMessage(err) })),
      extraTokens > 0 || editing ? 250 : 0,
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [conversationId, active, key, keepFrom, extraTokens]);
  return { state: active ? state : null, keepFrom, setKeepFrom };
}
