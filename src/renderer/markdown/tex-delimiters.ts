/**
 * LaTeX's own math delimiters, \( … \) inline and \[ … \] displayed, beside the $…$ and $$…$$ of the KaTeX
 * plugin: Qwen, DeepSeek and GPT-style models write these far more often than dollars, and markdown alone read
 * them as escaped brackets, so "\( \frac{1}{\cos x} = \sec x \)" showed as "( \frac{1}{\cos x} = \sec x )"
 * (test/fixtures/model-output/NOTES.md). The rules run before markdown-it's `escape` rule, which would otherwise
 * eat the backslash; a code span or fence is consumed by its own rule first, so math never starts inside code.
 *
 * `\[` is also how markdown escapes a bracket ("see \[1\]", "- \[x\] done"): a \[ … \] on one line is math only
 * when it reads as math (a TeX command or operator in it); a \[ alone at the start of a line always opens a
 * displayed formula. One still open when the text ends (a streaming answer's growing tail) shows its source as a
 * draft, not a formula flickering between typeset and red at every token, nor the rest of the answer as text; so
 * does an open $$ one.
 */
import type { MarkdownIt, StateBlock, StateCore, StateInline, Token } from 'markdown-it';

/** KaTeX's renderToString, as the plugin uses it (math.ts hands it over: KaTeX stays in its own chunk). */
export type TexToHtml = (tex: string, options: { displayMode: boolean; throwOnError: false }) => string;

/** A TeX command, script, brace, relation or operator: what tells "\[ x^2 \]" from "\[1\]" or "\[x\]". */
const READS_AS_MATH = /[\\^_{}=+<>]/;

const BACKSLASH = 0x5c;

/** Where the closing `\)` / `\]` starts at or after `from`, skipping one whose backslash is itself escaped. */
function closingAt(src: string, close: string, from: number): number {
  for (let at = src.indexOf(close, from); at !== -1; at = src.indexOf(close, at + 1)) {
    let slashes = 0;
    for (let i = at - 1; i >= from && src.charCodeAt(i) === BACKSLASH; i--) slashes++;
    if (slashes % 2 === 0) return at;
  }
  return -1;
}

/** \( … \) and a \[ … \] inside a line of prose. */
function inlineMath(state: StateInline, silent: boolean): boolean {
  const { src, pos } = state;
  if (src.charCodeAt(pos) !== BACKSLASH) return false;
  const open = src[pos + 1];
  if (open !== '(' && open !== '[') return false;
  const close = open === '(' ? '\\)' : '\\]';
  const end = closingAt(src, close, pos + 2);
  if (end === -1) return false;
  const content = src.slice(pos + 2, end);
  if (content.trim() === '' || (open === '[' && !READS_AS_MATH.test(content))) return false;
  if (!silent) {
    const token = state.push(open === '(' ? 'math_inline' : 'math_display_inline', 'math', 0);
    token.content = content;
    token.markup = open === '(' ? '\\(' : '\\[';
  }
  state.pos = end + 2;
  return true;
}

/** A \[ … \] display formula that starts a line: on one line, or from a `\[` line to a line ending in `\]`. */
function blockMath(state: StateBlock, start: number, end: number, silent: boolean): boolean {
  // Indented four or more: an indented code block.
  if (state.sCount[start]! - state.blkIndent >= 4) return false;
  const from = state.bMarks[start]! + state.tShift[start]!;
  // Checked before the line is cut out: this runs at the start of every line of every answer.
  if (state.src.charCodeAt(from) !== BACKSLASH || state.src[from + 1] !== '[') return false;
  const first = state.src.slice(from, state.eMarks[start]).trimEnd();
  const after = first.slice(2);
  const closeOnFirst = after.indexOf('\\]');
  let content: string;
  /** The first line after the formula. */
  let next = start + 1;
  let closed = false;
  if (closeOnFirst !== -1) {
    // "\[1\] Smith et al." or "\[a\] and \[b\]": not one formula that fills the line; the inline rule decides.
    if (closeOnFirst !== after.length - 2 || !READS_AS_MATH.test(after.slice(0, -2))) return false;
    content = after.slice(0, -2);
    closed = true;
  } else {
    const lines = [after];
    for (; next < end; next++) {
      const lineStart = state.bMarks[next]! + state.tShift[next]!;
      const max = state.eMarks[next]!;
      // A line indented less than the list item the formula is in ends the item, and the formula before it.
      if (lineStart < max && state.sCount[next]! < state.blkIndent) break;
      const line = state.src.slice(lineStart, max).trimEnd();
      if (line.endsWith('\\]')) {
        lines.push(line.slice(0, -2));
        closed = true;
        next++;
        break;
      }
      lines.push(line);
    }
    content = lines.join('\n');
  }
  if (silent) return true;
  const token = state.push('math_block', 'math', 0);
  token.block = true;
  token.content = content.trim();
  token.markup = '\\[';
  token.map = [start, next];
  if (!closed) token.meta = { draft: true };
  state.line = next;
  return true;
}

/**
 * The display environments models write bare, without $$ or \\[ around them (Qwen, DeepSeek): KaTeX's own display
 * environments and the aligned ones it takes in display mode.
 */
const ENVIRONMENT = /^\\begin\{(align\*?|aligned|alignat\*?|equation\*?|gather\*?|gathered)\}/;

/**
 * A bare `\begin{align}` … `\end{align}` (or equation, gather, aligned, alignat) that starts a line and is closed by
 * a line ending in its `\end`, typeset whole as a displayed formula. One still open when the text ends (a streaming
 * answer's tail) is a draft, as an open \\[ one is; one left open before other text is not math (the text stays as
 * written). Never in code (the code rules come first) nor inside a line of prose.
 */
function environmentMath(state: StateBlock, start: number, end: number, silent: boolean): boolean {
  if (state.sCount[start]! - state.blkIndent >= 4) return false;
  const from = state.bMarks[start]! + state.tShift[start]!;
  if (state.src.charCodeAt(from) !== BACKSLASH || state.src[from + 1] !== 'b') return false;
  const first = state.src.slice(from, state.eMarks[start]).trimEnd();
  const name = ENVIRONMENT.exec(first)?.[1];
  if (!name) return false;
  const close = `\\end{${name}}`;
  const lines: string[] = [];
  let next = start;
  let closed = false;
  let depth = 0;
  for (; next < end; next++) {
    const lineStart = state.bMarks[next]! + state.tShift[next]!;
    const max = state.eMarks[next]!;
    // A line indented less than the list item it is in ends the item, and the environment with it.
    if (next > start && lineStart < max && state.sCount[next]! < state.blkIndent) break;
    const line = next === start ? first : state.src.slice(lineStart, max).trimEnd();
    // A blank line: TeX ends no math there, but markdown ends the block.
    if (line === '') break;
    lines.push(line);
    depth += line.split(`\\begin{${name}}`).length - 1 - (line.split(close).length - 1);
    if (depth <= 0 && line.endsWith(close)) {
      closed = true;
      next++;
      break;
    }
  }
  // Open, with more text after it: not a formula after all.
  if (!closed && next < end) return false;
  if (silent) return true;
  const token = state.push('math_block', 'math', 0);
  token.block = true;
  token.content = lines.join('\n');
  token.markup = '\\begin';
  token.map = [start, next];
  if (!closed) token.meta = { draft: true };
  state.line = next;
  return true;
}

/**
 * A line that starts with a one-line `$$…$$` and goes on with prose ("$$E = mc^2$$ is the famous one."): the KaTeX
 * plugin took its first `$$` for a display block that no line closed, so the rest of the answer, prose and all, was
 * one grey draft of "source" to its end; and, right after a line of prose, it ended that paragraph there. It is a
 * line of a paragraph, as any other text (its `$$…$$` a display inside it: texDelimiters).
 */
function dollarLineProse(state: StateBlock, start: number): boolean {
  if (state.sCount[start]! - state.blkIndent >= 4) return false;
  const from = state.bMarks[start]! + state.tShift[start]!;
  if (state.src.charCodeAt(from) !== 0x24 || state.src.charCodeAt(from + 1) !== 0x24) return false;
  const line = state.src.slice(from, state.eMarks[start]).trim();
  return dollarPairs(line) === 2 && !line.endsWith('$$');
}

/** How many `$$` a line holds. */
function dollarPairs(line: string): number {
  return line.split('$$').length - 1;
}

/**
 * A $$ formula the text ends inside (the KaTeX plugin takes it to the end) is a draft too: half a formula, such as
 * an `\begin{aligned}` derivation before its `\end`, is no TeX, and KaTeX drew it in red for as long as it
 * streamed. Closed: on one line, or its last line holds the closing `$$`.
 */
function dollarDrafts(state: StateCore): void {
  let lines: string[] | undefined;
  for (const token of state.tokens) {
    if (token.type !== 'math_block' || token.markup !== '$$' || !token.map) continue;
    const [start, after] = token.map;
    lines ??= state.src.split('\n');
    const first = lines[start]!.trim();
    const oneLine = after - start === 1 && first.length > 4 && first.endsWith('$$');
    if (!oneLine && !(after - 1 > start && lines[after - 1]?.includes('$$'))) token.meta = { draft: true };
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** The plugin: after the KaTeX plugin (whose math_block renderer it keeps for closed formulas). */
export function texDelimiters(md: MarkdownIt, toHtml: TexToHtml): void {
  md.inline.ruler.before('escape', 'tex_math_inline', inlineMath);
  md.block.ruler.before('math_block', 'tex_math_block', blockMath, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });
  md.block.ruler.before('math_block', 'tex_math_environment', environmentMath, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });
  // The KaTeX plugin's block rule, but for a `$$…$$ prose` line: that one starts a paragraph as any text does, and
  // after a line of prose goes on its paragraph (the rule, asked whether the line ends it, said yes).
  const ruler = md.block.ruler;
  const katexBlock = ruler.__rules__[ruler.__find__('math_block')]?.fn;
  if (katexBlock) {
    ruler.at('math_block', (state, start, end, silent) => !dollarLineProse(state, start) && katexBlock(state, start, end, silent), {
      alt: ['paragraph', 'reference', 'blockquote', 'list'],
    });
  }
  md.core.ruler.push('math_dollar_drafts', dollarDrafts);
  md.renderer.rules.math_display_inline = (tokens: Token[], idx: number) => toHtml(tokens[idx]!.content, { displayMode: true, throwOnError: false });
  const typeset = md.renderer.rules.math_block;
  md.renderer.rules.math_block = (tokens, idx, options, env, self) => {
    const token = tokens[idx]!;
    if ((token.meta as { draft?: boolean } | null)?.draft) return `<p class="katex-block math-draft">${escapeHtml(token.content)}</p>\n`;
    // A `$$…$$` inside a line of prose (the plugin's inline rule; no block rule made it: no map) is a display inside
    // the paragraph, as \[ … \] there is: the plugin's <p> in the paragraph's <p> ended the paragraph in the page,
    // leaving the rest of the line outside it.
    if (!token.map) return toHtml(token.content, { displayMode: true, throwOnError: false });
    return typeset ? typeset(tokens, idx, options, env, self) : '';
  };
}
