/**
 * HTML -> readable text for a model, over a real parser (htmlparser2: one linear pass, no backtracking, so a
 * hostile file cannot freeze it). Headings keep `#` marks, list items `- `, tables become `| a | b |` rows, and
 * what is never content (scripts, styles, head) is dropped. Used for attached HTML files and for DOCX, which
 * mammoth turns into HTML first. The text goes to the model, never into the DOM.
 */
import { parseDocument } from 'htmlparser2';

type Node = ReturnType<typeof parseDocument>['children'][number];
type ElementNode = Extract<Node, { name: string; attribs: Record<string, string> }>;

const DROP = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head', 'iframe', 'object', 'canvas', 'button', 'select']);
const BLOCK = new Set([
  'p', 'div', 'section', 'article', 'main', 'header', 'footer', 'nav', 'aside', 'ul', 'ol', 'dl', 'dt', 'dd', 'figure',
  'figcaption', 'blockquote', 'form', 'fieldset', 'address', 'hr', 'body', 'html', 'caption',
]);

/** Accumulates text with collapsed inline whitespace and explicit line breaks. */
class TextOut {
  private text = '';

  inline(s: string): void {
    const collapsed = s.replace(/\s+/g, ' ');
    if (collapsed === '' || (collapsed === ' ' && (this.text === '' || /[\s]$/.test(this.text)))) return;
    this.text += this.atLineStart() ? collapsed.replace(/^ /, '') : collapsed;
  }

  raw(s: string): void {
    this.text += s;
  }

  /** At least `n` line breaks before what follows (none at the very start). */
  breaks(n: number): void {
    if (this.text === '') return;
    this.text = this.text.replace(/[ \t]+$/, '');
    const have = /\n*$/.exec(this.text)?.[0].length ?? 0;
    if (have < n) this.text += '\n'.repeat(n - have);
  }

  done(): string {
    return this.text.replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
  }

  private atLineStart(): boolean {
    return this.text === '' || this.text.endsWith('\n');
  }
}

function isElement(node: Node): node is ElementNode {
  return 'name' in node && 'attribs' in node;
}

function walk(nodes: readonly Node[], out: TextOut): void {
  for (const node of nodes) {
    if (node.type === 'text') out.inline((node as { data: string }).data);
    else if (isElement(node)) element(node, out);
  }
}

function element(el: ElementNode, out: TextOut): void {
  const name = el.name.toLowerCase();
  const kids = el.children as Node[];
  if (DROP.has(name)) return;
  if (name === 'br') return out.breaks(1);
  if (/^h[1-6]$/.test(name)) {
    out.breaks(2);
    out.raw(`${'#'.repeat(Number(name[1]))} `);
    walk(kids, out);
    return out.breaks(2);
  }
  if (name === 'li') {
    out.breaks(1);
    out.raw('- ');
    walk(kids, out);
    return out.breaks(1);
  }
  if (name === 'pre') {
    out.breaks(2);
    out.raw(textContent(kids));
    return out.breaks(2);
  }
  if (name === 'table') {
    out.breaks(2);
    out.raw(tableText(el));
    return out.breaks(2);
  }
  if (name === 'img') {
    const alt = el.attribs['alt']?.trim();
    if (alt) out.inline(` [image: ${alt}] `);
    return;
  }
  const block = BLOCK.has(name);
  if (block) out.breaks(name === 'p' || name === 'blockquote' ? 2 : 1);
  walk(kids, out);
  if (block) out.breaks(name === 'p' || name === 'blockquote' ? 2 : 1);
}

/** Every text node below, as written (for <pre>). */
function textContent(nodes: readonly Node[]): string {
  let s = '';
  for (const n of nodes) {
    if (n.type === 'text') s += (n as { data: string }).data;
    else if (isElement(n) && !DROP.has(n.name.toLowerCase())) s += n.name.toLowerCase() === 'br' ? '\n' : textContent(n.children as Node[]);
  }
  return s;
}

function rows(el: ElementNode): ElementNode[] {
  const out: ElementNode[] = [];
  for (const kid of el.children as Node[]) {
    if (!isElement(kid)) continue;
    const name = kid.name.toLowerCase();
    if (name === 'tr') out.push(kid);
    // Rows of a nested table stay in their own cell, not in this one.
    else if (name === 'thead' || name === 'tbody' || name === 'tfoot') out.push(...rows(kid));
  }
  return out;
}

/** A table as Markdown-style rows; a cell's own line breaks become spaces so each row stays one line. */
function tableText(table: ElementNode): string {
  const lines: string[] = [];
  for (const tr of rows(table)) {
    const cells = (tr.children as Node[]).filter((c): c is ElementNode => isElement(c) && /^t[dh]$/i.test(c.name));
    const texts = cells.map((c) => {
      const inner = new TextOut();
      walk(c.children as Node[], inner);
      return inner.done().replace(/\s*\n\s*/g, ' ').replaceAll('|', '\\|');
    });
    lines.push(`| ${texts.join(' | ')} |`);
    if (lines.length === 1) lines.push(`|${texts.map(() => ' --- ').join('|')}|`);
  }
  return lines.join('\n');
}

export function htmlToText(html: string): string {
  const doc = parseDocument(html, { decodeEntities: true });
  const out = new TextOut();
  const title = findTitle(doc.children);
  walk(doc.children, out);
  const text = out.done();
  return title && !text.startsWith(title) ? `${title}\n\n${text}`.trim() : text;
}

function findTitle(nodes: readonly Node[]): string | undefined {
  for (const n of nodes) {
    if (!isElement(n)) continue;
    if (n.name.toLowerCase() === 'title') return textContent(n.children as Node[]).replace(/\s+/g, ' ').trim() || undefined;
    const inner = findTitle(n.children as Node[]);
    if (inner) return inner;
  }
  return undefined;
}
