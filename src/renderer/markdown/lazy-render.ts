/**
 * The markdown pipeline (markdown-it, highlight.js and its languages, DOMPurify: half of the renderer's code) as
 * its own chunk, loaded once the app has painted or when the first answer needs it, so the start does not parse
 * it (bench/start). Until it is there, an answer shows as plain text (render.ts is the only renderer). KaTeX is a
 * chunk of its own, asked for by the first text that may hold math (render.ts); until then a formula shows as its
 * source.
 */
import { useSyncExternalStore } from 'react';

import type { FenceView, FoldView, LinkReferences, ListView, TableView } from './render';

/**
 * `finished`: false for a streaming answer's growing tail, which is not worth caching. `references`: the link
 * definitions of the whole answer (answerReferences). `nested`: a chunk of a streaming fold's content.
 */
type Render = (text: string, finished?: boolean, references?: LinkReferences, nested?: boolean) => string;

let render: Render | null = null;
/**
 * render.ts's drawers of a streaming tail at the cost of its new text: one that ends inside a code block, and one that
 * is an open fold.
 */
export interface TailDrawers {
  fence: (prev: FenceView | null | undefined, tail: string, references?: LinkReferences, nested?: boolean) => FenceView | null;
  fold: (prev: FoldView | null | undefined, tail: string) => FoldView | null;
  /** One that is a list: its finished items drawn once (list-view.ts). */
  list: (prev: ListView | null | undefined, tail: string, references?: LinkReferences, nested?: boolean) => ListView | null;
  /** One that is a table: its header and finished rows drawn once (table-view.ts). */
  table: (prev: TableView | null | undefined, tail: string, references?: LinkReferences, nested?: boolean) => TableView | null;
}
let drawers: TailDrawers | null = null;
let references: ((chunks: readonly string[], growing?: boolean, midLine?: boolean) => LinkReferences | undefined) | null = null;
let loading: Promise<Render> | null = null;
const listeners = new Set<() => void>();

/**
 * Markdown of each kind an answer is made of, rendered once when the window is next idle after the pipeline has
 * loaded: its code runs cold the first time (an answer's first render took 47-86 ms, the next ones 12-26 ms on the
 * 2-core machine), and the first chat opened paid that before its first paint. A fence without a language: a
 * grammar is built only for a language a chat uses (to-html.ts).
 */
const WARM_UP = [
  '## Heading\n\nA paragraph with **bold**, *emphasis*, `code` and a link: https://example.com.\n',
  '- one\n  - nested\n- two\n\n1. first\n2. second\n\n> a quote\n',
  '| a | b |\n|---|---|\n| `x` | 1 |\n\n```\ncode(1);\n```\n',
].join('\n');
/** Most the warm-up waits for an idle window. */
const WARM_UP_WAIT_MS = 1000;

/** The chunk itself, asked for once: the chat's renderer and the announcer's speech both come from it. */
let chunk: Promise<typeof import('./render')> | null = null;
const loadChunk = () => (chunk ??= import('./render'));

export function loadMarkdown(): Promise<Render> {
  loading ??= loadChunk().then((m) => {
    // Not cached (`finished` false): the sample is nobody's answer.
    const warm = () => void m.renderMarkdown(WARM_UP, false);
    if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(warm, { timeout: WARM_UP_WAIT_MS });
    render = m.renderMarkdown;
    references = m.answerReferences;
    drawers = { fence: m.drawGrowingFence, fold: m.drawGrowingFold, list: m.drawGrowingList, table: m.drawGrowingTable };
    // KaTeX or a grammar came later (render.ts): a new renderer is a new snapshot, so every chunk renders again
    // (a finished one from the cache, unless it waited for what came).
    m.whenMoreReady(() => {
      render = (text, finished, refs, nested) => m.renderMarkdown(text, finished, refs, nested);
      drawers = { fence: m.drawGrowingFence, fold: m.drawGrowingFold, list: m.drawGrowingList, table: m.drawGrowingTable };
      for (const l of listeners) l();
    });
    for (const l of listeners) l();
    return m.renderMarkdown;
  });
  return loading;
}

/**
 * The announcer's markdown-to-speech (to-speech.ts), from the same chunk: loaded by the time an answer finishes,
 * since the answer was drawn with it.
 */
export function loadSpeech(): Promise<(markdown: string) => string> {
  return loadChunk().then((m) => m.speechText);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The link reference definitions an answer's chunks make (render.ts answerReferences); undefined before the
 * markdown code has loaded, or when there are none.
 */
export function answerReferences(chunks: readonly string[], growing?: boolean, midLine?: boolean): LinkReferences | undefined {
  return references?.(chunks, growing, midLine);
}

/** The tail's drawers once the markdown code has loaded (new ones when a grammar or KaTeX came), null before. */
export function useTailDrawers(): TailDrawers | null {
  return useSyncExternalStore(subscribe, () => drawers);
}

/** The renderer once loaded (the caller re-renders then), null before; asking starts the load. */
export function useMarkdownRenderer(): Render | null {
  const r = useSyncExternalStore(subscribe, () => render);
  if (!r) void loadMarkdown();
  return r;
}
