/**
 * The built-in engine's models being loaded for an answer (main says `loading:<file>` then `loaded:<file>` on
 * `library:changed`): the answer waiting for its first token says so, instead of a silent "…" for the seconds to
 * minutes a GGUF takes to load on a CPU (first-hour audit F5).
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
}

/** The model an answer waits on while the engine loads it (nothing streamed yet), or null. */
export function loadingModelOf(turn: Turn, files: readonly string[]): string | null {
  return turn.status === 'streaming' && turn.blocks.length === 0 && turn.model !== undefined && files.includes(turn.model) ? turn.model : null;
}
