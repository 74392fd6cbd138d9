/**
 * HTML -> readable plain text (fetch_url; documents may reuse it). Not a renderer: it drops what is never content
 * (scripts, styles, head, nav chrome), turns block boundaries into line breaks and decodes entities. The result
 * goes to the model as text, so nothing here has to be safe to display as HTML.
 *
 * htmlparser2's tokenizer reads the input once, left to right: linear time whatever the markup. The regexes this
 * replaces backtracked quadratically on unclosed tags (issue 15: 140 KB of `<script` took 4.6 s). It is still
 * work that grows with a hostile page, so fetch_url runs it in a worker thread (src/main/workers).
 */
import { Parser } from 'htmlparser2';

/** Elements whose content is never page text. */
const DROP = new Set(['script', 'style', 'noscript', 'template', 'svg', 'math', 'head', 'nav', 'footer', 'iframe', 'object', 'canvas', 'select']);
/** Elements that start or end a line. */
const BLOCK = new Set([
  'p', 'div', 'section', 'article', 'main', 'header', 'aside', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'tr',
  'table', 'pre', 'blockquote', 'br', 'hr', 'dl', 'dt', 'dd', 'figure', 'figcaption', 'form', 'fieldset', 'address', 'details', 'summary',
]);

export function htmlToText(html: string): string {
  const out: string[] = [];
  const title: string[] = [];
  let dropDepth = 0;
  let inTitle = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (name === 'title') inTitle++;
        if (DROP.has(name)) dropDepth++;
        if (dropDepth > 0) return;
        if (name === 'li') out.push('\n- ');
        else if (BLOCK.has(name)) out.push('\n');
      },
      onclosetag(name) {
        if (name === 'title' && inTitle > 0) inTitle--;
        if (DROP.has(name) && dropDepth > 0) {
          dropDepth--;
          return;
        }
        if (dropDepth === 0 && BLOCK.has(name) && name !== 'br' && name !== 'hr') out.push('\n');
      },
      ontext(text) {
        if (inTitle > 0) title.push(text);
        else if (dropDepth === 0) out.push(text);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: false },
  );
  parser.write(html);
  parser.end();
  const text = tidy(out.join(''));
  const heading = tidy(title.join('')).replace(/\n+/g, ' ');
  return heading && !text.startsWith(heading) ? `${heading}\n\n${text}` : text;
}

/** One space between words, trimmed lines, at most one blank line in a row. Linear: split, map, join. */
function tidy(text: string): string {
  return text
    .replace(/\u00a0/g, ' ')
    .split('\n')
    .map((l) => l.replace(/[ \t\f\v\r]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
