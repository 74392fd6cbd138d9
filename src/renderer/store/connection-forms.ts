/**
 * Whether a connection form in Settings (the add row, or a connection's editor) holds typed text that is not added
 * or saved yet: the dialog counts it as an unsaved change, so a click beside it or Escape asks before throwing a
 * typed address or API key away (settings audit #2b). The Tools forms do the same with mcp-slice's holdTypedForm.
 */
import { useEffect } from 'react';
import { create } from 'zustand';

const useTypedForms = create<{ typed: number }>(() => ({ typed: 0 }));

/** Reports a form as typed into while `typed` holds (and until it unmounts: added, saved, cancelled or closed). */
export function useConnectionFormTyped(typed: boolean): void {
  useEffect(() => {
    if (!typed) return undefined;
    useTypedForms.setState((s) => ({ typed: s.typed + 1 }));
    return () => useTypedForms.setState((s) => ({ typed: s.typed - 1 }));
  }, [typed]);
}

/** Some connection form holds typed text. */
export function useConnectionFormsTyped(): boolean {
  return useTypedForms((s) => s.typed > 0);
}
