/**
 * The markdown pipeline (markdown-it, highlight.js and its languages, DOMPurify: half of the renderer's code) as
 * its own chunk, loaded once the app has painted or when the first answer needs it, so the start does not parse
 * it (bench/start). Until it is there, an answer shows as plain text (render.ts is the only renderer). KaTeX is a
 * chunk of its own, asked for by the first text with a `$` (render.ts); until then a formula shows as its source.
 */
import { useSyncExternalStore } from 'react';

/** `finished`: false for a streaming answer's growing tail, which is not worth caching. */
type Render = (text: string, finished?: boolean) => string;

let render: Render | null = null;
let loading: Promise<Render> | null = null;
const listeners = new Set<() => void>();

export function loadMarkdown(): Promise<Render> {
  loading ??= import('./render').then((m) => {
    render = m.renderMarkdown;
    // KaTeX came later (render.ts): a new renderer is a new snapshot, so every chunk renders again, with math.
    m.whenMathReady(() => {
      render = (text, finished) => m.renderMarkdown(text, finished);
      for (const l of listeners) l();
    });
    for (const l of listeners) l();
    return m.renderMarkdown;
  });
  return loading;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The renderer once loaded (the caller re-renders then), null before; asking starts the load. */
export function useMarkdownRenderer(): Render | null {
  const r = useSyncExternalStore(subscribe, () => render);
  if (!r) void loadMarkdown();
  return r;
}
