import { useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { Download, Flame, Search, Settings, SquarePen, Upload, X } from 'lucide-react';
import { loadMoreConversations, newChat, openConversation, openConversationAt, useStore } from '../store';
import { deleteWaiting, deleteWithUndo, undoPendingDeletes } from '../store/conversation-actions';
import { ConversationItem } from './ConversationItem';
import { moveAmongConversations } from './conversation-list-keys';
import { ModelsLauncher } from './models/ModelsLauncher';
import { SearchResults } from './SearchResults';
import { exportAllConversations, importConversationFile } from '../store/export-import';
import { MarkedText } from './MarkedText';
import { keepTabInside } from './frame/focus-wrap';

interface Props {
  /** A drawer over the chat (narrow window) rather than a column. */
  drawer: boolean;
  open: boolean;
  onOpenSettings: () => void;
  /** Models opens (from its button, Ctrl+Shift+M or a banner): a drawer closes behind it, as for Settings. */
  onOpenModels: () => void;
  /** Where the focus goes when Models closes while its button is hidden in the closed drawer: true when it went. */
  focusPastDrawer: () => boolean;
  /** A conversation or a new chat was chosen (the drawer closes). */
  onNavigate: () => void;
  /** Escape or the close button of the drawer. */
  onClose: () => void;
}

/** Conversations by recency, full-text search over them, and the settings entry. */
export function Sidebar({ drawer, open, onOpenSettings, onOpenModels, focusPastDrawer, onNavigate, onClose }: Props) {
  const conversations = useStore((s) => s.conversations);
  const listEnd = useStore((s) => s.conversationsEnd);
  const list = useRef<HTMLUListElement>(null);
  const more = useRef<HTMLLIElement>(null);
  const hidden = useStore((s) => s.hiddenConversations);
  const activeId = useStore((s) => s.activeId);
  const importing = useStore((s) => s.importing);
  // Off while the list shows none (the last ones only hidden while their Undo is offered count as none).
  const noConversations = conversations.every((c) => hidden.includes(c.id));
  const [query, setQuery] = useState('');
  // The chats deleted and still waiting out the undo window, in the order deleted: one toast, one Undo for them all.
  const [deleted, setDeleted] = useState<{ id: string; title: string }[]>([]);
  const first = useRef<HTMLButtonElement>(null);
  const nav = useRef<HTMLElement>(null);
  const searchInput = useRef<HTMLInputElement>(null);
  const importInput = useRef<HTMLInputElement>(null);
  /**
   * The conversation focused last, and the chat open as it was: the list is one Tab stop (a roving tabindex), and
   * Tab comes back into it on that conversation while the same chat is open, else on the open one.
   */
  const [lastFocused, setLastFocused] = useState<{ id: string; whileOpen: string | null } | null>(null);
  /** How many results the search offers (null while none is known): said by the live region below. */
  const [resultCount, setResultCount] = useState<number | null>(null);

  useEffect(() => {
    // Each goes from the toast once deleted for good (or taken back by opening it).
    if (deleted.some((d) => !hidden.includes(d.id))) setDeleted(deleted.filter((d) => hidden.includes(d.id)));
  }, [hidden, deleted]);
  // An opened drawer takes the focus, so a keyboard user is in it (and Escape closes it); unless it was opened to
  // give the focus to something in it (Ctrl+K, the search box).
  useEffect(() => {
    if (drawer && open && !nav.current?.contains(document.activeElement)) first.current?.focus();
  }, [drawer, open]);

  // Import is disabled while its file comes in (so it cannot be imported twice), and a disabled control drops the
  // focus to <body>, where the next Tab started over at the top of the page. It comes back to Import once the file
  // is in or refused; a closed drawer gave it to its toggle already (onNavigate).
  const wasImporting = useRef(false);
  useEffect(() => {
    if (importing !== null) {
      wasImporting.current = true;
      return;
    }
    if (!wasImporting.current) return;
    wasImporting.current = false;
    const active = document.activeElement;
    if (open && (active === null || active === document.body)) importInput.current?.focus();
  }, [importing, open]);

  // Older conversations are read a page at a time as the end of the list comes near (conversation-list.ts). Observed
  // again whenever the list changes, so a page that leaves the end still in sight asks for the next one.
  useEffect(() => {
    const root = list.current;
    const target = more.current;
    if (!root || !target || listEnd) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) void loadMoreConversations();
    }, { root, rootMargin: '0px 0px 400px 0px' });
    observer.observe(target);
    return () => observer.disconnect();
  }, [conversations, listEnd, query]);

  // The open chat's row is scrolled into the list's sight when it opens, when the list first holds it and when the
  // drawer opens: an imported old chat is listed by its own last message, maybe far down (export audit #1: it was
  // open, and the list neither showed nor marked it).
  const activeHeld = activeId !== null && conversations.some((c) => c.id === activeId);
  useEffect(() => {
    if (open && activeHeld && activeId !== null && list.current) scrollRowIntoList(list.current, activeId);
  }, [activeId, activeHeld, open]);

  const visible = conversations.filter((c) => !hidden.includes(c.id));
  const tabStop = rovingStop(visible, activeId, lastFocused);
  return (
    <nav
      id="sidebar"
      className="sidebar"
      aria-label="Conversations"
      ref={nav}
      onKeyDown={(e) => {
        if (!drawer || !open || e.defaultPrevented || e.nativeEvent.isComposing) return;
        if (e.key === 'Escape') {
          e.preventDefault();
          onClose();
        } else if (nav.current) {
          // The open drawer is modal (the chat behind it is inert): Tab goes round inside it (keyboard audit #2).
          keepTabInside(nav.current, e);
        }
      }}
    >
      <div className="sidebar-head">
        <span className="brand">
          <Flame className="icon" aria-hidden />
          Firebrand
        </span>
        {drawer && (
          <button type="button" className="icon-btn" aria-label="Close the conversation list" onClick={onClose}>
            <X className="icon" aria-hidden />
          </button>
        )}
      </div>
      <button
        type="button"
        ref={first}
        className="new-chat"
        data-testid="new-chat"
        onClick={() => {
          newChat();
          onNavigate();
        }}
        title="New chat (Ctrl+N)"
      >
        <SquarePen className="icon" aria-hidden />
        New chat
      </button>
      <div className="search-box">
        <Search className="icon" aria-hidden />
        <input
          type="search"
          className="search-input"
          data-testid="search-input"
          aria-label="Search conversations"
          placeholder="Search (Ctrl+K)"
          ref={searchInput}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && query !== '' && !e.nativeEvent.isComposing) {
              e.preventDefault();
              setQuery('');
            } else if (e.key === 'ArrowDown' && !e.nativeEvent.isComposing) {
              // From the box down into the results, as in a list of suggestions (keyboard audit #3), or into the
              // conversations while it is empty.
              const firstResult = nav.current?.querySelector<HTMLElement>('[data-testid="search-result"], [data-testid="conversation-item"]');
              if (firstResult) {
                e.preventDefault();
                firstResult.focus();
              }
            }
          }}
        />
      </div>
      {/* Keyboard audit #3: a screen reader heard nothing of a search. Said once per count, not per keystroke: the
          text only changes when the count does. */}
      <p className="sr-only" role="status" data-testid="search-announcer">
        {query.trim() === '' ? '' : searchAnnouncement(resultCount)}
      </p>
      {query.trim() !== '' ? (
        <SearchResults
          query={query}
          onCount={setResultCount}
          onLeaveTop={() => searchInput.current?.focus()}
          onOpen={(hit) => {
            // Found by its title: the chat opens as from the list.
            void (hit.turnId === null ? openConversation(hit.conversationId) : openConversationAt(hit.conversationId, { turnId: hit.turnId, query }));
            onNavigate();
          }}
        />
      ) : (
        <>
          {visible.length > 0 && <p className="list-label">Conversations</p>}
          {/* One Tab stop (keyboard audit, 200 chats took hundreds of Tab presses to pass): Tab enters on one
              conversation and goes on to its own buttons, then out; the arrows go from row to row. */}
          <ul
            className="conversation-list"
            data-testid="conversation-list"
            aria-label="Conversations"
            aria-describedby="conversation-list-keys"
            ref={list}
            onKeyDown={(e) => moveAmongConversations(e, () => searchInput.current?.focus())}
            onFocus={(e) => {
              const id = rowOf(e.target);
              if (id !== null && (lastFocused?.id !== id || lastFocused.whileOpen !== activeId)) setLastFocused({ id, whileOpen: activeId });
            }}
          >
            {visible.map((c) => (
              <ConversationItem
                key={c.id}
                conversation={c}
                active={c.id === activeId}
                tabStop={c.id === tabStop}
                onOpen={onNavigate}
                onDelete={() => {
                  // The focus was on the row's Delete, which goes with it: it moves to the conversation that takes
                  // its place (else the one before, else New chat), not to <body>, where Tab starts over.
                  const at = visible.findIndex((v) => v.id === c.id);
                  const next = visible[at + 1] ?? visible[at - 1];
                  flushSync(() => {
                    deleteWithUndo(c.id);
                    // Not one already on its way to main (its window over): the toast's Undo could not bring it back.
                    setDeleted((was) => [...was.filter((d) => deleteWaiting(d.id)), { id: c.id, title: c.title }]);
                  });
                  const target = next ? list.current?.querySelector<HTMLElement>(`[data-testid="conversation-item"][data-conversation-id="${CSS.escape(next.id)}"]`) : null;
                  (target ?? first.current)?.focus();
                }}
              />
            ))}
            {!listEnd && conversations.length > 0 && (
              <li className="list-more" ref={more} data-testid="conversation-list-more">
                Older conversations…
              </li>
            )}
          </ul>
          <p className="sr-only" id="conversation-list-keys">
            Up and down arrows move between conversations, Home and End to the first and last; Tab goes on to the
            conversation's Rename, Export and Delete buttons (in a narrow window, its More menu). F2 renames it,
            Delete deletes it.
          </p>
          {visible.length === 0 && <p className="search-status">Your conversations will be listed here.</p>}
        </>
      )}
      {deleted.length > 0 && (
        <div className="undo-toast" role="status" data-testid="undo-toast">
          <span>
            {deleted.length === 1 ? (
              <>
                Deleted “<MarkedText text={deleted[0]!.title} />”
              </>
            ) : (
              `Deleted ${deleted.length} conversations`
            )}
          </span>
          <button
            type="button"
            className="small"
            data-testid="undo-delete"
            onClick={() => {
              // The toast goes with the undo: the focus goes to the conversation that came back (the first one, when
              // several did).
              let restored: string[] = [];
              flushSync(() => (restored = undoPendingDeletes()));
              const id = restored[0];
              if (id === undefined) return;
              list.current?.querySelector<HTMLElement>(`[data-testid="conversation-item"][data-conversation-id="${CSS.escape(id)}"]`)?.focus();
            }}
          >
            Undo
          </button>
        </div>
      )}
      {importing !== null && (
        <div className="undo-toast" role="status" data-testid="import-progress">
          <span>
            Importing “<MarkedText text={importing} />”…
          </span>
        </div>
      )}
      <div className="sidebar-actions">
        {/* A real file input inside the label (visually hidden, not display:none), so Tab reaches it. */}
        <label className="button import-button" title="Import a conversation, or every conversation of an Export all, from a Firebrand file">
          <Upload className="icon" aria-hidden />
          Import
          <input
            type="file"
            className="sr-only"
            accept=".json,application/json"
            ref={importInput}
            data-testid="conversation-import-input"
            aria-label="Import a conversation"
            disabled={importing !== null}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              // Then a narrow window's drawer closes, as when a conversation is chosen, on the chat it opened or on
              // the notice that says why it was refused (export audit #2: the drawer stayed open over both, so at
              // 390 px an import seemed to do nothing, and a refused one hid its reason and its Retry).
              if (file) void importConversationFile(file).then(onNavigate);
            }}
          />
        </label>
        {/* Every conversation in one file, which Import reads back whole (a backup, or a move to another machine). */}
        <button
          type="button"
          data-testid="conversations-export-all"
          disabled={noConversations}
          title={noConversations ? 'There are no conversations to export yet.' : 'Save every conversation, with its attachments, as one file that Import reads back'}
          onClick={() => void exportAllConversations()}
        >
          <Download className="icon" aria-hidden />
          Export all
        </button>
        <ModelsLauncher onOpen={onOpenModels} focusInstead={focusPastDrawer} />
        <button type="button" className="settings-button" data-testid="settings-open" onClick={onOpenSettings}>
          <Settings className="icon" aria-hidden />
          Settings
        </button>
      </div>
    </nav>
  );
}

/**
 * Scrolls the list (only the list: scrollIntoView would also scroll the page and the drawer it sits in) just far
 * enough that the conversation's row is in sight.
 */
function scrollRowIntoList(list: HTMLElement, id: string): void {
  const row = list.querySelector(`[data-testid="conversation-item"][data-conversation-id="${CSS.escape(id)}"]`);
  if (!row) return;
  const shown = list.getBoundingClientRect();
  const at = row.getBoundingClientRect();
  if (at.top < shown.top) list.scrollTop -= shown.top - at.top;
  else if (at.bottom > shown.bottom) list.scrollTop += at.bottom - shown.bottom;
}

/**
 * The conversation in the Tab order (a roving tabindex): the one focused last while the same chat is open, else
 * the open one, else the first. One the list no longer shows (deleted, hidden for its Undo) hands it on the same way.
 */
export function rovingStop(visible: readonly { id: string }[], activeId: string | null, lastFocused: { id: string; whileOpen: string | null } | null): string | null {
  const shown = (id: string | null | undefined) => id != null && visible.some((c) => c.id === id);
  if (lastFocused && lastFocused.whileOpen === activeId && shown(lastFocused.id)) return lastFocused.id;
  if (shown(activeId)) return activeId;
  return visible[0]?.id ?? null;
}

/** The conversation whose row holds `el` (its title or one of its buttons); null in a row being renamed. */
function rowOf(el: EventTarget): string | null {
  if (!(el instanceof Element)) return null;
  return el.closest('li')?.querySelector('[data-testid="conversation-item"]')?.getAttribute('data-conversation-id') ?? null;
}

/** What the search's live region says: nothing while the first results are on their way. */
export function searchAnnouncement(count: number | null): string {
  if (count === null) return '';
  if (count === 0) return 'Nothing found.';
  return count === 1 ? '1 result' : `${count} results`;
}
