/**
 * The two chats the searches of reasoning and attached documents are tested on (search-beyond-text and its CJK
 * twin): c1, a message holding files and an answer with its reasoning; c2, a message holding a file.
 */
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { SearchStore } from '../../../src/main/db/search';
import type { SearchableText } from '../../../src/main/db/document-search';
import type { AttachmentBlock } from '../../../src/shared/turn';
import { makeTurn, memoryDb, text, tick } from './helpers';

export interface BeyondTextChats {
  c1: { title: string; message: string; files: AttachmentBlock[]; reasoning: string; answer: string };
  c2: { title: string; message: string; file: AttachmentBlock };
}

/** A database holding the chats (turns u1 and a1 in c1, u2 in c2), and a search that reads documents by `documentText`. */
export function beyondTextChats({ c1, c2 }: BeyondTextChats, documentText: SearchableText) {
  const db = memoryDb();
  const store = new ConversationStore(db);
  const search = new SearchStore(db, { documentText });
  store.createConversation('c1', c1.title, null, tick());
  store.appendTurn(makeTurn({ id: 'u1', conversationId: 'c1', blocks: [...text(c1.message), ...c1.files] }), tick());
  store.appendTurn(
    makeTurn({ id: 'a1', conversationId: 'c1', parentId: 'u1', role: 'assistant', blocks: [{ type: 'reasoning', text: c1.reasoning, origin: 'native' }, ...text(c1.answer)] }),
    tick(),
  );
  store.createConversation('c2', c2.title, null, tick());
  store.appendTurn(makeTurn({ id: 'u2', conversationId: 'c2', blocks: [...text(c2.message), c2.file] }), tick());
  return { db, store, search };
}

/** What a search found: each hit's turn, and where in it (its text, its reasoning, or the file's name). */
export const foundWhere = (search: SearchStore, q: string) => search.search(q).map((h) => [h.turnId, h.where?.kind === 'file' ? h.where.name : (h.where?.kind ?? 'text')]);
