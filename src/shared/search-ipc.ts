/** What conversations:search answers (main's db/search.ts), carried by the IPC contract in ./ipc.ts. */

/** The longest search (only its first words are used). */
export const SEARCH_QUERY_MAX_CHARS = 1000;
/** Search results listed at first, and added by each "Show more"; at most SEARCH_RESULTS_MAX in all. */
export const SEARCH_PAGE = 30;
export const SEARCH_RESULTS_MAX = 600;

/**
 * One full-text search hit; `snippet` is plain text cut into pieces, the matched ones flagged (never HTML). A
 * conversation found by its title has no `turnId`, and its snippet is the title, marked.
 */
export interface SearchResult {
  conversationId: string;
  title: string;
  turnId: string | null;
  snippet: { text: string; match: boolean }[];
  /** Where the words were found, where not in the message's text: its reasoning, or a file it holds (the snippet is from there). */
  where?: { kind: 'reasoning' } | { kind: 'file'; name: string };
}

/** What a search found; `newest`: only that many of the newest messages were read (main's db/search.ts). */
export interface SearchReply {
  results: SearchResult[];
  newest?: number;
  /** More messages were found than the limit asked for: asked again with a larger one, the list goes on. */
  more?: true;
}
