import { memo, useState } from 'react';
import type { ConversationSummary } from '../../shared/ipc';
import { openConversation } from '../store';
import { renameConversation } from '../store/conversation-actions';
import { exportConversationFile } from '../store/export-import';

interface Props {
  conversation: ConversationSummary;
  active: boolean;
  onDelete: () => void;
}

/** One conversation in the list: open on click, rename in place, delete (with undo, by the list). */
export const ConversationItem = memo(function ConversationItem({ conversation: c, active, onDelete }: Props) {
  const [title, setTitle] = useState<string | null>(null);
  const commit = () => {
    if (title !== null && title.trim() !== '' && title !== c.title) void renameConversation(c.id, title);
    setTitle(null);
  };
  if (title !== null) {
    return (
      <li className="conversation-row editing">
        <input
          className="rename-input"
          data-testid="conversation-rename-input"
          aria-label="Conversation title"
          value={title}
          autoFocus
          onChange={(e) => setTitle(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key === 'Enter') commit();
            else if (e.key === 'Escape') setTitle(null);
          }}
        />
      </li>
    );
  }
  return (
    <li className={active ? 'conversation-row active' : 'conversation-row'}>
      <button
        type="button"
        className="conversation"
        data-testid="conversation-item"
        aria-current={active ? 'true' : undefined}
        onClick={() => void openConversation(c.id)}
        onDoubleClick={() => setTitle(c.title)}
        title={c.title}
      >
        {c.title}
      </button>
      <span className="row-actions">
        <button type="button" data-testid="conversation-rename" aria-label={`Rename ${c.title}`} title="Rename" onClick={() => setTitle(c.title)}>
          ✎
        </button>
        <button type="button" data-testid="conversation-export" aria-label={`Export ${c.title}`} title="Export (all branches and attachments)" onClick={() => void exportConversationFile(c.id, 'json')}>
          ⤓
        </button>
        <button type="button" data-testid="conversation-export-md" aria-label={`Export ${c.title} as Markdown`} title="Export the current branch as Markdown" onClick={() => void exportConversationFile(c.id, 'markdown')}>
          MD
        </button>
        <button type="button" data-testid="conversation-delete" aria-label={`Delete ${c.title}`} title="Delete" onClick={onDelete}>
          ×
        </button>
      </span>
    </li>
  );
});
