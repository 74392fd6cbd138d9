/**
 * The built-in engine's models being loaded for an answer (main says `loading:<file>` then `loaded:<file>` on
 * `library:changed`): the answer waiting for its first token says so, instead of a silent "…" for the seconds to
 * minutes a GGUF takes to load on a CPU (first-hour audit F5). The events alone are not enough: a `loaded:` sent while
 * the page's link was down never arrives, and the line would then stay on every later answer on that model; a tab
 * opened mid-load never heard `loading:`. So the page also reads the engine's own list (`builtin:status`) at start
 * and after a reconnect.
 */
import { create } from 'zustand';
import type { FirebrandApi } from '../../shared/bridge';
import type { Turn } from '../../shared/turn';

export const useBuiltinLoading = create<{ files: string[] }>(() => ({ files: [] }));

/** What a `library:changed` reason says of a load: the file, and whether it starts or ends; null for other changes. */
export function loadOf(reason: string): { file: string; loading: boolean } | null {
  const m = /^(loading|loaded):(.+)$/.exec(reason);
  return m?.[1] && m[2] ? { file: m[2], loading: m[1] === 'loading' } : null;
}

export function connectBuiltinLoading(api: FirebrandApi): void {
  api.library.onChanged(({ reason }) => {
    const load = loadOf(reason);
    if (!load) return;
    const files = useBuiltinLoading.getState().files.filter((f) => f !== load.file);
    useBuiltinLoading.setState({ files: load.loading ? [...files, load.file] : files });
  });
  void readBuiltinLoading(api);
}

/** Takes the models the engine is loading now from main; an event after the answer is applied over it as usual. */
export async function readBuiltinLoading(api: FirebrandApi): Promise<void> {
  try {
    const { loading } = await api.builtin.status({});
    useBuiltinLoading.setState({ files: loading });
  } catch {
    // The link dropped again (the next reconnect reads it) or no engine: the events still say what they say.
  }
}

/** The model an answer waits on while the engine loads it (nothing streamed yet), or null. */
export function loadingModelOf(turn: Turn, files: readonly string[]): string | null {
  return turn.status === 'streaming' && turn.blocks.length === 0 && turn.model !== undefined && files.includes(turn.model) ? turn.model : null;
}
