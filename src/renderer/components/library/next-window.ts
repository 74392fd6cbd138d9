import { useEffect, useState } from 'react';
import { firebrand } from '../../firebrand';
import { useModelsStore } from '../../store/models-slice';

/**
 * The window the next answer of a loaded built-in file asks for (the one kept for it, else what fits), or null while
 * it is not loaded (`loadedFor` null) or not known yet. Read again when a window is kept or forgotten, here or in
 * another tab (`models:windows-changed`), and when the engine loads the file anew.
 */
export function useNextBuiltinWindow(file: string, loadedFor: number | null): number | null {
  const version = useModelsStore((s) => s.windowVersion);
  const [next, setNext] = useState<{ file: string; window: number | null } | null>(null);
  useEffect(() => {
    if (loadedFor === null) return;
    let live = true;
    firebrand()
      .models.contextWindow({ model: file, connectionId: 'builtin' })
      .then((c) => live && setNext({ file, window: c.contextWindow }))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [file, loadedFor, version]);
  return loadedFor === null || next?.file !== file ? null : next.window;
}
