import { newChat, openConversation, useStore } from '../store';

export function Sidebar({ onOpenSettings }: { onOpenSettings: () => void }) {
  const conversations = useStore((s) => s.conversations);
  const activeId = useStore((s) => s.activeId);
  return (
    <nav className="sidebar" aria-label="Conversations">
      <button type="button" className="new-chat" data-testid="new-chat" onClick={newChat}>
        New chat
      </button>
      <ul className="conversation-list" data-testid="conversation-list">
        {conversations.map((c) => (
          <li key={c.id}>
            <button
              type="button"
              className={c.id === activeId ? 'conversation active' : 'conversation'}
              data-testid="conversation-item"
              aria-current={c.id === activeId ? 'true' : undefined}
              onClick={() => void openConversation(c.id)}
            >
              {c.title}
            </button>
          </li>
        ))}
      </ul>
      <button type="button" className="settings-button" data-testid="settings-open" onClick={onOpenSettings}>
        Settings
      </button>
    </nav>
  );
}
