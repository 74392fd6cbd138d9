import { X } from 'lucide-react';
import { create } from 'zustand';
import { Modal } from './Modal';

export const useShortcutsOverlay = create<{ open: boolean }>(() => ({ open: false }));

const SHORTCUTS: [string[], string][] = [
  [['Ctrl', 'N'], 'New chat'],
  [['Ctrl', 'K'], 'Search conversations'],
  [['Ctrl', 'Shift', 'M'], 'Models'],
  [['/'], 'Write a message'],
  [['Enter'], 'Send'],
  [['Shift', 'Enter'], 'New line in the message'],
  [['Ctrl', 'Enter'], 'Send, on a touch screen too (where Enter adds a line)'],
  [['Esc'], 'Stop the answer, close a dialog'],
  [['?'], 'This list'],
];

/** `?` anywhere but a text field: the keyboard shortcuts (Cmd in place of Ctrl on a Mac). */
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
            {SHORTCUTS.map(([keys, what]) => (
              <tr key={what}>
                <td>
                  {keys.map((k, i) => (
                    <span key={k}>
                      {i > 0 && ' + '}
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
