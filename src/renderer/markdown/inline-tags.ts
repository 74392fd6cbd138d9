/**
 * The few HTML tags models write inside markdown, drawn as what they mean: `<br>` (GPT-style models and gpt-oss
 * break lines inside table cells with it, where markdown has no other way) and formatting pairs such as
 * `<sup>2</sup>`, `<sub>`, `<kbd>Ctrl</kbd>`. Markdown runs with raw HTML off (to-html.ts), so they showed as
 * literal tags: "Step one&lt;br&gt;Step two" in a cell. Only these names, and only bare (an attribute makes
 * it text again): each becomes a token markdown-it draws as the bare tag, so nothing the model wrote reaches the
 * page as HTML. A pair's opening tag counts only when its closing tag follows in the same paragraph or cell; a
 * tag that is not one of these, or is alone, stays text as before.
 */
import type { MarkdownIt, StateInline } from 'markdown-it';

/** Tags of inline formatting with no attributes to speak of. */
const PAIRED = new Set(['b', 'i', 'em', 'strong', 'u', 's', 'del', 'ins', 'mark', 'small', 'sub', 'sup', 'kbd']);

/** `<name>`, `</name>`, `<br/>`, `<br />`: letters only, no attributes. */
const TAG = /^<(\/?)([a-zA-Z]+)\s*(\/?)>/;

const LESS_THAN = 0x3c;

/** How many of `tag`'s pairs are open among the tokens pushed so far in this inline text. */
function openPairs(state: StateInline, tag: string): number {
  let open = 0;
  for (const token of state.tokens) if (token.type === 'inline_tag_open' && token.tag === tag) open++;
  else if (token.type === 'inline_tag_close' && token.tag === tag) open--;
  return open;
}

function inlineTag(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== LESS_THAN) return false;
  const match = TAG.exec(state.src.slice(state.pos, state.pos + 16));
  if (!match) return false;
  const [whole, closing, written, selfClosing] = match as unknown as [string, string, string, string];
  const tag = written.toLowerCase();
  if (tag === 'br' && closing === '') {
    if (!silent) state.push('hardbreak', 'br', 0);
    state.pos += whole.length;
    return true;
  }
  // Pairs are matched by the tokens pushed, which a silent scan (a link's label) does not push: text there.
  if (silent || selfClosing !== '' || !PAIRED.has(tag)) return false;
  if (closing === '') {
    if (!new RegExp(`</${tag}\\s*>`, 'i').test(state.src.slice(state.pos + whole.length))) return false;
    state.push('inline_tag_open', tag, 1);
  } else {
    if (openPairs(state, tag) <= 0) return false;
    state.push('inline_tag_close', tag, -1);
  }
  state.pos += whole.length;
  return true;
}

/** The plugin: before markdown-it's own (disabled) HTML rule, so a `<` that is none of these is still text. */
export function inlineTags(md: MarkdownIt): void {
  md.inline.ruler.before('html_inline', 'inline_tag', inlineTag);
}
