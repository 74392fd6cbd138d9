/**
 * The conversation list a page at a time (issue 20): a history larger than any page is read whole by following
 * the cursor, in order, each conversation once, also where many were updated in the same millisecond (an import).
 */
import { describe, expect, it } from 'vitest';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { CONVERSATION_PAGE_DEFAULT, type ConversationSummary } from '../../../src/shared/ipc';
import { memoryDb } from './helpers';

function history(count: number): ConversationStore {
  const store = new ConversationStore(memoryDb());
  // Groups of seven share a time, as conversations imported together do.
  for (let i = 0; i < count; i++) store.createConversation(`c${String(i).padStart(4, '0')}`, `Chat ${i}`, 'm', 1_000 + Math.floor(i / 7));
  return store;
}

function readAll(store: ConversationStore, limit?: number): ConversationSummary[][] {
  const pages: ConversationSummary[][] = [];
  for (;;) {
    const last = pages.at(-1)?.at(-1);
    const page = store.listConversations({ ...(last ? { before: { updatedAt: last.updatedAt, id: last.id } } : {}), ...(limit ? { limit } : {}) });
    pages.push(page);
    if (page.length < (limit ?? CONVERSATION_PAGE_DEFAULT)) return pages;
  }
}

describe('the conversation list, a page at a time', () => {
  it('reads every conversation of a long history once, the most recently updated first, ties in id order', () => {
    const store = history(1_203);
    const pages = readAll(store, 50);
    expect(pages.map((p) => p.length)).toEqual([...Array(24).fill(50), 3]);
    const ids = pages.flat().map((c) => c.id);
    expect(new Set(ids).size).toBe(1_203);
    const expected = Array.from({ length: 1_203 }, (_, i) => ({ id: `c${String(i).padStart(4, '0')}`, at: 1_000 + Math.floor(i / 7) }))
      .sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1))
      .map((c) => c.id);
    expect(ids).toEqual(expected);
  });

  it('starts with a page of the default size, and a page ending on a tie goes on inside that tie', () => {
    const store = history(300);
    expect(store.listConversations()).toHaveLength(CONVERSATION_PAGE_DEFAULT);
    // 300 / 7: the first page of 3 ends inside the newest group of 6 (i = 294..299).
    const first = store.listConversations({ limit: 3 });
    expect(first.map((c) => c.id)).toEqual(['c0299', 'c0298', 'c0297']);
    const next = store.listConversations({ before: { updatedAt: first[2]!.updatedAt, id: first[2]!.id }, limit: 4 });
    expect(next.map((c) => c.id)).toEqual(['c0296', 'c0295', 'c0294', 'c0293']);
    expect(next[3]!.updatedAt).toBeLessThan(first[2]!.updatedAt);
  });

  it('moves a conversation that is updated to the first page', () => {
    const store = history(120);
    store.appendTurn({ id: 't-new', conversationId: 'c0000', parentId: null, role: 'user', blocks: [], meta: {}, status: 'done', createdAt: 9_999 }, 9_999);
    expect(store.listConversations({ limit: 1 })[0]).toMatchObject({ id: 'c0000' });
  });

  // Conversations audit D5: renaming the oldest chat moved it to the top, as if it had been written in.
  it('keeps a renamed conversation in its place', () => {
    const store = history(120);
    const before = store.listConversations({ limit: 200 }).map((c) => c.id);
    expect(store.renameConversation('c0000', 'Renamed')).toBe(true);
    const after = store.listConversations({ limit: 200 });
    expect(after.map((c) => c.id)).toEqual(before);
    expect(after.at(-1)).toMatchObject({ id: 'c0000', title: 'Renamed' });
  });
});
