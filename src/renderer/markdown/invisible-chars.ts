/**
 * Characters that change how code reads without being seen, made visible in code the way editors show them, and
 * the direction controls among them also in prose.
 * Bidirectional controls can reorder what a line shows against what it is (Trojan Source, CVE-2021-42574: a
 * `return` shown inside a comment runs), and zero-width characters make two identifiers that look the same
 * differ. A user copying code from an answer would paste what they could not see. Each one is wrapped in a
 * marker that shows its code point (turns.css) and isolates its direction effect to itself; the character
 * itself stays in the text, so what is copied (the Copy button or a selection) is exactly what the model wrote.
 */

const NAMES: Record<string, string> = {
  '\u061C': 'ARABIC LETTER MARK',
  '\u200B': 'ZERO WIDTH SPACE',
  '\u200C': 'ZERO WIDTH NON-JOINER',
  '\u200D': 'ZERO WIDTH JOINER',
  '\u200E': 'LEFT-TO-RIGHT MARK',
  '\u200F': 'RIGHT-TO-LEFT MARK',
  '\u202A': 'LEFT-TO-RIGHT EMBEDDING',
  '\u202B': 'RIGHT-TO-LEFT EMBEDDING',
  '\u202C': 'POP DIRECTIONAL FORMATTING',
  '\u202D': 'LEFT-TO-RIGHT OVERRIDE',
  '\u202E': 'RIGHT-TO-LEFT OVERRIDE',
  '\u2060': 'WORD JOINER',
  '\u2066': 'LEFT-TO-RIGHT ISOLATE',
  '\u2067': 'RIGHT-TO-LEFT ISOLATE',
  '\u2068': 'FIRST STRONG ISOLATE',
  '\u2069': 'POP DIRECTIONAL ISOLATE',
  '\uFEFF': 'ZERO WIDTH NO-BREAK SPACE',
};

/**
 * Any of them, except a zero-width joiner inside an emoji sequence (👨‍👩‍👧 in a comment), where it is what
 * draws the emoji.
 */
const INVISIBLE = /[\u061C\u200B\u200C\u200E\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]|(?<![\p{Extended_Pictographic}\p{Emoji_Modifier}]\uFE0F?)\u200D|\u200D(?!\p{Extended_Pictographic})/gu;

/**
 * The controls that reorder the text after them (embeddings, overrides, isolates and their pops): in prose, what a
 * right-to-left override does to a file name or a command the reader is told to run ("open gpj.exe" shows as
 * "open exe.jpg"). Marks (U+200E, U+200F, U+061C) and the zero-width joiners are not among them: Arabic, Hebrew and
 * Persian text uses them to read right, and they reorder nothing past a neutral character or two.
 */
const DIRECTION_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

/** A code point as U+XXXX. */
function codePoint(ch: string): string {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Code's HTML (markdown-it's or highlight.js's: escaped text and tags whose attributes hold no such character)
 * with each invisible character marked. Returns the same string when there is none, the common case.
 */
export function markInvisible(html: string): string {
  INVISIBLE.lastIndex = 0;
  if (!INVISIBLE.test(html)) return html;
  return html.replace(INVISIBLE, marker);
}

/**
 * Prose's HTML (escaped text) with each direction control marked as in code: the marker isolates it, so its effect
 * ends at the marker and the text after it reads in its own order (the paragraph's own direction, dir="auto", is
 * untouched), and shows its code point where it would have reordered the text.
 */
export function markDirectionControls(html: string): string {
  DIRECTION_CONTROLS.lastIndex = 0;
  if (!DIRECTION_CONTROLS.test(html)) return html;
  return html.replace(DIRECTION_CONTROLS, marker);
}

function marker(ch: string): string {
  const point = codePoint(ch);
  return `<span class="invisible-char" data-code-point="${point}" title="${point} ${NAMES[ch] ?? ''}">${ch}</span>`;
}

/** A direction control in plain text, as a marker shows it (MarkedText.tsx draws it as the one in prose's HTML). */
export interface DirectionControl {
  ch: string;
  /** U+XXXX */
  point: string;
  /** Its code point and Unicode name, for a tooltip. */
  title: string;
}

/**
 * Plain text (what a user wrote, a title they typed) cut at its direction controls: the text between them and each
 * control. A single string when there is none, the common case. Marks and joiners are text (Arabic, Hebrew and
 * Persian use them), as in prose.
 */
export function directionControlParts(text: string): (string | DirectionControl)[] {
  DIRECTION_CONTROLS.lastIndex = 0;
  if (!DIRECTION_CONTROLS.test(text)) return [text];
  // matchAll starts where the test left the shared expression: after the first control.
  DIRECTION_CONTROLS.lastIndex = 0;
  const parts: (string | DirectionControl)[] = [];
  let at = 0;
  for (const m of text.matchAll(DIRECTION_CONTROLS)) {
    if (m.index > at) parts.push(text.slice(at, m.index));
    const point = codePoint(m[0]);
    parts.push({ ch: m[0], point, title: `${point} ${NAMES[m[0]] ?? ''}` });
    at = m.index + 1;
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}

/**
 * Text for where no marker can go (a tooltip, an accessible name): each direction control as its code point in
 * brackets, so the rest reads in its own order and the control is still seen.
 */
export function withDirectionControlsShown(text: string): string {
  DIRECTION_CONTROLS.lastIndex = 0;
  return DIRECTION_CONTROLS.test(text) ? text.replace(DIRECTION_CONTROLS, (ch) => `[${codePoint(ch)}]`) : text;
}
