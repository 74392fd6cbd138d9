import { describe, expect, it } from 'vitest';
import { toSearchResult } from '../../../src/main/chat/conversation-view';
import { MATCH_END, MATCH_START } from '../../../src/main/db/search';

describe('toSearchResult', () => {
  it('cuts the marked snippet into flagged plain-text pieces', () => {
    const hit = { conversationId: 'c', title: 'T', turnId: 't', rank: -1, snippet: `…lay eggs and ${MATCH_START}detect${MATCH_END} <b>fields</b> ${MATCH_START}x${MATCH_END}` };
    expect(toSearchResult(hit).snippet).toEqual([
      { text: '…lay eggs and ', match: false },
      { text: 'detect', match: true },
      { text: ' <b>fields</b> ', match: false },
      { text: 'x', match: true },
    ]);
  });

  it('keeps text after an unclosed marker as a match rather than dropping it', () => {
    expect(toSearchResult({ conversationId: 'c', title: 'T', turnId: 't', rank: 0, snippet: `a${MATCH_START}b` }).snippet).toEqual([
      { text: 'a', match: false },
      { text: 'b', match: true },
    ]);
  });
});
