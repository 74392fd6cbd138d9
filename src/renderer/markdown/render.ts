/** The second wall: DOMPurify over markdown-it's output, and a cache so finished chunks cost nothing again. */
import DOMPurify from 'dompurify';
import { enableMath, linkReferences, markdownToHtml, mathEnabled, mayHoldMath, type LinkReferences } from './to-html';

export type { LinkReferences } from './to-html';

// The announcer's spoken form of an answer comes with this chunk, which has the parser (lazy-render.ts).
export { speechText } from './to-speech';

/** Only http(s) links survive sanitizing too, whatever the markdown step let through. */
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    const href = node.getAttribute('href') ?? '';
    if (!/^https?:\/\//i.test(href)) node.removeAttribute('href');
  }
});

/**
 * Set once: a config passed to each sanitize call is parsed and its tag and attribute sets copied again on every
 * call (about a tenth of a finished answer's render time, measured in the page).
 */
DOMPurify.setConfig({ ADD_ATTR: ['target'], FORBID_TAGS: ['style', 'img', 'form', 'input'] });

const cache = new Map<string, string>();
const CACHE_LIMIT = 2000;
/**
 * The growing tail of a streaming answer changes every frame: caching each version filled the cache with
 * thousands of drafts that pushed out the finished chunks. Only its latest version is kept, because the chunk
 * it becomes when finished is often exactly that text.
 */
let draft: { text: string; html: string } | undefined;

/**
 * Sanitized HTML of one chunk. A finished chunk (`finished`, the default) is cached, so scrolling back and forth
 * or remounting costs nothing; a streaming tail is not. `references`: the link definitions of the whole answer
 * (answerReferences), for a chunk whose `[text][label]` links are defined in another chunk.
 */
export function renderMarkdown(text: string, finished = true, references?: LinkReferences): string {
  // Only a chunk with a `]` can use a definition: the others keep their one cache entry.
  const refs = references && text.includes(']') ? references : undefined;
  const key = refs ? `${text}\u0000${referencesKey(refs)}` : text;
  const hit = cache.get(key) ?? (draft?.text === key ? draft.html : undefined);
  if (hit !== undefined) {
    if (finished && !cache.has(key)) remember(key, hit);
    return hit;
  }
  const html = DOMPurify.sanitize(markdownToHtml(text, refs));
  // Math not typeset yet (KaTeX is on its way): this version is not kept, the one after it arrives is.
  if (!mathEnabled() && mayHoldMath(text)) {
    void loadMath();
    return html;
  }
  if (finished) remember(key, html);
  else draft = { text: key, html };
  return html;
}

const keys = new WeakMap<LinkReferences, string>();

function referencesKey(refs: LinkReferences): string {
  let key = keys.get(refs);
  if (key === undefined) keys.set(refs, (key = JSON.stringify(refs)));
  return key;
}

/** Each finished chunk's definitions, read once (null: none). */
const definitions = new Map<string, LinkReferences | null>();
/** Merged definitions by their JSON, so an answer gets the same object back each frame. */
const mergedByKey = new Map<string, LinkReferences>();

/**
 * The link reference definitions an answer's chunks make, merged in their order (the first definition of a label
 * wins, as in CommonMark): models cite sources as `[text][1]` in the prose and `[1]: url` at the end, and the
 * chunks are rendered apart. The same object while the definitions stay the same (the chunks' memo compares it);
 * undefined when there are none. `finished`: how many of the chunks are finished (the rest, the growing tail, is
 * read each time and not kept).
 */
export function answerReferences(chunks: readonly string[], finished = chunks.length): LinkReferences | undefined {
  let merged: LinkReferences | undefined;
  for (let i = 0; i < chunks.length; i++) {
    const chunk = chunks[i]!;
    let found = definitions.get(chunk);
    if (found === undefined) {
      found = linkReferences(chunk) ?? null;
      if (i < finished) {
        if (definitions.size >= CACHE_LIMIT) definitions.delete(definitions.keys().next().value ?? '');
        definitions.set(chunk, found);
      }
    }
    if (!found) continue;
    merged ??= {};
    for (const [label, ref] of Object.entries(found)) if (!Object.hasOwn(merged, label)) merged[label] = ref;
  }
  if (!merged) return undefined;
  const key = JSON.stringify(merged);
  const known = mergedByKey.get(key);
  if (known) return known;
  if (mergedByKey.size >= 200) mergedByKey.delete(mergedByKey.keys().next().value ?? '');
  mergedByKey.set(key, merged);
  return merged;
}

let mathLoading: Promise<void> | null = null;
let onMath: () => void = () => {};

/** Called once KaTeX is in: what was shown before it (a `$` as text) is rendered again (lazy-render.ts). */
export function whenMathReady(listener: () => void): void {
  onMath = listener;
}

/** KaTeX's chunk (math.ts), asked for by the first text with a `$`. */
function loadMath(): Promise<void> {
  mathLoading ??= import('./math').then((m) => {
    enableMath(m.katexPlugin);
    onMath();
  });
  return mathLoading;
}

function remember(text: string, html: string): void {
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value ?? '');
  cache.set(text, html);
}
