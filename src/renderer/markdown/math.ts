/**
 * KaTeX for markdown's $…$ and $$…$$, and LaTeX's \( … \) and \[ … \] (tex-delimiters.ts), its own chunk: loaded
 * when a text first may hold math (render.ts), not with the markdown code (to-html.ts says why).
 */
import katexPluginModule from '@vscode/markdown-it-katex';
import katex from 'katex';
import type { MarkdownIt } from 'markdown-it';
import 'katex/dist/katex.min.css';
import { texDelimiters } from './tex-delimiters';

// The plugin is CommonJS with an `exports.default`: bundlers hand over the function, plain Node the module object.
export const katexPlugin: typeof katexPluginModule =
  typeof katexPluginModule === 'function' ? katexPluginModule : (katexPluginModule as unknown as { default: typeof katexPluginModule }).default;

/** Both delimiter styles on one markdown-it: the dollars first, since the \[ … \] rules keep its block renderer. */
export const mathPlugin = (md: MarkdownIt): void => {
  md.use(katexPlugin, { throwOnError: false });
  texDelimiters(md, (tex, options) => katex.renderToString(tex, options));
};
