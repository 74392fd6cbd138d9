import { X } from 'lucide-react';
import { create } from 'zustand';
import { Modal } from './Modal';

export const useShortcutsOverlay = create<{ open: boolean }>(() => ({ open: false }));

/** Keys pressed together; a row whose keys are alternatives ("↑ or ↓") says so with its third element. */
const SHORTCUTS: [string[], string, 'or'?][] = [
  [['Ctrl', 'N'], 'New chat'],
  [['Ctrl', 'K'], 'Search conversations'],
  [['Ctrl', 'Shift', 'M'], 'Models'],
  [['/'], 'Write a message'],
  [['Enter'], 'Send'],
  [['Shift', 'Enter'], 'New line in the message'],
  [['Ctrl', 'Enter'], 'Send, on a touch screen too (where Enter adds a line)'],
  [['Esc'], 'Stop the answer, close a dialog'],
  [['Tab'], 'Into the conversation list (on the open or last focused conversation), on to its buttons, then past the list'],
  [['↑', '↓'], 'In the conversation list: the previous or next conversation', 'or'],
  [['Home', 'End'], 'In the conversation list: the first or last conversation', 'or'],
  [['F2'], 'In the conversation list: rename the conversation'],
  [['Delete'], 'In the conversation list: delete the conversation (Undo brings it back)'],
  [['Cmd', 'Backspace'], 'In the conversation list on a Mac (⌘ + delete): delete the conversation, as in Finder'],
  [['Ctrl', '/'], 'This list, from anywhere (the message box too)'],
  [['?'], 'This list, outside a text field'],
];

/** Ctrl+/ anywhere, or `?` anywhere but a text field: the keyboard shortcuts (Cmd in place of Ctrl on a Mac). */
export function ShortcutsOverlay() {
  const open = useShortcutsOverlay((s) => s.open);
  if (!open) return null;
  const close = () => useShortcutsOverlay.setState({ open: false });
  return (
    <Modal label="Keyboard shortcuts" testId="shortcuts" onClose={close}>
      <div className="modal-head">
        <h2>Keyboard shortcuts</h2>
        <button type="button" className="icon-btn" aria-label="Close" onClick={close} autoFocus>
          <X className="icon" aria-hidden />
        </button>
      </div>
      <div className="modal-body">
        <table className="shortcut-table">
          <tbody>
            {SHORTCUTS.map(([keys, what, or]) => (
              <tr key={what}>
                <td>
                  {keys.map((k, i) => (
                    <span key={k}>
                      {i > 0 && (or ? ' or ' : ' + ')}
                      <kbd>{k}</kbd>
                    </span>
                  ))}
                </td>
                <td>{what}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="preview-note">On a Mac, Cmd works in place of Ctrl.</p>
      </div>
    </Modal>
  );
}
