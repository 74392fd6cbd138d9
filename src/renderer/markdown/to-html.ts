/**
 * Model output as markdown (GFM tables, lists and task lists: task-items.ts, fenced code with highlighting: grammars.ts) that can never carry raw HTML:
 * markdown-it runs with `html: false` (tags come out escaped, but for `<br>` and a few bare formatting pairs drawn
 * as what they mean: inline-tags.ts, and `<details>` folds: details.ts), links are kept only for http(s), and images are off (a remote image is a
 * tracking pixel the CSP blocks anyway). Pure, so it is tested without a DOM; render.ts sanitizes the result as a
 * second wall. Code blocks get a copy button the view handles by delegation; code shows its invisible and
 * direction-changing characters (invisible-chars.ts). Each top-level block reads in its own text's direction
 * (dir="auto"). Math between $…$, $$…$$, \( … \) and \[ … \] is typeset with KaTeX once `enableMath` has been
 * given its plugin (math.ts, loaded when a text first may hold math: render.ts).
 */
import MarkdownIt from 'markdown-it';
import type { MarkdownIt as Markdown, Token } from 'markdown-it';
import { detailsBlocks } from './details';
import { definedNotes, footnotes, NOTE_KEY, notesEnv } from './footnotes';
import { grammarLoadsOnDemand, grammarReady, hljs, languageName } from './grammars';
import { inlineTags } from './inline-tags';
import { markDirectionControls, markInvisible } from './invisible-chars';
import { tableCodePipes } from './table-code-pipes';
import { taskItems } from './task-items';
import { TextCache } from './text-cache';
import { wwwLinkLength } from './www-links';

/**
 * The language a fence's first word names: ```python, and the forms models copy from notebooks and docs,
 * ```{python} and ```{r, echo=FALSE} (R Markdown, Quarto), ```{.python} (Pandoc), ```python:main.py.
 */
function fenceLanguage(word: string): string {
  const asked = word.trim().toLowerCase();
  return /^\{?\.?([\w+#-]+)/.exec(asked)?.[1] ?? asked;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/**
 * The grammar a fence's info word highlights with, or null for plain code: no language, one highlight.js does not
 * know, or one whose grammar is still loading (grammars.ts; render.ts draws the chunk again once it is in).
 */
export function fenceGrammar(info: string): string | null {
  const language = languageName(fenceLanguage(info));
  return language && grammarReady(language) ? language : null;
}

/** A fence line's language word, as markdown-it reads it: the info string unescaped, up to its first space. */
export function fenceWord(info: string): string {
  return md.utils.unescapeAll(info).trim().split(/\s+/)[0] ?? '';
}

/** Whether the fence's language has a grammar that loads on demand and is not here yet (grammars.ts). */
export function grammarOnItsWay(info: string): boolean {
  return grammarLoadsOnDemand(languageName(fenceLanguage(info)));
}

/** The label a code block shows: the language its fence names, as written (lower case), or "text". */
export function codeBlockLabel(info: string): string {
  return fenceLanguage(info) || 'text';
}

/** A code block's HTML up to its code's text: the box, the language's label and the Copy button. */
export function codeBlockHead(info: string): string {
  const label = escapeHtml(codeBlockLabel(info));
  return `<pre class="code-block"><div class="code-head"><span>${label}</span><button type="button" class="code-copy" data-copy-code="">Copy</button></div><code class="hljs">`;
}

/** What closes a code block's HTML after its code's text. */
export const CODE_BLOCK_FOOT = '</code></pre>';

const md = new MarkdownIt({
  html: false,
  linkify: true,
  // A line break the model wrote is one on screen: models end lines of a poem, an address or "Name: …" fields
  // with a single newline, which CommonMark would join into one line (test/fixtures/model-output/NOTES.md).
  breaks: true,
  typographer: false,
  highlight: (code, lang) => {
    const language = fenceGrammar(lang);
    const body = language ? hljs.highlight(code, { language, ignoreIllegals: true }).value : escapeHtml(code);
    return `${codeBlockHead(lang)}${body}${CODE_BLOCK_FOOT}`;
  },
});
md.disable('image');
md.use(inlineTags);
md.use(detailsBlocks);
md.use(taskItems);
md.use(footnotes);
// A pipe in a code span in a table row stays in its cell (table-code-pipes.ts).
md.core.ruler.after('normalize', 'table_code_pipes', (state) => {
  state.src = tableCodePipes(state.src);
});

/** Blocks that take their direction from their own text: a paragraph, heading, list, quote, table, details or footnote. */
const DIRECTED = new Set(['paragraph_open', 'heading_open', 'bullet_list_open', 'ordered_list_open', 'blockquote_open', 'table_open', 'details_open', 'footnote_reference_open']);

/**
 * `dir="auto"` on each top-level block, so an Arabic or Hebrew paragraph reads right to left (its list markers and
 * table columns too) and an English one beside it left to right. Only the outermost block: a list's direction
 * comes from its first strong letter, which the browser does not look for inside a child with a `dir` of its own.
 * Code keeps the page's left-to-right.
 */
md.core.ruler.push('block_direction', (state) => {
  // A fold's content drawn on its own (`nested`: GrowingTail.tsx) is not at the top level of the answer.
  if ((state.env as RenderOptions).nested) return;
  for (const token of state.tokens) if (token.level === 0 && DIRECTED.has(token.type)) token.attrSet('dir', 'auto');
});
md.validateLink = (url: string) => /^https?:\/\//i.test(url.trim());
/**
 * `www.example.com` is a link (http://, as GFM's autolinks make it): `www.` and a domain as the GFM spec reads one
 * (www-links.ts), so `www.localhost` stays text. Not linkify-it's fuzzyLink: it also links any word whose ending is a
 * country's domain, so the file names models write all the time (README.md, setup.py, main.rs) opened websites.
 */
md.linkify.add('www.', {
  validate: wwwLinkLength,
  normalize: (match) => {
    match.url = `http://${match.url}`;
  },
});

// Code shows the characters that would make it read other than it runs (invisible-chars.ts).
for (const rule of ['fence', 'code_block', 'code_inline'] as const) {
  const render = md.renderer.rules[rule]!;
  md.renderer.rules[rule] = (tokens, idx, options, env, self) => markInvisible(render(tokens, idx, options, env, self));
}

// Prose shows the direction controls that would reorder what it reads (invisible-chars.ts): a file name or a command
// in a sentence is read as it is.
const proseText = md.renderer.rules.text!;
md.renderer.rules.text = (tokens, idx, options, env, self) => markDirectionControls(proseText(tokens, idx, options, env, self));

const defaultLinkOpen = md.renderer.rules.link_open;
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const token = tokens[idx];
  // Where the link goes, on hover, before any title the model gave it: its text may name another address than it
  // opens ("[https://bank.example](https://bank.example.evil.test)"), and the desktop window has no status bar.
  const href = token?.attrGet('href');
  if (token && href) {
    const title = token.attrGet('title');
    token.attrSet('title', title ? `${href}\n${title}` : href);
  }
  // Opened outside the app: main denies navigation and hands http(s) links to the system browser.
  token?.attrSet('target', '_blank');
  token?.attrSet('rel', 'noopener noreferrer');
  return defaultLinkOpen ? defaultLinkOpen(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options);
};

let math = false;

/**
 * $…$, $$…$$, \( … \) and \[ … \] as KaTeX from now on (HTML and MathML, no script, styles only as attributes the CSP allows). A
 * formula that does not parse shows its source in an error colour instead of breaking the answer. KaTeX is more
 * than half of the markdown code, and most chats have no math: evaluated with the rest, it held a first chat
 * open by its evaluation and kept about 0.7 MB of the renderer's heap (bench/long-chat: 5.2 -> 4.5 MB).
 */
export function enableMath(plugin: (markdown: Markdown) => void): void {
  if (math) return;
  md.use(plugin);
  math = true;
}

/** Whether math is typeset yet. */
export function mathEnabled(): boolean {
  return math;
}

/** A text that may hold math: every formula starts with `$`, `\(`, `\[` or a bare `\begin{…}` (tex-delimiters.ts). */
export function mayHoldMath(text: string): boolean {
  return text.includes('$') || text.includes('\\(') || text.includes('\\[') || text.includes('\\begin{');
}

/**
 * Link reference definitions (`[label]: url "title"`) as markdown-it keeps them: by normalized label; and the labels
 * of footnote definitions (`[^label]: note`), each under NOTE_KEY before it (footnotes.ts).
 */
export type LinkReferences = Record<string, { href: string; title: string }>;

/** A parse's env for a chunk of an answer whose definitions are `references` (to the other chunks' links and notes). */
function chunkEnv(references: LinkReferences | undefined, options: RenderOptions): Record<string, unknown> {
  if (!references) return { ...options };
  const links: LinkReferences = {};
  const notes: string[] = [];
  for (const [label, ref] of Object.entries(references)) {
    if (label.startsWith(NOTE_KEY)) notes.push(label.slice(NOTE_KEY.length));
    else links[label] = ref;
  }
  return { references: links, ...(notes.length > 0 ? notesEnv(notes) : {}), ...options };
}

/** A line that may start a definition; the parse below decides (it also refuses a `javascript:` one). */
const DEFINITION = /^ {0,3}\[[^\]]+\]:/m;

/** The link reference and footnote definitions a text makes, read by markdown-it itself; undefined when it makes none. */
export function linkReferences(text: string): LinkReferences | undefined {
  if (!DEFINITION.test(text)) return undefined;
  const env: { references?: LinkReferences } = {};
  md.parse(text, env);
  const found: LinkReferences = { ...env.references };
  for (const label of definedNotes(env)) found[NOTE_KEY + label] = { href: '', title: '' };
  return Object.keys(found).length > 0 ? found : undefined;
}

/**
 * Each finished chunk's definitions, read once (null: none): as many chunks as render.ts keeps HTML for, and at
 * most 2 million characters of their text (text-cache.ts).
 */
const definitions = new TextCache<LinkReferences | null>(2000, 2_000_000);
/** Merged definitions by their JSON, so an answer gets the same object back each frame. */
const mergedByKey = new Map<string, LinkReferences>();

/**
 * The link reference definitions an answer's chunks make, merged in their order (the first definition of a label
 * wins, as in CommonMark): models cite sources as `[text][1]` in the prose and `[1]: url` at the end, and the
 * chunks are rendered apart. The same object while the definitions stay the same (the chunks' memo compares it);
 * undefined when there are none. `growing`: the last chunk is a streaming answer's tail (read each time, not kept);
 * `midLine`: the text ends inside a line, which then does not count: a definition whose URL is still streaming
 * would change the definitions, and render every chunk that has a link again, at each token.
 */
export function answerReferences(chunks: readonly string[], growing = false, midLine = false): LinkReferences | undefined {
  let merged: LinkReferences | undefined;
  const finished = growing ? chunks.length - 1 : chunks.length;
  for (let i = 0; i < chunks.length; i++) {
    const whole = chunks[i]!;
    const chunk = i === chunks.length - 1 && growing && midLine ? whole.slice(0, Math.max(0, whole.lastIndexOf('\n'))) : whole;
    let found = definitions.get(chunk);
    if (found === undefined) {
      found = linkReferences(chunk) ?? null;
      if (i < finished) {
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

/**
 * Markdown → HTML as a string, before sanitizing (pure: unit-testable without a DOM). `references`: definitions
 * made elsewhere in the same answer (an answer is rendered a chunk at a time), used where the text has none of its
 * own for a label.
 */
export function markdownToHtml(text: string, references?: LinkReferences, options: RenderOptions = {}): string {
  return md.render(text, chunkEnv(references, options));
}

/** How a text is drawn besides its markdown. */
export interface RenderOptions {
  /** The text is a streaming answer's growing tail: a fold not closed yet is still being written (details.ts). */
  streaming?: boolean;
  /** The text is the content of a fold, drawn on its own: its blocks take the fold's direction, not their own. */
  nested?: boolean;
}

/** A fold's summary as details.ts draws it: inline markdown, "Details" when there is none. */
export function summaryToHtml(summary: string): string {
  return md.renderInline(summary.trim() || 'Details', {});
}

/** markdown-it's tokens for the text, as the chat's HTML is made from them (to-speech.ts reads them). */
export function parseMarkdown(text: string): Token[] {
  return md.parse(text, {});
}

/** One item of a streaming list drawn on its own (growing-list.ts): its tokens as a list of one item. */
export interface ListItemParse {
  tokens: Token[];
  env: Record<string, unknown>;
  /** The item makes the list loose: a blank line between two of its blocks, or after it (when `next` followed). */
  loose: boolean;
}

/**
 * The item's text parsed as a list of one item, or null when it is not one (lazy text that ended the list, a second
 * list): then the list is not what growing-list.ts read, and the tail is drawn whole.
 *
 * `next`: an item of the same list put after it ("- x", "1. x"), whose paragraph tells whether the item makes the list
 * loose (markdown-it hides a tight list's paragraphs; a loose item may have none of its own, only a quote or code);
 * its tokens are left out. '' for none: then only the item's own paragraphs tell.
 */
export function parseListItem(text: string, next: string, references?: LinkReferences, options: RenderOptions = {}): ListItemParse | null {
  const env = chunkEnv(references, options);
  const source = next === '' ? text : `${text.endsWith('\n') ? text : `${text}\n`}${next}`;
  const tokens = md.parse(source, env);
  const open = tokens[0];
  const close = tokens[tokens.length - 1];
  if (!open || !close || (open.type !== 'bullet_list_open' && open.type !== 'ordered_list_open')) return null;
  if (close.type !== open.type.replace('_open', '_close') || tokens.filter((t) => t.level === 0).length !== 2) return null;
  const items = tokens.flatMap((t, i) => (t.level === 1 && t.type === 'list_item_open' ? [i] : []));
  if (items.length !== (next === '' ? 1 : 2)) return null;
  // Every line in the list: a line after it that makes no token (a link definition) ends the list in the answer too.
  if (!open.map || open.map[1] < source.trimEnd().split('\n').length) return null;
  const own = next === '' ? tokens : [...tokens.slice(0, items[1]), close];
  const from = next === '' ? 0 : items[1]!;
  // A tight list's paragraphs are hidden (markdown-it's markTightParagraphs), two levels under the list.
  const loose = tokens.some((t, i) => i >= from && t.level === 2 && t.type === 'paragraph_open' && !t.hidden);
  return { tokens: own, env, loose };
}

/**
 * The HTML of a parsed item as a list of one (its `<ol>` or `<ul>` around its `<li>`), its paragraphs drawn as the
 * whole list's looseness says.
 */
export function listItemHtml(item: ListItemParse, loose: boolean): string {
  for (const t of item.tokens) if (t.level === 2 && (t.type === 'paragraph_open' || t.type === 'paragraph_close')) t.hidden = !loose;
  return md.renderer.render(item.tokens, md.options, item.env);
}

/**
 * A streaming table's header and delimiter rows (`head`, two lines) drawn with one body row (`row`), or alone (null):
 * the table's HTML as markdown-it writes it, or null when markdown-it does not read those lines as one table of that
 * many rows (the row's line ended the table: a list item, a heading, a fence). A row is read by the header's
 * columns and alignments alone (markdown-it's table rule), so each row drawn this way is the row of the whole table
 * (table-view.ts).
 */
export function tableRowsHtml(head: string, row: string | null, references?: LinkReferences, options: RenderOptions = {}): string | null {
  const env = chunkEnv(references, options);
  const source = row === null ? head : `${head}\n${row}`;
  const tokens = md.parse(source, env);
  const open = tokens[0];
  const close = tokens[tokens.length - 1];
  if (open?.type !== 'table_open' || close?.type !== 'table_close' || tokens.filter((t) => t.level === 0).length !== 2) return null;
  if (tokens.filter((t) => t.type === 'tr_open').length !== (row === null ? 1 : 2) || !open.map || open.map[1] < (row === null ? 2 : 3)) return null;
  return md.renderer.render(tokens, md.options, env);
}
