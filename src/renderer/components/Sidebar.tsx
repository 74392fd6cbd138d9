import { useEffect, useState } from 'react';
import { newChat, openConversation, useStore } from '../store';
import { deleteWithUndo, undoDelete } from '../store/conversation-actions';
import { ConversationItem } from './ConversationItem';
import { ModelsLauncher } from './models/ModelsLauncher';
import { SearchResults } from './SearchResults';
import { importConversationFile } from '../store/export-import';

/** Conversations by recency, full-text search over them, and the settings entry. */
export function Sidebar({ onOpenSettings }: { onOpenSettings: () => void }) {
  const conversations = useStore((s) => s.conversations);
  const hidden = useStore((s) => s.hiddenConversations);
  const activeId = useStore((s) => s.activeId);
  const [query, setQuery] = useState('');
  const [lastDeleted, setLastDeleted] = useState<{ id: string; title: string } | null>(null);

  useEffect(() => {
    if (lastDeleted && !hidden.includes(lastDeleted.id)) setLastDeleted(null);
  }, [hidden, lastDeleted]);

  const visible = conversations.filter((c) => !hidden.includes(c.id));
  return (
    <nav className="sidebar" aria-label="Conversations">
      <button type="button" className="new-chat" data-testid="new-chat" onClick={newChat} title="New chat (Ctrl+N)">
        New chat
      </button>
      <input
        type="search"
        className="search-input"
        data-testid="search-input"
        aria-label="Search conversations"
        placeholder="Search (Ctrl+K)"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') setQuery('');
        }}
      />
      {query.trim() !== '' ? (
        <SearchResults query={query} onOpen={(id) => void openConversation(id)} />
      ) : (
        <ul className="conversation-list" data-testid="conversation-list">
          {visible.map((c) => (
            <ConversationItem
              key={c.id}
              conversation={c}
              active={c.id === activeId}
              onDelete={() => {
                deleteWithUndo(c.id);
                setLastDeleted({ id: c.id, title: c.title });
              }}
            />
          ))}
        </ul>
      )}
      {lastDeleted && (
        <div className="undo-toast" role="status" data-testid="undo-toast">
          <span>Deleted “{lastDeleted.title}”</span>
          <button type="button" data-testid="undo-delete" onClick={() => undoDelete(lastDeleted.id)}>
            Undo
          </button>
        </div>
      )}
      <div className="sidebar-actions">
        <label className="import-button" title="Import a conversation exported from Firebrand">
          Import
          <input
            type="file"
            accept=".json,application/json"
            data-testid="conversation-import-input"
            hidden
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) void importConversationFile(file);
            }}
          />
        </label>
        <ModelsLauncher />
        <button type="button" className="settings-button" data-testid="settings-open" onClick={onOpenSettings}>
          Settings
        </button>
      </div>
    </nav>
  );
}
