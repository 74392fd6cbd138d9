import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Turn } from '../../src/shared/turn';
import type { ConversationSummary } from '../../src/shared/ipc';
import { UserTurn } from '../../src/renderer/components/turn/UserTurn';
import { ConversationItem, editedTitle } from '../../src/renderer/components/ConversationItem';
import { editRenameField, startRenameField, type RenameField } from '../../src/renderer/components/rename-field';

const user = (text: string): Turn => ({ id: 'u1', conversationId: 'c1', parentId: null, role: 'user', blocks: [{ type: 'text', text }], meta: {}, status: 'done', createdAt: 0 });

/** The markers in some HTML: each one's code point and the character it holds. */
const markers = (html: string) => [...html.matchAll(/<span class="invisible-char" data-code-point="(U\+[0-9A-F]{4})" title="([^"]*)">(.)<\/span>/gu)].map((m) => [m[1], m[3]]);

/** The text a browser would hold for an HTML fragment. */
const text = (html: string) => html.replace(/<[^>]*>/g, '').replace(/&quot;/g, '"').replace(/&amp;/g, '&');

describe('direction controls in what the user wrote (Trojan Source)', () => {
  it("marks them in the user's own message, keeping the text exact, as in a model's prose", () => {
    // Pasted from somewhere: "open \u202Efdp.exe" shows as "open exe.pdf", and the override runs on to the line's end.
    const written = 'Is it safe to open \u202Efdp.exe\u202C and run \u2067x\u2069?';
    const html = renderToStaticMarkup(<UserTurn turn={user(written)} />);
    expect(markers(html)).toEqual([
      ['U+202E', '\u202E'],
      ['U+202C', '\u202C'],
      ['U+2067', '\u2067'],
      ['U+2069', '\u2069'],
    ]);
    expect(html).toContain('title="U+202E RIGHT-TO-LEFT OVERRIDE"');
    // What is copied is what was written.
    expect(text(/<div class="user-text"[^>]*>([\s\S]*?)<\/div>/.exec(html)![1]!)).toBe(written);
  });

  it('leaves Arabic, Hebrew and Persian as they are, with their marks and joiners', () => {
    for (const written of ['שלום, מה שלומך?', 'مرحبا بالعالم\u200F!', 'می\u200Cخواهم'])
      expect(renderToStaticMarkup(<UserTurn turn={user(written)} />)).toContain(`<div class="user-text" data-testid="user-text" dir="auto">${written}</div>`);
  });

  it('marks them in a title the user typed, and shows them as code points in its tooltip and the names of its buttons', () => {
    const conversation: ConversationSummary = { id: 'c1', title: 'Invoice \u202Efdp.exe', updatedAt: 0, model: null };
    const html = renderToStaticMarkup(<ConversationItem conversation={conversation} active={false} onDelete={() => {}} />);
    expect(markers(html)).toEqual([['U+202E', '\u202E']]);
    expect(html).toContain('title="Invoice [U+202E]fdp.exe"');
    expect(html).toContain('aria-label="Delete Invoice [U+202E]fdp.exe"');
    expect(html).not.toMatch(/="[^"]*\u202E/u);
    const hebrew = renderToStaticMarkup(<ConversationItem conversation={{ ...conversation, title: 'שלום עולם' }} active={false} onDelete={() => {}} />);
    expect(hebrew).toContain('title="שלום עולם"');
    expect(markers(hebrew)).toEqual([]);
  });

  it('shows them as code points in the rename field, and saves the title as it was unless the user edits it', () => {
    const title = 'Invoice \u202Efdp.exe';
    // What the field holds while the user edits: before, the raw override, which reversed the rest of the title there.
    const field = startRenameField(title);
    expect(field.value).toBe('Invoice [U+202E]fdp.exe');
    /** The field after the user makes it read `raw`, the caret at `caret` (the end of what they typed). */
    const typed = (from: RenameField, raw: string, caret?: number) => editRenameField(from, raw, caret);
    // Left as it was: nothing is saved, the control stays.
    expect(editedTitle(title, field)).toBeNull();
    // Edited elsewhere: the control is saved where it was written.
    expect(editedTitle(title, typed(field, `${field.value} (copy)`))).toBe('Invoice \u202Efdp.exe (copy)');
    expect(editedTitle(title, typed(field, `My ${field.value}`, 3))).toBe('My Invoice \u202Efdp.exe');
    // Its code point deleted, or cut into: so is the control.
    expect(editedTitle(title, typed(field, 'Invoice fdp.exe', 8))).toBe('Invoice fdp.exe');
    expect(editedTitle(title, typed(field, 'Invoice [U+202Efdp.exe', 15))).toBe('Invoice [U+202Efdp.exe');
    expect(editedTitle(title, typed(field, '  '))).toBeNull();
    expect(editedTitle('Plain', startRenameField('Plain'))).toBeNull();
    expect(editedTitle('Plain', typed(startRenameField('Plain'), 'Plain [note]'))).toBe('Plain [note]');
    // One pasted raw while editing is shown as the others, and saved as the control it is.
    const pasted = typed(startRenameField('Plain'), 'Plain \u2066x\u2069');
    expect(pasted.value).toBe('Plain [U+2066]x[U+2069]');
    expect(editedTitle('Plain', pasted)).toBe('Plain \u2066x\u2069');
  });

  it('saves brackets the user typed as the text they typed: only the ones the field wrote for a control turn back into it', () => {
    // Before: a title typed as "Use [U+202E] to test" was saved with a real right-to-left override in it, which then
    // reversed the rest of the title wherever it was not marked (a notification, an export, another app).
    const written = 'Use [U+202E] to test';
    expect(editedTitle('New chat', editRenameField(startRenameField('New chat'), written))).toBe(written);
    // Typed one character at a time, the last `]` completing it.
    let field = startRenameField('');
    for (let i = 1; i <= written.length; i++) field = editRenameField(field, written.slice(0, i), i);
    expect(editedTitle('', field)).toBe(written);
    // Beside a real one, typed in front of it: the caret tells which is which.
    const real = startRenameField('\u202Eabc');
    const both = editRenameField(real, `[U+202E]${real.value}`, 8);
    expect(both.value).toBe('[U+202E][U+202E]abc');
    expect(editedTitle('\u202Eabc', both)).toBe('[U+202E]\u202Eabc');
    // A title saved with the text, renamed again and left as it is: nothing is saved, the text stays text.
    expect(startRenameField(written).controls).toEqual([]);
    expect(editedTitle(written, startRenameField(written))).toBeNull();
  });
});
