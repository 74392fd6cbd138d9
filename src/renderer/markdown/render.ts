/** The second wall: DOMPurify over markdown-it's output, and a cache so finished chunks cost nothing again. */
import DOMPurify from 'dompurify';
import { loadGrammar, takeWantedGrammars } from './grammars';
import { copyMathAsTex } from './copy-math';
import { growFence, type FenceDraft } from './growing-fence';
import { growFold, type FoldDraft } from './growing-fold';
import { drawList, type ListView } from './list-view';
import { drawTable, type TableView } from './table-view';
import { withPendingTable } from './pending-table';
import { TextCache } from './text-cache';
import { enableMath, markdownToHtml, mathEnabled, mayHoldMath, summaryToHtml, type LinkReferences } from './to-html';

export { answerReferences, type LinkReferences } from './to-html';
export type { ListView } from './list-view';
export type { TableView } from './table-view';

// The announcer's spoken form of an answer comes with this chunk, which has the parser (lazy-render.ts).
export { speechText } from './to-speech';

/**
 * Only http(s) links survive sanitizing too, whatever the markdown step let through, and a footnote's links within the
 * answer (footnotes.ts), which the answer's click handler follows (Markdown.tsx).
 */
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    const href = node.getAttribute('href') ?? '';
    if (!/^https?:\/\//i.test(href) && !/^#fn(?:ref)?-/.test(href)) node.removeAttribute('href');
  }
});

/**
 * Set once: a config passed to each sanitize call is parsed and its tag and attribute sets copied again on every
 * call (about a tenth of a finished answer's render time, measured in the page).
 */
DOMPurify.setConfig({ ADD_ATTR: ['target'], FORBID_TAGS: ['style', 'img', 'form', 'input'] });

/**
 * Finished chunks' HTML by text: 2,000 chunks, and at most 4 million characters of text and HTML together (8 MB at
 * most), so a long session's large code blocks do not stay for the rest of it (text-cache.ts).
 */
const cache = new TextCache<string>(2000, 4_000_000, (html) => html.length);
/**
 * The growing tail of a streaming answer changes every frame: caching each version filled the cache with
 * thousands of drafts that pushed out the finished chunks. Only its latest version is kept, because the chunk
 * it becomes when finished is often exactly that text.
 */
let draft: { text: string; html: string } | undefined;

/**
 * Sanitized HTML of one chunk. A finished chunk (`finished`, the default) is cached, so scrolling back and forth
 * or remounting costs nothing; a streaming tail is not. `references`: the link definitions of the whole answer
 * (answerReferences), for a chunk whose `[text][label]` links are defined in another chunk. `nested`: the chunk is
 * part of a streaming fold's content (GrowingTail.tsx), whose blocks take the fold's direction.
 */
export function renderMarkdown(whole: string, finished = true, references?: LinkReferences, nested = false): string {
  // A streaming tail that ends in a table's header row shows the table it is becoming (pending-table.ts): the
  // draft is kept under what was drawn, so a finished chunk that ends there is drawn as what it is.
  const text = finished ? whole : withPendingTable(whole);
  // Only a chunk with a `]` can use a definition: the others keep their one cache entry.
  const refs = references && text.includes(']') ? references : undefined;
  // A tail with a fold may draw it as still being written (details.ts): that version is no finished chunk's HTML.
  const writing = !finished && text.includes('<details');
  const key = `${refs ? `${text}\u0000${referencesKey(refs)}` : text}${writing ? '\u0000writing' : ''}${nested ? '\u0000nested' : ''}`;
  const hit = cache.get(key) ?? (draft?.text === key ? draft.html : undefined);
  if (hit !== undefined) {
    if (finished && !cache.has(key)) remember(key, hit);
    return hit;
  }
  const html = DOMPurify.sanitize(markdownToHtml(text, refs, { streaming: writing, nested }));
  // Math not typeset yet (KaTeX is on its way), or code whose grammar is on its way (grammars.ts): this version
  // is not kept, the one after it arrives is.
  const grammars = takeWantedGrammars();
  const waitsForMath = !mathEnabled() && mayHoldMath(text);
  if (grammars.length > 0) void loadGrammars(grammars);
  if (waitsForMath) void loadMath();
  if (grammars.length > 0 || waitsForMath) return html;
  if (finished) remember(key, html);
  else draft = { text: key, html };
  return html;
}

/**
 * A streaming tail that ends inside a code block, ready to draw (growing-fence.ts): its pieces are sanitized once
 * each, like the finished chunks, and only the live lines at each token.
 */
export interface FenceView {
  draft: FenceDraft;
  /**
   * The markdown before the fence's line, as HTML ('' when the fence starts the chunk). For a block in a list item or
   * a quote (draft.container), the chunk up to its code as HTML: its shell, whose last code element takes the code.
   */
  before: string;
  /** The code block's language label. */
  label: string;
  /** The finished pieces of code, as HTML: the same strings for the rest of the stream. */
  pieces: string[];
  /** The code after them, as HTML. */
  live: string;
}

/**
 * The view of a streaming tail that ends inside a code block, from `prev` (the view of the text before this
 * token); null when the tail is drawn whole (renderMarkdown).
 */
export function drawGrowingFence(prev: FenceView | null | undefined, tail: string, references?: LinkReferences, nested = false): FenceView | null {
  const draft = growFence(prev?.draft, tail);
  if (!draft) return null;
  const kept = prev && prev.draft.codeStart === draft.codeStart && prev.draft.pieces.every((p, i) => draft.pieces[i] === p) ? prev.pieces : [];
  const pieces = kept.length === draft.pieces.length ? kept : kept.concat(draft.pieces.slice(kept.length).map((p) => DOMPurify.sanitize(p)));
  const before = draft.before === '' ? '' : renderMarkdown(draft.before, true, references, nested);
  return { draft, before, label: draft.label, pieces, live: DOMPurify.sanitize(draft.live) };
}

/** A streaming tail that is one open fold (growing-fold.ts), with its summary's sanitized HTML. */
export interface FoldView {
  draft: FoldDraft;
  summary: string;
}

/** The view of a streaming tail that is one open fold, from `prev`; null when it is not one. */
export function drawGrowingFold(prev: FoldView | null | undefined, tail: string): FoldView | null {
  const draft = growFold(prev?.draft, tail);
  if (!draft) return null;
  const summary = prev && prev.draft.summary === draft.summary ? prev.summary : DOMPurify.sanitize(summaryToHtml(draft.summary));
  return { draft, summary };
}

/**
 * The view of a streaming tail that is one list, drawn item by item (list-view.ts), from `prev`; null when it is not
 * one.
 */
export function drawGrowingList(prev: ListView | null | undefined, tail: string, references?: LinkReferences, nested = false): ListView | null {
  return loadWhatItAsked(drawList(prev, tail, references, nested, sanitizeHtml), tail);
}

/** The view of a streaming tail that is one table, drawn row by row (table-view.ts), from `prev`; null when it is not one. */
export function drawGrowingTable(prev: TableView | null | undefined, tail: string, references?: LinkReferences, nested = false): TableView | null {
  return loadWhatItAsked(drawTable(prev, tail, references, nested, sanitizeHtml), tail);
}

const sanitizeHtml = (html: string) => DOMPurify.sanitize(html);

/**
 * What a tail drawn in parts asked for while it was drawn, loaded as for a chunk drawn whole (renderMarkdown): the
 * grammars of its code, and KaTeX where it may hold math. The drawers that come with them draw it again
 * (lazy-render.ts).
 */
function loadWhatItAsked<T>(view: T | null, tail: string): T | null {
  const grammars = takeWantedGrammars();
  if (grammars.length > 0) void loadGrammars(grammars);
  if (view && !mathEnabled() && mayHoldMath(tail)) void loadMath();
  return view;
}

const keys = new WeakMap<LinkReferences, string>();

function referencesKey(refs: LinkReferences): string {
  let key = keys.get(refs);
  if (key === undefined) keys.set(refs, (key = JSON.stringify(refs)));
  return key;
}


let mathLoading: Promise<void> | null = null;
let onMore: () => void = () => {};

/**
 * Called once KaTeX or a grammar is in: what was shown before it (a `$` as text, code uncoloured) is rendered
 * again (lazy-render.ts).
 */
export function whenMoreReady(listener: () => void): void {
  onMore = listener;
}

/**
 * Grammars asked for by a render (grammars.ts), each its own chunk; one redraw once all are in. One that fails to
 * load (the server went away) leaves its code plain, and is asked for again by the next render that needs it.
 */
async function loadGrammars(languages: string[]): Promise<void> {
  const loaded = await Promise.allSettled(languages.map(loadGrammar));
  if (loaded.some((r) => r.status === 'fulfilled')) onMore();
}

/** KaTeX's chunk (math.ts), asked for by the first text that may hold math. */
function loadMath(): Promise<void> {
  mathLoading ??= import('./math').then((m) => {
    enableMath(m.mathPlugin);
    // A copied selection gives its formulas as TeX, not KaTeX's two renderings of them (copy-math.ts).
    copyMathAsTex();
    onMore();
  });
  return mathLoading;
}

function remember(text: string, html: string): void {
  cache.set(text, html);
}
