/**
 * KaTeX for markdown's $…$ and $$…$$, and LaTeX's \( … \) and \[ … \] (tex-delimiters.ts), its own chunk: loaded
 * when a text first may hold math (render.ts), not with the markdown code (to-html.ts says why).
 */
import katexPluginModule from '@vscode/markdown-it-katex';
import katex from 'katex';
import type { MarkdownIt } from 'markdown-it';
import 'katex/dist/katex.min.css';
import { texDelimiters } from './tex-delimiters';
import { TextCache } from './text-cache';
import { escapeHtml } from './to-html';

// The plugin is CommonJS with an `exports.default`: bundlers hand over the function, plain Node the module object.
export const katexPlugin: typeof katexPluginModule =
  typeof katexPluginModule === 'function' ? katexPluginModule : (katexPluginModule as unknown as { default: typeof katexPluginModule }).default;

/**
 * Formulas typeset, by mode and source. A streaming answer's growing tail is parsed and drawn again at each token, and
 * every formula closed in it was typeset again with it: a long derivation followed by its explanation, or a list of
 * steps each with a formula, was typeset anew at every token of what came after it
 * (test/renderer/tex-delimiters.test.ts). A formula still open is drawn as its source (tex-delimiters.ts), and typeset
 * once, when it closes.
 *
 * Only the growing tails need this (a finished chunk's HTML is cached whole: render.ts), so it holds what a tail holds:
 * 400 formulas, and 400,000 characters of source and HTML (under 1 MB). It held 1,000 and 4 million characters (8 MB of
 * KaTeX HTML kept in the page for as long as it lived, whatever chats were open: test/renderer/math-memo.test.ts).
 */
export const TYPESET_MEMO = { formulas: 400, chars: 400_000 } as const;
const typeset = new TextCache<string>(TYPESET_MEMO.formulas, TYPESET_MEMO.chars, (html) => html.length);

/** What the memo holds now: formulas, and characters of source and HTML. */
export function typesetMemoSize(): { formulas: number; chars: number } {
  return { formulas: typeset.size, chars: typeset.chars };
}

/** katex.renderToString, each formula once: the same HTML for the same source and mode (KaTeX is pure). */
export function typesetTex(tex: string, options?: { displayMode?: boolean }): string {
  const displayMode = options?.displayMode === true;
  const key = `${displayMode ? 'd' : 'i'}${tex}`;
  let html = typeset.get(key);
  if (html === undefined) {
    // The source goes with the formula, for a copy of it (copy-math.ts): KaTeX's own copy, an <annotation> in its
    // MathML, does not pass the sanitizer, which drops the tag and keeps its text, so a screen reader read the raw
    // TeX after the formula ("a squared plus b squared… a^2+b^2"). The annotation goes; data-tex holds the source.
    html = katex
      .renderToString(tex, { displayMode, throwOnError: false })
      .replace('<span class="katex">', `<span class="katex" data-tex="${escapeHtml(tex)}">`)
      .replace(/<annotation encoding="application\/x-tex">[\s\S]*?<\/annotation>/, '');
    typeset.set(key, html);
  }
  return html;
}

/** Both delimiter styles on one markdown-it: the dollars first, since the \[ … \] rules keep its block renderer. */
export const mathPlugin = (md: MarkdownIt): void => {
  md.use(katexPlugin, { throwOnError: false, katex: { ...katex, renderToString: typesetTex } });
  texDelimiters(md, (tex, options) => typesetTex(tex, options));
};
