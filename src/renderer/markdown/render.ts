/** The second wall: DOMPurify over markdown-it's output, and a cache so finished chunks cost nothing again. */
import DOMPurify from 'dompurify';
import 'katex/dist/katex.min.css';
import { markdownToHtml } from './to-html';

/** Only http(s) links survive sanitizing too, whatever the markdown step let through. */
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    const href = node.getAttribute('href') ?? '';
    if (!/^https?:\/\//i.test(href)) node.removeAttribute('href');
  }
});

const cache = new Map<string, string>();
const CACHE_LIMIT = 2000;

/** Sanitized HTML of one finished chunk; cached, so scrolling back and forth or remounting costs nothing. */
export function renderMarkdown(text: string): string {
  const hit = cache.get(text);
  if (hit !== undefined) return hit;
  const html = DOMPurify.sanitize(markdownToHtml(text), { ADD_ATTR: ['target'], FORBID_TAGS: ['style', 'img', 'form', 'input'] });
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value ?? '');
  cache.set(text, html);
  return html;
}
