import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { SEARCH_PAGE, SEARCH_RESULTS_MAX, type SearchReply, type SearchResult } from '../../shared/search-ipc';
import { useStore } from '../store';
import { offeredHits, searchConversations } from '../store/conversation-actions';
import { MarkedText } from './MarkedText';

/**
 * Search hits as the user types (debounced); matches are <mark> elements built from flagged pieces, never HTML.
 * A conversation deleted in the list is not offered while its undo window runs (main still has it): opened from
 * here, it was deleted under the reader (the audit's files #5). Nor once it is deleted for good (offeredHits).
 * The search runs again whenever the conversation list is read again (main said a conversation changed, in this
 * tab or another): a chat deleted in another tab was still offered, and a chat written there was not found.
 */
interface Props {
  query: string;
  onOpen: (hit: SearchResult) => void;
  /** How many results are offered, null while none is known (and once this is gone): for the live region. */
  onCount: (count: number | null) => void;
  /** ArrowUp on the first result: back to the search box. */
  onLeaveTop: () => void;
}

export function SearchResults({ query, onOpen, onCount, onLeaveTop }: Props) {
  const [found, setFound] = useState<SearchReply | null>(null);
  // How many messages are asked for: SEARCH_PAGE more at each "Show more", back to SEARCH_PAGE for a new query.
  const [asked, setAsked] = useState({ query, limit: SEARCH_PAGE });
  const limit = asked.query === query ? asked.limit : SEARCH_PAGE;
  const [loadingMore, setLoadingMore] = useState(false);
  // The first result "Show more" added gets the focus, so the keyboard goes on from where the list went on.
  const focusFrom = useRef<number | null>(null);
  const list = useRef<HTMLUListElement>(null);
  const hiddenConversations = useStore((s) => s.hiddenConversations);
  const deletedConversations = useStore((s) => s.deletedConversations);
  const conversations = useStore((s) => s.conversations);
  const results = found && offeredHits(found.results, { hiddenConversations, deletedConversations });
  // Only the newest messages were read (an emoji alone, or a word that very many messages hold): said, so that
  // "Nothing found" or a short list is not taken for every message read.
  const partial = found?.newest === undefined ? null : (
    <p className="search-newest" data-testid="search-newest">
      Searched the newest {found.newest.toLocaleString('en-US')} messages; older ones were not read.
    </p>
  );
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      void searchConversations(query, limit).then((r) => {
        if (!live) return;
        setFound(r);
        setLoadingMore(false);
      });
    }, 150);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [query, conversations, limit]);
  useEffect(() => {
    const at = focusFrom.current;
    if (at === null || loadingMore || !results) return;
    focusFrom.current = null;
    const buttons = list.current?.querySelectorAll<HTMLElement>('[data-testid="search-result"]');
    buttons?.[Math.min(at, buttons.length - 1)]?.focus();
  }, [loadingMore, results]);
  const showMore = () => {
    if (!results) return;
    focusFrom.current = results.length;
    setLoadingMore(true);
    setAsked({ query, limit: Math.min(limit + SEARCH_PAGE, SEARCH_RESULTS_MAX) });
  };
  const count = results === null ? null : results.length;
  useEffect(() => onCount(count), [count, onCount]);
  useEffect(() => () => onCount(null), [onCount]);
  if (results === null) return <p className="search-status">Searching…</p>;
  if (results.length === 0) {
    return (
      <>
        {partial}
        <p className="search-status" data-testid="search-empty">Nothing found.</p>
      </>
    );
  }
  return (
    <>
      {partial}
      <ul ref={list} className="search-results" data-testid="search-results" aria-label="Search results" onKeyDown={(e) => moveAmongResults(e, onLeaveTop)}>
        {results.map((r) => (
          <li key={r.turnId ?? `title:${r.conversationId}`}>
            <button type="button" className="search-result" data-testid="search-result" data-conversation-id={r.conversationId} onClick={() => onOpen(r)}>
              {r.turnId === null ? (
                // Found by its title: the title is the snippet, its words marked.
                <span className="search-title" dir="auto" data-testid="search-title-hit">
                  <SnippetPieces snippet={r.snippet} />
                </span>
              ) : (
                <>
                  <span className="search-title" dir="auto">
                    <MarkedText text={r.title} />
                  </span>
                  {r.where && (
                    // The snippet is from the answer's reasoning or an attached file, not the message's own text.
                    <span className="search-where" dir="auto" data-testid="search-where">
                      {r.where.kind === 'reasoning' ? 'in reasoning' : <>in <MarkedText text={r.where.name} /></>}
                    </span>
                  )}
                  <span className="search-snippet">
                    <SnippetPieces snippet={r.snippet} />
                  </span>
                </>
              )}
            </button>
          </li>
        ))}
      </ul>
      {found?.more && limit < SEARCH_RESULTS_MAX && (
        // More messages were found than listed: the next SEARCH_PAGE on asking, the first of them focused.
        <div className="search-more">
          <span className="search-more-count" data-testid="search-shown">
            {results.length.toLocaleString('en-US')} results shown
          </span>
          <button type="button" className="search-more-button" data-testid="search-more" onClick={showMore} disabled={loadingMore}>
            {loadingMore ? 'Loading more…' : 'Show more'}
          </button>
        </div>
      )}
    </>
  );
}

/** A snippet's pieces as text, the matched ones in <mark>. */
function SnippetPieces({ snippet }: { snippet: SearchResult['snippet'] }) {
  return snippet.map((piece, i) =>
    piece.match ? (
      <mark key={i}>
        <MarkedText text={piece.text} />
      </mark>
    ) : (
      <span key={i}>
        <MarkedText text={piece.text} />
      </span>
    ),
  );
}

/** ArrowDown and ArrowUp go from result to result (keyboard audit #3); Enter opens one (it is a button). */
function moveAmongResults(e: KeyboardEvent<HTMLUListElement>, onLeaveTop: () => void): void {
  if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
  const buttons = [...e.currentTarget.querySelectorAll<HTMLElement>('[data-testid="search-result"]')];
  const at = buttons.indexOf(document.activeElement as HTMLElement);
  if (at < 0) return;
  e.preventDefault();
  if (e.key === 'ArrowDown') buttons[Math.min(at + 1, buttons.length - 1)]?.focus();
  else if (at === 0) onLeaveTop();
  else buttons[at - 1]?.focus();
}
