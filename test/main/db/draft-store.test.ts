/**
 * Drafts kept in main (migration 0018): what the user typed and attached and has not sent comes back after a quit,
 * and its files keep their bytes while the draft holds them. A new chat's Chat settings live with its draft (0019).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BlobStore } from '../../../src/main/blobs/blob-store';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { DraftStore } from '../../../src/main/db/draft-store';
import { memoryDb, tempDir, tick } from './helpers';
import { PNG, PNG2 } from '../blobs/fixtures';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function setup() {
  const { dir, cleanup } = tempDir('firebrand-drafts-');
  cleanups.push(cleanup);
  const db = memoryDb();
  return { db, drafts: new DraftStore(db), blobs: new BlobStore(db, dir), store: new ConversationStore(db) };
}

const HOUR = 60 * 60 * 1000;

describe('DraftStore', () => {
  it("keeps each conversation's draft and a new chat's, replaces one saved again, and drops one saved empty", async () => {
    const { drafts, blobs, store } = setup();
    store.createConversation('c1', 'One', null, tick());
    const image = await blobs.put(PNG, { name: 'pasted.png', mime: 'image/png' }, tick());
    expect(drafts.save('c1', 'Half a thought', [image], tick())).toBe(true);
    expect(drafts.save(null, 'A new question', [], tick())).toBe(true);
    expect(drafts.save('c1', 'Half a thought, longer', [image], tick())).toBe(true);
    expect(drafts.list()).toEqual([
      { conversationId: null, text: 'A new question', attachments: [] },
      { conversationId: 'c1', text: 'Half a thought, longer', attachments: [image] },
    ]);
    drafts.save(null, '', [], tick());
    drafts.clear('c1');
    expect(drafts.list()).toEqual([]);
  });

  it('keeps nothing for a conversation that is gone, and a conversation deleted takes its draft', () => {
    const { drafts, store } = setup();
    expect(drafts.save('deleted-meanwhile', 'Lost words', [], tick())).toBe(false);
    store.createConversation('c1', 'One', null, tick());
    drafts.save('c1', 'About to go', [], tick());
    store.deleteConversation('c1');
    expect(drafts.list()).toEqual([]);
  });

  it("keeps a draft's files past the collector's hour of grace, and lets them go with the draft", async () => {
    const { drafts, blobs, store } = setup();
    store.createConversation('c1', 'One', null, tick());
    const put = Date.now();
    const kept = await blobs.put(PNG, { name: 'kept.png', mime: 'image/png' }, put);
    const loose = await blobs.put(PNG2, { name: 'loose.png', mime: 'image/png' }, put);
    drafts.save('c1', '', [kept], put);
    // The next start's sweep, a day later: the file in no draft and no message goes; the draft's stays.
    expect((await blobs.gc({ now: put + 24 * HOUR })).removed).toEqual([loose.id]);
    expect(blobs.read(kept.id)).toBeDefined();
    // Nor does a deleted chat's release take it from a draft elsewhere that holds the same bytes.
    store.createConversation('c2', 'Two', null, tick());
    drafts.save('c2', 'Same picture', [kept], put);
    drafts.clear('c1');
    expect((await blobs.gc({ now: put + 25 * HOUR, released: { digests: [kept.id], before: put + 25 * HOUR } })).removed).toEqual([]);
    drafts.clear('c2');
    expect((await blobs.gc({ now: put + 26 * HOUR })).removed).toEqual([kept.id]);
  });

  // Context audit #8: the new chat's settings lived in the tab's sessionStorage, so after a quit its draft came back
  // without them (tools offered again, the system prompt gone).
  it("keeps a new chat's settings with its draft, through an emptied box, until its first message takes both", () => {
    const { drafts } = setup();
    const settings = { systemPrompt: 'Answer in haiku.', think: 'off' as const, tools: false };
    expect(drafts.saveNewChatSettings(settings, tick())).toBe(true);
    // Chosen before a word is typed: kept alone.
    expect(drafts.list()).toEqual([{ conversationId: null, text: '', attachments: [], settings }]);
    drafts.save(null, 'Write about rain', [], tick());
    expect(drafts.list()).toEqual([{ conversationId: null, text: 'Write about rain', attachments: [], settings }]);
    // The box emptied: the settings chosen stay.
    drafts.save(null, '', [], tick());
    expect(drafts.list()).toEqual([{ conversationId: null, text: '', attachments: [], settings }]);
    drafts.save(null, 'Write about snow', [], tick());
    // Sent: the draft and its settings go together.
    drafts.clear(null);
    expect(drafts.list()).toEqual([]);
  });

  it("forgets a new chat's settings set back to none, keeping its draft, and drops a row left with neither", () => {
    const { drafts } = setup();
    const blank = { systemPrompt: '  ', think: null, tools: true };
    drafts.saveNewChatSettings({ systemPrompt: '', think: null, tools: false }, tick());
    drafts.save(null, 'Still typing', [], tick());
    drafts.saveNewChatSettings(blank, tick());
    expect(drafts.list()).toEqual([{ conversationId: null, text: 'Still typing', attachments: [] }]);
    drafts.saveNewChatSettings({ systemPrompt: 'Be brief.', think: null, tools: true }, tick());
    drafts.save(null, '', [], tick());
    drafts.saveNewChatSettings(blank, tick());
    expect(drafts.list()).toEqual([]);
    expect(drafts.saveNewChatSettings(blank, tick())).toBe(true);
    expect(drafts.list()).toEqual([]);
  });

  it('reads damaged settings field by field, as the defaults where unreadable', () => {
    const { db, drafts } = setup();
    db.prepare(`INSERT INTO drafts (key, text, attachments, settings, updated_at) VALUES ('', 'Hi', '[]', '{"systemPrompt":"Kept","think":"loud","tools":"no"}', 1)`).run();
    expect(drafts.list()).toEqual([{ conversationId: null, text: 'Hi', attachments: [], settings: { systemPrompt: 'Kept', think: null, tools: true } }]);
    db.prepare(`UPDATE drafts SET settings = 'not json' WHERE key = ''`).run();
    expect(drafts.list()).toEqual([{ conversationId: null, text: 'Hi', attachments: [] }]);
  });
});
