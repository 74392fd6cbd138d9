/**
 * KaTeX for markdown's $…$ and $$…$$, its own chunk: loaded when a text first has a `$` (render.ts), not with
 * the markdown code (to-html.ts says why).
 */
import katexPluginModule from '@vscode/markdown-it-katex';
import 'katex/dist/katex.min.css';

// The plugin is CommonJS with an `exports.default`: bundlers hand over the function, plain Node the module object.
export const katexPlugin: typeof katexPluginModule =
  typeof katexPluginModule === 'function' ? katexPluginModule : (katexPluginModule as unknown as { default: typeof katexPluginModule }).default;
