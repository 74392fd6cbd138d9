/**
 * A search that reads only the newest messages (an emoji alone, or a word such as "C++" that very many messages
 * hold: src/main/db/search.ts) said "Nothing found." as if every message had been read, where an older one held it.
 * The search channel now says how many of the newest it read, and the list says so (test/e2e/ui-conversations).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { createServices, type Services } from '../../../src/main/services';
import type { SearchReply } from '../../../src/shared/ipc';
import { makeTurn, tempDir, text, tick } from './helpers';

let services: Services | undefined;
let cleanup: (() => void) | undefined;
afterEach(() => {
  services?.close();
  cleanup?.();
  services = undefined;
});

describe('the search channel', () => {
  it('says how many of the newest messages it read when older ones went unread', async () => {
    const dir = tempDir('firebrand-search-newest-');
    cleanup = dir.cleanup;
    services = createServices({ dataDir: dir.dir, log: () => {}, search: { symbolScanRows: 3 } });
    const store = new ConversationStore(services.db);
    store.createConversation('old', 'Launch day', null, tick());
    store.appendTurn(makeTurn({ id: 'o1', conversationId: 'old', blocks: text('We launched 🚀 at dawn') }), tick());
    store.createConversation('new', 'Groceries', null, tick());
    for (let i = 0; i < 4; i++) store.appendTurn(makeTurn({ id: `n${i}`, conversationId: 'new', blocks: text(`Buy apples, item ${i}`) }), tick());

    const search = async (query: string) => (await services!.handlers['conversations:search']({ query })) as SearchReply;
    // The emoji is only in a message older than the newest 3: not found, and the reply says what was read.
    expect(await search('🚀')).toEqual({ results: [], newest: 3 });
    // A word the index answers reads every message: nothing to say.
    const apples = await search('apples');
    expect(apples.results.length).toBeGreaterThan(0);
    expect(apples.newest).toBeUndefined();
  });
});
