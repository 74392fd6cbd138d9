import type { RefObject } from 'react';
import { PanelLeft, SquarePen } from 'lucide-react';
import { newChat, useStore } from '../../store';
import { MarkedText } from '../MarkedText';
import { withDirectionControlsShown } from '../../markdown/invisible-chars';

/** The bar over the chat: the sidebar toggle, the open conversation's title, and New chat while the sidebar is a drawer. */
export function Topbar({ toggleRef, sidebarShown, onToggle }: { toggleRef: RefObject<HTMLButtonElement | null>; sidebarShown: boolean; onToggle: () => void }) {
  const title = useStore((s) => s.conversations.find((c) => c.id === s.activeId)?.title ?? (s.activeId ? (s.activeTitle ?? '') : 'New chat'));
  return (
    <header className="topbar">
      <button
        type="button"
        ref={toggleRef}
        className="icon-btn"
        data-testid="sidebar-toggle"
        aria-controls="sidebar"
        aria-expanded={sidebarShown}
        aria-label={sidebarShown ? 'Hide the conversation list' : 'Show the conversation list'}
        title={sidebarShown ? 'Hide conversations' : 'Show conversations'}
        onClick={onToggle}
      >
        <PanelLeft className="icon" aria-hidden />
      </button>
      <h1 className="topbar-title" title={withDirectionControlsShown(title)} dir="auto">
        <MarkedText text={title} />
      </h1>
      <button type="button" className="icon-btn topbar-new" aria-label="New chat" title="New chat (Ctrl+N)" onClick={newChat}>
        <SquarePen className="icon" aria-hidden />
      </button>
    </header>
  );
}
