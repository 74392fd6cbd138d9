/**
 * Footnotes as models write them (`a claim[^1]` … `[^1]: the source`: GPT-style models, Qwen, Llama), read by
 * markdown-it-footnote and drawn here so that a chunk's HTML depends on its own text and the answer's definitions
 * alone (an answer is drawn a chunk at a time, split-blocks.ts, and finished chunks are cached by text: render.ts):
 * - a reference shows the label the model wrote (`[^1]` shows 1), not a number counted over the chunks before it;
 * - a definition is drawn where it stands (the plugin moves them all to the end of each chunk it parses, and keeps
 *   only those referenced in that same chunk), with a link back to its reference;
 * - no ids: a chat shows many answers, each of which may have its own note 1. The links carry their label as data and
 *   the answer's click handler (Markdown.tsx) moves to the matching one inside the same answer.
 * The references of a chunk whose definitions are in another come with the answer's link definitions (to-html.ts
 * answerReferences, under NOTE_KEY), so they link once the definition has arrived; until then they read as written.
 */
import footnote from 'markdown-it-footnote';
import type { MarkdownIt as Markdown, Token } from 'markdown-it';

/**
 * Where a footnote label is kept among an answer's link definitions: before it, a prefix no link label can start with
 * (markdown-it trims the labels it looks up).
 */
export const NOTE_KEY = ' ^';

/** What markdown-it-footnote keeps in a parse's env. */
interface FootnoteEnv {
  footnotes?: { refs?: Record<string, number> };
}

/** The footnote labels a parse read definitions for, from its env. */
export function definedNotes(env: object): string[] {
  return Object.keys((env as FootnoteEnv).footnotes?.refs ?? {}).map((key) => key.slice(1));
}

/** The env's footnotes for labels defined elsewhere in the answer: each defined, none referenced yet. */
export function notesEnv(labels: readonly string[]): FootnoteEnv {
  return { footnotes: { refs: Object.fromEntries(labels.map((label) => [`:${label}`, -1])) } };
}

const escapeAttr = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function label(token: Token | undefined): string {
  return String((token?.meta as { label?: unknown } | null)?.label ?? '');
}

export function footnotes(md: Markdown): void {
  md.use(footnote);
  // `^[inline notes]`: prose such as "match ^[a-z]+ at the start" became one, and models write `[^1]`.
  md.inline.ruler.disable('footnote_inline');
  md.core.ruler.at('footnote_tail', backLinks);
  md.renderer.rules.footnote_ref = (tokens, idx) => {
    const name = escapeAttr(label(tokens[idx]));
    return `<sup class="footnote-ref"><a href="#fn-${encodeURIComponent(label(tokens[idx]))}" data-footnote-ref="${name}" aria-label="Footnote ${name}">${name}</a></sup>`;
  };
  md.renderer.rules.footnote_reference_open = (tokens, idx, _options, _env, self) => {
    const name = escapeAttr(label(tokens[idx]));
    // Focusable by script only: a reference's link moves the reader here (Markdown.tsx).
    return `<div class="footnote"${self.renderAttrs(tokens[idx]!)} data-footnote="${name}" tabindex="-1"><span class="footnote-label">${name}</span><div class="footnote-text">`;
  };
  md.renderer.rules.footnote_reference_close = () => '</div></div>\n';
  md.renderer.rules.footnote_anchor = (tokens, idx) => {
    const name = escapeAttr(label(tokens[idx]));
    // U+FE0E: the arrow as text, not as an emoji.
    return ` <a href="#fnref-${encodeURIComponent(label(tokens[idx]))}" class="footnote-back" data-footnote-back="${name}" aria-label="Back to reference ${name}">\u21a9\ufe0e</a>`;
  };
}

/**
 * In place of the plugin's footnote_tail: each definition stays where the model wrote it, and ends in a link back to
 * its reference (in its last paragraph when it ends in one).
 */
function backLinks(state: { tokens: Token[]; Token: new (type: string, tag: string, nesting: -1 | 0 | 1) => Token }): void {
  const tokens = state.tokens;
  const open: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.type === 'footnote_reference_open') open.push(token);
    else if (token.type === 'footnote_reference_close') {
      const def = open.pop();
      const back = new state.Token('footnote_anchor', '', 0);
      back.meta = { label: label(def) };
      const at = tokens[i - 1]?.type === 'paragraph_close' ? i - 1 : i;
      tokens.splice(at, 0, back);
      i++;
    }
  }
}
