/**
 * Model output as markdown (GFM tables, lists, fenced code with highlighting) that can never carry raw HTML:
 * markdown-it runs with `html: false` (tags come out escaped), links are kept only for http(s), and images are
 * off (a remote image is a tracking pixel the CSP blocks anyway). Pure, so it is tested without a DOM;
 * render.ts sanitizes the result as a second wall. Code blocks get a copy button the view handles by delegation.
 * Math between $…$ and $$…$$ is typeset with KaTeX.
 */
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import MarkdownIt from 'markdown-it';
import katexPluginModule from '@vscode/markdown-it-katex';

// The plugin is CommonJS with an `exports.default`: bundlers hand over the function, plain Node the module object.
const katexPlugin: typeof katexPluginModule =
  typeof katexPluginModule === 'function' ? katexPluginModule : (katexPluginModule as unknown as { default: typeof katexPluginModule }).default;

const LANGUAGES = { bash, c, cpp, css, diff, go, java, javascript, json, markdown, python, rust, sql, typescript, xml, yaml };
for (const [name, lang] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, lang);
hljs.registerAliases(['sh', 'shell', 'zsh'], { languageName: 'bash' });
hljs.registerAliases(['js', 'jsx'], { languageName: 'javascript' });
hljs.registerAliases(['ts', 'tsx'], { languageName: 'typescript' });
hljs.registerAliases(['py'], { languageName: 'python' });
hljs.registerAliases(['html', 'svg'], { languageName: 'xml' });
hljs.registerAliases(['yml'], { languageName: 'yaml' });
hljs.registerAliases(['rs'], { languageName: 'rust' });

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

const md = new MarkdownIt({
  html: false,
  linkify: true,
  typographer: false,
  highlight: (code, lang) => {
    const language = lang.trim().toLowerCase();
    const body = language && hljs.getLanguage(language) ? hljs.highlight(code, { language, ignoreIllegals: true }).value : escapeHtml(code);
    const label = escapeHtml(language || 'text');
    return `<pre class="code-block"><div class="code-head"><span>${label}</span><button type="button" class="code-copy" data-copy-code="">Copy</button></div><code class="hljs">${body}</code></pre>`;
  },
});
md.disable('image');
// $…$ and $$…$$ as KaTeX (HTML and MathML, no script, styles only as attributes the CSP allows). A formula that
// does not parse shows its source in an error colour instead of breaking the answer.
md.use(katexPlugin, { throwOnError: false });
md.validateLink = (url: string) => /^https?:\/\//i.test(url.trim());

const defaultLinkOpen = md.renderer.rules.link_open;
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const token = tokens[idx];
  // Opened outside the app: main denies navigation and hands http(s) links to the system browser.
  token?.attrSet('target', '_blank');
  token?.attrSet('rel', 'noopener noreferrer');
  return defaultLinkOpen ? defaultLinkOpen(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options);
};

/** Markdown → HTML as a string, before sanitizing (pure: unit-testable without a DOM). */
export function markdownToHtml(text: string): string {
  return md.render(text);
}
