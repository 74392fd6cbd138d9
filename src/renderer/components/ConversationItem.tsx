import { memo, useState } from 'react';
import { Download, FileText, Pencil, Trash2 } from 'lucide-react';
import { CONVERSATION_TITLE_MAX_CHARS, type ConversationSummary } from '../../shared/ipc';
import { openConversation } from '../store';
import { renameConversation } from '../store/conversation-actions';
import { exportConversationFile } from '../store/export-import';
import { useFocusBack } from '../hooks/use-focus-back';
import { MarkedText } from './MarkedText';
import { withDirectionControlsShown } from '../markdown/invisible-chars';
import { editRenameField, renameFieldTitle, startRenameField, type RenameField } from './rename-field';

interface Props {
  conversation: ConversationSummary;
  active: boolean;
  onDelete: () => void;
  /** After it was opened (the drawer closes on a narrow window). */
  onOpen?: () => void;
}

/**
 * What a finished edit of `title` saves: null when nothing is to be saved (left blank, or not changed: the field
 * showed the title's direction controls as code points, and the title is kept exactly as it was, controls and all).
 */
export function editedTitle(title: string, field: RenameField): string | null {
  if (field.value.trim() === '') return null;
  const edited = renameFieldTitle(field);
  return edited === title ? null : edited;
}

/** One conversation in the list: open on click, rename in place, export, delete (with undo, by the list). */
export const ConversationItem = memo(function ConversationItem({ conversation: c, active, onDelete, onOpen }: Props) {
  const [field, setField] = useState<RenameField | null>(null);
  // A title the user typed may hold direction controls (a model's title has them dropped: title-lane.ts): marked in
  // the list, shown as code points in its tooltip and the buttons' names.
  const shown = withDirectionControlsShown(c.title);
  // Left with Enter or Escape, the focus comes back to the conversation (the field it was in is gone).
  const { target: button, armFocusBack } = useFocusBack<HTMLButtonElement>(field !== null);
  // The field shows the title with its direction controls as code points (rename-field.ts): an input can hold no
  // marker, and a raw right-to-left override reversed the rest of the title as the user edited it.
  const edit = () => setField(startRenameField(c.title));
  const commit = () => {
    const saved = field === null ? null : editedTitle(c.title, field);
    if (saved !== null) void renameConversation(c.id, saved);
    setField(null);
  };
  if (field !== null) {
    return (
      <li className="conversation-row editing">
        <input
          className="rename-input"
          dir="auto"
          data-testid="conversation-rename-input"
          aria-label="Conversation title"
          // A control shown as "[U+202E]" counts as the one character it saves.
          maxLength={CONVERSATION_TITLE_MAX_CHARS + field.value.length - renameFieldTitle(field).length}
          value={field.value}
          autoFocus
          onChange={(e) => setField(editRenameField(field, e.target.value, e.target.selectionEnd ?? undefined))}
          onBlur={commit}
          onKeyDown={(e) => {
            // Keys an input method is composing with (Enter picks a conversion, Escape cancels it) are its own.
            if (e.nativeEvent.isComposing) return;
            if (e.key === 'Enter') {
              // Its default would go on to click the conversation the focus goes back to, opening it (and, on a
              // phone, closing the drawer; touch audit #3).
              e.preventDefault();
              armFocusBack();
              commit();
            } else if (e.key === 'Escape') {
              e.preventDefault();
              armFocusBack();
              setField(null);
            }
          }}
        />
      </li>
    );
  }
  return (
    <li className={active ? 'conversation-row active' : 'conversation-row'}>
      <button
        type="button"
        ref={button}
        className="conversation"
        data-testid="conversation-item"
        dir="auto"
        data-conversation-id={c.id}
        aria-current={active ? 'true' : undefined}
        onClick={() => {
          void openConversation(c.id);
          onOpen?.();
        }}
        onDoubleClick={edit}
        title={shown}
      >
        <MarkedText text={c.title} />
      </button>
      <span className="row-actions">
        <button type="button" className="icon-btn small" data-testid="conversation-rename" aria-label={`Rename ${shown}`} title="Rename" onClick={edit}>
          <Pencil className="icon" aria-hidden />
        </button>
        <button type="button" className="icon-btn small" data-testid="conversation-export" aria-label={`Export ${shown}`} title="Export (all branches and attachments)" onClick={() => void exportConversationFile(c.id, 'json')}>
          <Download className="icon" aria-hidden />
        </button>
        <button type="button" className="icon-btn small" data-testid="conversation-export-md" aria-label={`Export ${shown} as Markdown`} title="Export the current branch as Markdown" onClick={() => void exportConversationFile(c.id, 'markdown')}>
          <FileText className="icon" aria-hidden />
        </button>
        <button type="button" className="icon-btn small" data-testid="conversation-delete" aria-label={`Delete ${shown}`} title="Delete" onClick={onDelete}>
          <Trash2 className="icon" aria-hidden />
        </button>
      </span>
    </li>
  );
});
