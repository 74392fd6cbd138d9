import type { KeyboardEvent } from 'react';

/**
 * The conversation list from the keyboard (keyboard pass, sidebar): ArrowDown and ArrowUp go from conversation to
 * conversation (from any button of a row, to the next or previous row's conversation), Home and End to the first and
 * last one, ArrowUp on the first back to the search box, as in the search results. The list is one Tab stop (Sidebar's
 * roving tabindex): Tab from a row's conversation reaches that row's Rename, Export and Delete, then leaves the list.
 * F2 and Delete are the row's own (ConversationItem).
 */
export function moveAmongConversations(e: KeyboardEvent<HTMLUListElement>, onLeaveTop: () => void): void {
  if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp' && e.key !== 'Home' && e.key !== 'End') return;
  if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || e.nativeEvent.isComposing) return;
  // The rename field keeps its keys (Home and End move in the text).
  if (e.target instanceof HTMLInputElement) return;
  const rows = [...e.currentTarget.querySelectorAll<HTMLElement>('[data-testid="conversation-item"]')];
  const at = rows.findIndex((row) => row.closest('li')?.contains(document.activeElement) ?? false);
  if (at < 0) return;
  e.preventDefault();
  if (e.key === 'Home') rows[0]?.focus();
  else if (e.key === 'End') rows.at(-1)?.focus();
  else if (e.key === 'ArrowDown') rows[Math.min(at + 1, rows.length - 1)]?.focus();
  else if (at === 0) onLeaveTop();
  else rows[at - 1]?.focus();
}

/**
 * What a key pressed on a conversation's own button does: F2 renames it, Delete deletes it (with Undo), and so does
 * Cmd+Backspace, the Mac's way (as in Finder: its "delete" key is Backspace, and Delete is Fn+delete). Not a bare
 * Backspace, too easy to hit.
 */
export function conversationKeyAction(e: KeyboardEvent<HTMLElement>): 'rename' | 'delete' | null {
  if (e.altKey || e.ctrlKey || e.shiftKey || e.nativeEvent.isComposing) return null;
  if (e.metaKey) return e.key === 'Backspace' ? 'delete' : null;
  if (e.key === 'F2') return 'rename';
  if (e.key === 'Delete') return 'delete';
  return null;
}
