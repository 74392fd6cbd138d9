/**
 * Read models the chat UI asks for: a conversation's active branch with the sibling switcher data, and search
 * hits cut into plain-text pieces. Kept out of the handlers so both carriers and the tests share them.
 */
import type { ConversationView, SearchResult, SiblingInfo } from '../../shared/ipc';
import type { ConversationStore } from '../db/conversation-store';
import { MATCH_END, MATCH_START, type SearchHit } from '../db/search';
import { UserFacingError } from '../errors';
import type { LiveTurns } from '../engine/live-turns';
import type { RunningTools } from '../engine/running-tools';

/**
 * Up to this many turns (a chat's first screenful, a page of older turns), their siblings are looked up by their
 * parents, an index look-up each; past it, all of the conversation's links are read at once (childrenByParent). For
 * a 2,000-turn chat, 12 look-ups took 0.2 ms and 100 took 1.2 ms, reading all of its links 4-5 ms.
 */
const WINDOW_SIBLINGS = 100;

/**
 * The active branch, or its last `tail` turns; with `before`, the turns older than that one (the last `tail` of
 * them): the renderer holds a window of a long chat and pages older turns in as the reader scrolls up. `now`: what
 * runs now (answers streaming, tool calls running), as the page should show it.
 */
export function conversationView(store: ConversationStore, conversationId: string, tail?: number, before?: string, now: { live?: LiveTurns; running?: RunningTools } = {}): ConversationView {
  const conversation = store.getConversation(conversationId);
  if (!conversation) throw new UserFacingError('not-found', 'That conversation no longer exists.');
  const { activeLeafId, ...summary } = conversation;
  // With `before`, what the reader holds from it on counts as sent: `partial` says whether older ones remain.
  const rest = { older: false };
  const stored = activeLeafId ? store.branch(activeLeafId, { tail, before }, rest) : [];
  // An answer still streaming as far as it has streamed, not as last written (live-turns.ts).
  const { turns, streamed } = now.live ? now.live.overlay(stored) : { turns: stored, streamed: {} };
  const toolsRunning = now.running?.of(conversationId) ?? [];
  const siblings: Record<string, SiblingInfo> = {};
  // A window's siblings by its turns' parents; a whole branch's in one read of the conversation.
  const children = turns.length <= WINDOW_SIBLINGS ? store.childrenOf(conversationId, turns.map((t) => t.parentId)) : store.childrenByParent(conversationId);
  for (const turn of turns) {
    const ids = children.get(turn.parentId) ?? [];
    if (ids.length > 1) siblings[turn.id] = { ids, index: ids.indexOf(turn.id) };
  }
  return {
    conversation: summary,
    turns,
    siblings,
    ...(rest.older ? { partial: true } : {}),
    ...(Object.keys(streamed).length > 0 ? { streamed } : {}),
    ...(toolsRunning.length > 0 ? { toolsRunning } : {}),
  };
}

/**
 * The snippet arrives with control-character markers around matches; the renderer gets pieces flagged as
 * matches instead, so it renders highlights as elements and never parses markup.
 */
export function toSearchResult(hit: SearchHit): SearchResult {
  const snippet: SearchResult['snippet'] = [];
  let rest = hit.snippet;
  while (rest.length > 0) {
    const start = rest.indexOf(MATCH_START);
    if (start < 0) {
      snippet.push({ text: rest, match: false });
      break;
    }
    if (start > 0) snippet.push({ text: rest.slice(0, start), match: false });
    const end = rest.indexOf(MATCH_END, start + 1);
    const stop = end < 0 ? rest.length : end;
    snippet.push({ text: rest.slice(start + 1, stop), match: true });
    rest = rest.slice(stop + 1);
  }
  const result: SearchResult = { conversationId: hit.conversationId, title: hit.title, turnId: hit.turnId, snippet };
  return hit.where ? { ...result, where: hit.where } : result;
}
