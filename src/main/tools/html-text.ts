/**
 * HTML -> readable plain text for `fetch_url`. Not a renderer: it drops what is never content (scripts, styles,
 * head, nav chrome), turns block boundaries into line breaks and decodes the common entities. The result goes to
 * the model as text, so nothing here has to be safe to display as HTML.
 */
const DROP = /<(script|style|noscript|template|svg|head|nav|footer|iframe)\b[\s\S]*?<\/\1\s*>/gi;
const BLOCK = /<\/?(p|div|section|article|main|header|h[1-6]|ul|ol|li|tr|table|pre|blockquote|br|hr|dt|dd)\b[^>]*>/gi;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', mdash: '—', ndash: '–', hellip: '…' };

export function htmlToText(html: string): string {
  const title = /<title\b[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1];
  const body = html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(DROP, ' ')
    .replace(/<li\b[^>]*>/gi, '\n- ')
    .replace(BLOCK, '\n')
    .replace(/<[^>]+>/g, '');
  const text = decodeEntities(body)
    .split('\n')
    .map((l) => l.replace(/[ \t\f\v\r]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const heading = title ? decodeEntities(title).trim() : '';
  return heading && !text.startsWith(heading) ? `${heading}\n\n${text}` : text;
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}
