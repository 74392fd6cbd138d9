/**
 * The several-tabs hunt: a chat deleted in one tab waits out that tab's undo window; a message written in it
 * meanwhile in another tab was deleted with it, answer and all, when the window ended. The page says what it listed
 * when the user deleted the chat, and main keeps a chat written in since.
 */
import { describe, expect, it } from 'vitest';
import { ollama, servicesSuite, settle } from './helpers';

const suite = servicesSuite(ollama());

describe('a delete after the undo window', () => {
  it('keeps a chat a message was written in after it was listed, and deletes one that was not', async () => {
    const t = suite.start();
    const h = t.services.handlers;
    const a = await h['chat:send']({ conversationId: null, text: 'First', model: 'llama3.2:3b' });
    await settle(t.services, a.conversationId);
    const listed = (await h['conversations:list']({})).find((c) => c.id === a.conversationId)!.updatedAt;
    // Deleted in one tab (listed as above); another tab writes in it before the undo window ends, a millisecond on.
    while (Date.now() <= listed) await new Promise((r) => setImmediate(r));
    await h['chat:send']({ conversationId: a.conversationId, text: 'A reply from the other tab', model: 'llama3.2:3b' });
    await settle(t.services, a.conversationId);

    expect(await h['conversations:delete']({ conversationId: a.conversationId, keepIfWrittenAfter: listed })).toEqual({ deleted: false, writtenSince: true });
    const kept = await h['conversations:open']({ conversationId: a.conversationId });
    expect(kept.turns.filter((turn) => turn.role === 'user').map((turn) => turn.blocks)).toContainEqual([{ type: 'text', text: 'A reply from the other tab' }]);

    // Listed again (the notice said so) and deleted again: nothing written since, it goes.
    const now = (await h['conversations:list']({})).find((c) => c.id === a.conversationId)!.updatedAt;
    expect(await h['conversations:delete']({ conversationId: a.conversationId, keepIfWrittenAfter: now })).toEqual({ deleted: true });
    // A page from before the check sends none: deleted as before.
    const b = await h['chat:send']({ conversationId: null, text: 'Second', model: 'llama3.2:3b' });
    await settle(t.services, b.conversationId);
    expect(await h['conversations:delete']({ conversationId: b.conversationId })).toEqual({ deleted: true });
  });
});
