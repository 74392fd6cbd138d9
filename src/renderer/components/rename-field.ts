/**
 * The text of the rename field (ConversationItem.tsx) while the user edits a title. An input can hold no marker, and a
 * raw right-to-left override reversed the rest of the title there, so each direction control is shown as its code
 * point in brackets ("Invoice [U+202E]fdp.exe"), as the tooltips show it. Only the brackets the field wrote for a real
 * control turn back into it when the title is saved: which ones, is kept beside the text. Before, any "[U+202E]" in the
 * field did, so a user who typed that text in a title got an invisible override saved instead. Pure.
 */
import { directionControlParts } from '../markdown/invisible-chars';

/** The field's text, and where in it each control it shows starts (each as "[U+XXXX]", its `controls` entry). */
export interface RenameField {
  value: string;
  controls: { at: number; ch: string }[];
}

/** How the field shows one control. */
const shownAs = (point: string) => `[${point}]`;

/** `text` with its direction controls shown, offset by `at` in the field. */
function shown(text: string, at: number): RenameField {
  let value = '';
  const controls: RenameField['controls'] = [];
  for (const part of directionControlParts(text)) {
    if (typeof part === 'string') {
      value += part;
      continue;
    }
    controls.push({ at: at + value.length, ch: part.ch });
    value += shownAs(part.point);
  }
  return { value, controls };
}

/** The field for a title about to be edited. */
export const startRenameField = (title: string): RenameField => shown(title, 0);

/**
 * The field after an edit: `raw` is the input's new text, `caret` where its caret is now (the end of what was typed or
 * pasted). The text before and after the edit keeps its controls; a control shown in brackets that the edit cut into
 * is gone (its code point deleted, so is the control), and one typed or pasted raw is shown like the others. Brackets
 * the user typed are text. Where the same text stands on both sides of the edit, the caret tells where it was made.
 */
export function editRenameField(field: RenameField, raw: string, caret = raw.length): RenameField {
  const old = field.value;
  let suffix = 0;
  const most = Math.min(old.length, raw.length, raw.length - Math.min(caret, raw.length));
  while (suffix < most && old[old.length - 1 - suffix] === raw[raw.length - 1 - suffix]) suffix++;
  let prefix = 0;
  const room = Math.min(old.length, raw.length) - suffix;
  while (prefix < room && old[prefix] === raw[prefix]) prefix++;
  const middle = shown(raw.slice(prefix, raw.length - suffix), prefix);
  const tailFrom = old.length - suffix;
  const value = `${raw.slice(0, prefix)}${middle.value}${raw.slice(raw.length - suffix)}`;
  const shift = value.length - old.length;
  const controls = [
    ...field.controls.filter((c) => c.at + shownAs('U+0000').length <= prefix),
    ...middle.controls,
    ...field.controls.filter((c) => c.at >= tailFrom).map((c) => ({ at: c.at + shift, ch: c.ch })),
  ];
  return { value, controls };
}

/** The title the field holds: its text with each control it shows put back, and any other brackets as text. */
export function renameFieldTitle(field: RenameField): string {
  let title = '';
  let at = 0;
  for (const c of field.controls) {
    title += `${field.value.slice(at, c.at)}${c.ch}`;
    at = c.at + shownAs('U+0000').length;
  }
  return title + field.value.slice(at);
}
