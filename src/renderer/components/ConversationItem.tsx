import { memo, useRef, useState } from 'react';
import { Download, FileText, Pencil, Trash2 } from 'lucide-react';
import { CONVERSATION_TITLE_MAX_CHARS, type ConversationSummary } from '../../shared/ipc';
import { openConversation, useStore } from '../store';
import { renameConversation } from '../store/conversation-actions';
import { exportConversationFile } from '../store/export-import';
import { useFocusBack } from '../hooks/use-focus-back';
import { MarkedText } from './MarkedText';
import { ConversationMenu } from './ConversationMenu';
import { withDirectionControlsShown } from '../markdown/invisible-chars';
import { conversationKeyAction } from './conversation-list-keys';
import { editRenameField, renameFieldTitle, startRenameField, type RenameField } from './rename-field';

interface Props {
  conversation: ConversationSummary;
  active: boolean;
  /**
   * The row in the Tab order: the list is one Tab stop (Sidebar's roving tabindex), entered on this row's title,
   * then its own buttons; every other row is reached with the arrows (and its buttons then with Tab). A row shown
   * alone (no list around it) is in the Tab order.
   */
  tabStop?: boolean;
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
export const ConversationItem = memo(function ConversationItem({ conversation: c, active, tabStop = true, onDelete, onOpen }: Props) {
  const [field, setField] = useState<RenameField | null>(null);
  // Its own load failed (the read threw, or timed out): the row says so until a load works, so it does not read as
  // one that opens (it was clicked again and again with no hint; the notice said so once).
  const openFailed = useStore((s) => s.openFailed.includes(c.id));
  // Why the title in the field was not saved (a full disk): the field stays open with it, to save again or leave.
  const [refused, setRefused] = useState<string | null>(null);
  // One save at a time: Enter saves, and the click elsewhere that follows would blur the field into a second one.
  const saving = useRef(false);
  // A title the user typed may hold direction controls (a model's title has them dropped: title-lane.ts): marked in
  // the list, shown as code points in its tooltip and the buttons' names.
  const shown = withDirectionControlsShown(c.title);
  // Left with Enter or Escape, the focus comes back to the conversation (the field it was in is gone).
  const { target: button, armFocusBack } = useFocusBack<HTMLButtonElement>(field !== null);
  // The field shows the title with its direction controls as code points (rename-field.ts): an input can hold no
  // marker, and a raw right-to-left override reversed the rest of the title as the user edited it.
  const edit = () => setField(startRenameField(c.title));
  const close = () => {
    setField(null);
    setRefused(null);
  };
  const commit = async () => {
    if (field === null || saving.current) return;
    const saved = editedTitle(c.title, field);
    if (saved === null) return close();
    saving.current = true;
    const why = await renameConversation(c.id, saved).finally(() => (saving.current = false));
    if (why === null) close();
    else setRefused(why);
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
          aria-invalid={refused !== null}
          aria-describedby={refused === null ? undefined : `rename-refused-${c.id}`}
          onBlur={() => void commit()}
          onKeyDown={(e) => {
            // Keys an input method is composing with (Enter picks a conversion, Escape cancels it) are its own.
            if (e.nativeEvent.isComposing) return;
            if (e.key === 'Enter') {
              // Its default would go on to click the conversation the focus goes back to, opening it (and, on a
              // phone, closing the drawer; touch audit #3).
              e.preventDefault();
              armFocusBack();
              void commit();
            } else if (e.key === 'Escape') {
              e.preventDefault();
              armFocusBack();
              close();
            }
          }}
        />
        {refused !== null && (
          <p className="field-error rename-refused" id={`rename-refused-${c.id}`} role="alert" data-testid="rename-refused">
            {refused}
          </p>
        )}
      </li>
    );
  }
  const tabIndex = tabStop ? 0 : -1;
  const open = () => {
    void openConversation(c.id);
    onOpen?.();
  };
  return (
    <li className={['conversation-row', active ? 'active' : '', openFailed ? 'open-failed' : ''].filter(Boolean).join(' ')}>
      <button
        type="button"
        ref={button}
        className="conversation"
        data-testid="conversation-item"
        dir="auto"
        data-conversation-id={c.id}
        tabIndex={tabIndex}
        data-open-failed={openFailed ? 'true' : undefined}
        aria-current={active ? 'true' : undefined}
        aria-describedby={openFailed ? `open-failed-${c.id}` : undefined}
        onClick={open}
        onDoubleClick={edit}
        onKeyDown={(e) => {
          const action = conversationKeyAction(e);
          if (action === null) return;
          e.preventDefault();
          if (action === 'rename') edit();
          else onDelete();
        }}
        title={shown}
      >
        <MarkedText text={c.title} />
      </button>
      <span className="row-actions">
        <button type="button" className="icon-btn small" tabIndex={tabIndex} data-testid="conversation-rename" aria-label={`Rename ${shown}`} title="Rename" onClick={edit}>
          <Pencil className="icon" aria-hidden />
        </button>
        <button type="button" className="icon-btn small" tabIndex={tabIndex} data-testid="conversation-export" aria-label={`Export ${shown}`} title="Export (all branches and attachments)" onClick={() => void exportConversationFile(c.id, 'json')}>
          <Download className="icon" aria-hidden />
        </button>
        <button type="button" className="icon-btn small" tabIndex={tabIndex} data-testid="conversation-export-md" aria-label={`Export ${shown} as Markdown`} title="Export the current branch as Markdown" onClick={() => void exportConversationFile(c.id, 'markdown')}>
          <FileText className="icon" aria-hidden />
        </button>
        <button type="button" className="icon-btn small" tabIndex={tabIndex} data-testid="conversation-delete" aria-label={`Delete ${shown}`} title="Delete" onClick={onDelete}>
          <Trash2 className="icon" aria-hidden />
        </button>
      </span>
      {/* On a touch screen or a narrow window the four buttons above are hidden (layout.css), and this one More
          button holds them, so the title has the row. */}
      <ConversationMenu
        shown={shown}
        tabIndex={tabIndex}
        onChoose={(action) => {
          if (action === 'rename') edit();
          else if (action === 'delete') onDelete();
          else void exportConversationFile(c.id, action === 'export' ? 'json' : 'markdown');
        }}
      />
      {openFailed && (
        <button type="button" className="conversation-open-failed" tabIndex={tabIndex} id={`open-failed-${c.id}`} data-testid="conversation-open-failed" onClick={open}>
          Couldn’t open — retry
        </button>
      )}
    </li>
  );
});
