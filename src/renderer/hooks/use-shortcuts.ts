import { useEffect, useRef } from 'react';
import { openModelsScreen } from '../components/models/open-models';
import { newChat, stopTurn, useStore } from '../store';
import { stoppableTurn } from '../store/run-state';
import { useShortcutsOverlay } from '../components/frame/ShortcutsOverlay';
import { toolRunningIn, useToolProgress } from '../store/tool-progress';

/** The key goes to a text field (or a select): it is the user's typing, not a shortcut or a scroll. */
export function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

function focus(testId: string): void {
  document.querySelector<HTMLElement>(`[data-testid="${testId}"]`)?.focus();
}

/** What the shortcuts need of the conversation list, whose open state App holds. */
export interface SidebarControls {
  /** Shows the list (opens the drawer, expands a collapsed column), rendered by the time it returns. */
  show: () => void;
  /** Closes the phone's drawer if it is open (rendered by the time it returns); whether it was open. */
  closeDrawer: () => boolean;
}

/** App-wide keys: Ctrl/Cmd+N new chat, Ctrl/Cmd+K search, Ctrl/Cmd+Shift+M models, Esc stop the answer (or the run waiting for an approval), `/` write a message, `?` the list of shortcuts; none of them behind an open dialog. */
export function useShortcuts(sidebar: SidebarControls): void {
  const controls = useRef(sidebar);
  controls.current = sidebar;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // A key an input method is composing with (Escape cancels a conversion) is not a shortcut: it must not stop
      // the answer streaming while the user writes the next message in Japanese or Chinese.
      if (e.isComposing) return;
      const mod = e.ctrlKey || e.metaKey;
      const key = e.key.toLowerCase();
      // While a modal dialog is open the page behind it is not the user's: Ctrl+N would switch the chat under it
      // unseen, and Ctrl+Shift+M open Models on top of Settings. Escape is the dialog's own (Modal.tsx).
      const dialogOpen = document.querySelector('dialog[open]') !== null;
      if (dialogOpen && (mod || e.key === '/')) return;
      if (mod && !e.shiftKey && !e.altKey && key === 'n') {
        e.preventDefault();
        // The message box is behind the drawer, which keeps the focus while open (keyboard audit #2).
        controls.current.closeDrawer();
        newChat();
        setTimeout(() => focus('composer-input'));
      } else if (mod && e.shiftKey && !e.altKey && key === 'm') {
        // The models screen by keyboard: same as clicking the sidebar's Models button.
        e.preventDefault();
        openModelsScreen();
      } else if (mod && !e.shiftKey && !e.altKey && key === 'k') {
        e.preventDefault();
        // A hidden search box cannot take the focus: Ctrl+K did nothing on a phone or with the column collapsed
        // (keyboard audit #1). The list is shown first.
        controls.current.show();
        focus('search-input');
      } else if (mod && !e.altKey && (e.key === '/' || e.key === '?')) {
        // The list from anywhere, the message box too. At a first load on a desktop the focus is in the box, where
        // `?` is typed into the message: the new chat's "? all shortcuts" typed a question mark instead (first-run pass).
        e.preventDefault();
        useShortcutsOverlay.setState({ open: true });
      } else if (e.key === 'Escape' && !e.defaultPrevented && !dialogOpen) {
        // The open drawer is closed by Escape wherever the focus is (keyboard audit #2), before the answer is stopped.
        if (controls.current.closeDrawer()) {
          e.preventDefault();
          return;
        }
        const running = stoppableTurn(useStore.getState().turns, toolRunningIn(useToolProgress.getState().running));
        if (running) void stopTurn(running.turn.id);
      } else if (e.key === '?' && !mod && !e.altKey && !isTyping(e.target) && !dialogOpen) {
        e.preventDefault();
        useShortcutsOverlay.setState({ open: true });
      } else if (e.key === '/' && !mod && !isTyping(e.target)) {
        e.preventDefault();
        controls.current.closeDrawer();
        focus('composer-input');
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
