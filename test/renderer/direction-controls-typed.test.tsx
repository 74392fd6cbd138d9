import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Turn } from '../../src/shared/turn';
import type { ConversationSummary } from '../../src/shared/ipc';
import { UserTurn } from '../../src/renderer/components/turn/UserTurn';
import { ConversationItem, editedTitle } from '../../src/renderer/components/ConversationItem';
import { withDirectionControlsShown } from '../../src/renderer/markdown/invisible-chars';

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
    const field = withDirectionControlsShown(title);
    expect(field).toBe('Invoice [U+202E]fdp.exe');
    // Left as it was: nothing is saved, the control stays.
    expect(editedTitle(title, field)).toBeNull();
    // Edited elsewhere: the control is saved where it was written.
    expect(editedTitle(title, `${field} (copy)`)).toBe('Invoice \u202Efdp.exe (copy)');
    // Its code point deleted: so is the control.
    expect(editedTitle(title, 'Invoice fdp.exe')).toBe('Invoice fdp.exe');
    expect(editedTitle(title, '  ')).toBeNull();
    expect(editedTitle('Plain', 'Plain')).toBeNull();
    expect(editedTitle('Plain', 'Plain [note]')).toBe('Plain [note]');
  });
});
