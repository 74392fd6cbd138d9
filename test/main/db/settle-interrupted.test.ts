/**
 * Issue 13: after the app is killed mid-answer, nothing reloads as still happening: the streaming turn is
 * interrupted, a call it was writing ends truncated, and a pending approval's calls are answered as not run.
 */
import { describe, expect, it } from 'vitest';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { DISK_FULL_NOTE, settleAtStart } from '../../../src/main/db/left-open';
import { settleInterrupted } from '../../../src/main/db/settle-interrupted';
import { ToolRuns } from '../../../src/main/db/tool-runs';
import type { ToolCallBlock, ToolResultBlock, Turn } from '../../../src/shared/turn';
import { makeTurn, memoryDb, text, tick } from './helpers';

const call = (id: string, state: ToolCallBlock['state']): ToolCallBlock => ({ type: 'tool_call', id, name: 'fetch_url', state, argumentsRaw: '{"url": "http://x"}', ...(state === 'complete' ? { arguments: { url: 'http://x' } } : {}) });

function seed() {
  const db = memoryDb();
  const store = new ConversationStore(db);
  store.createConversation('c', 'Chat', 'm', tick());
  store.appendTurn(makeTurn({ id: 'u', conversationId: 'c', blocks: text('go') }), tick());
  return { db, store };
}

describe('settling what a killed app left open', () => {
  it('a turn cut mid-call reloads interrupted with the call truncated, not still being written', () => {
    const { db, store } = seed();
    store.appendTurn(makeTurn({ id: 'a', conversationId: 'c', parentId: 'u', role: 'assistant', status: 'streaming', blocks: [...text('Let me look.'), call('k1', 'streaming')] }), tick());
    expect(settleInterrupted(db, store, () => 'new', tick())).toBe(1);
    const a = store.getTurn('a');
    expect(a?.status).toBe('interrupted');
    expect(a?.blocks[1]).toMatchObject({ type: 'tool_call', state: 'truncated', error: expect.stringMatching(/closed before this call was complete; it was not run/) });
    expect(a?.blocks[0]).toEqual(text('Let me look.')[0]);
  });

  it('a pending approval says the app closed, and its call is answered as not run below it', () => {
    const { db, store } = seed();
    store.appendTurn(makeTurn({ id: 'a', conversationId: 'c', parentId: 'u', role: 'assistant', stop: 'tool_use', blocks: [call('k1', 'complete')] }), tick());
    store.appendTurn(makeTurn({ id: 'card', conversationId: 'c', parentId: 'a', role: 'system', source: 'tool-approval', meta: { toolCallId: 'k1', tool: 'fetch_url', state: 'pending' }, blocks: text('fetch_url wants to run') }), tick());
    settleInterrupted(db, store, () => 'tool', tick());
    expect(store.getTurn('card')?.meta).toMatchObject({ state: 'interrupted' });
    // Its stored line (search, export) no longer reads as waiting (tools audit #3).
    expect(store.getTurn('card')?.blocks).toEqual(text('fetch_url did not run: Firebrand closed while it waited for your approval: '));
    expect(store.getTurn('tool')).toMatchObject({ role: 'tool', parentId: 'card', blocks: [{ toolCallId: 'k1', isError: true, notRun: true }] });
    expect(store.getConversation('c')?.activeLeafId).toBe('tool');
    // Settled once: a second start finds nothing to do.
    settleInterrupted(db, store, () => 'again', tick());
    expect(store.getTurn('again')).toBeUndefined();
  });
});

describe('settling calls a killed app left without a result (durability audit)', () => {
  it('a step killed while its tools ran: each call is answered as having no result, and a second start does nothing', () => {
    const { db, store } = seed();
    store.appendTurn(makeTurn({ id: 'a', conversationId: 'c', parentId: 'u', role: 'assistant', stop: 'tool_use', blocks: [call('k1', 'complete'), call('k2', 'complete')] }), tick());
    new ToolRuns(db).begin('a', tick());
    settleInterrupted(db, store, () => 'tool', tick());
    expect(store.getTurn('tool')).toMatchObject({ role: 'tool', parentId: 'a', blocks: [{ toolCallId: 'k1', isError: true }, { toolCallId: 'k2', isError: true }] });
    const results = store.getTurn('tool')!.blocks as ToolResultBlock[];
    expect(results[0]?.content).toMatch(/Firebrand closed while this step’s tools were running; this call may have run/);
    // It may have run: not claimed as "not run"; its card says Stopped, as for a tool the user stopped.
    expect(results.some((r) => r.notRun)).toBe(false);
    expect(results.every((r) => r.stopped)).toBe(true);
    expect(store.getConversation('c')?.activeLeafId).toBe('tool');
    expect(new ToolRuns(db).left()).toEqual([]);
    settleInterrupted(db, store, () => 'again', tick());
    expect(store.getTurn('again')).toBeUndefined();
  });

  it('a step killed after an allowed approval, while the tool ran: answered below the card', () => {
    const { db, store } = seed();
    store.appendTurn(makeTurn({ id: 'a', conversationId: 'c', parentId: 'u', role: 'assistant', stop: 'tool_use', blocks: [call('k1', 'complete')] }), tick());
    new ToolRuns(db).begin('a', tick());
    store.appendTurn(makeTurn({ id: 'card', conversationId: 'c', parentId: 'a', role: 'system', source: 'tool-approval', meta: { toolCallId: 'k1', tool: 'fetch_url', state: 'allowed' }, blocks: text('fetch_url wants to run') }), tick());
    settleInterrupted(db, store, () => 'tool', tick());
    expect(store.getTurn('tool')).toMatchObject({ role: 'tool', parentId: 'card', blocks: [{ toolCallId: 'k1', isError: true }] });
  });

  it('a step whose tool turn was written just before the kill is left as it is', () => {
    const { db, store } = seed();
    store.appendTurn(makeTurn({ id: 'a', conversationId: 'c', parentId: 'u', role: 'assistant', stop: 'tool_use', blocks: [call('k1', 'complete')] }), tick());
    new ToolRuns(db).begin('a', tick());
    store.appendTurn(makeTurn({ id: 't', conversationId: 'c', parentId: 'a', role: 'tool', blocks: [{ type: 'tool_result', toolCallId: 'k1', name: 'fetch_url', content: 'page', isError: false }] }), tick());
    settleInterrupted(db, store, () => 'tool', tick());
    expect(store.getTurn('tool')).toBeUndefined();
    expect(new ToolRuns(db).left()).toEqual([]);
  });

  it('an answer killed after it wrote a whole call: the call is answered as not run (the tools never started)', () => {
    const { db, store } = seed();
    store.appendTurn(makeTurn({ id: 'a', conversationId: 'c', parentId: 'u', role: 'assistant', status: 'streaming', blocks: [...text('Checking.'), call('k1', 'complete')] }), tick());
    settleInterrupted(db, store, () => 'tool', tick());
    expect(store.getTurn('a')?.status).toBe('interrupted');
    expect(store.getTurn('tool')).toMatchObject({ role: 'tool', parentId: 'a', blocks: [{ toolCallId: 'k1', isError: true, notRun: true }] });
  });
});

// Tools audit #1: Ollama names every step's first call `call_0`; an earlier step's result for its own `call_0`
// was taken as the answer to the later call, which then waited for a result for good after a restart.
describe('settling in a chat whose earlier step already had a call with the same id', () => {
  function earlierStep() {
    const { db, store } = seed();
    store.appendTurn(makeTurn({ id: 'a1', conversationId: 'c', parentId: 'u', role: 'assistant', stop: 'tool_use', blocks: [call('call_0', 'complete')] }), tick());
    store.appendTurn(makeTurn({ id: 't1', conversationId: 'c', parentId: 'a1', role: 'tool', blocks: [{ type: 'tool_result', toolCallId: 'call_0', name: 'fetch_url', content: 'page', isError: false }] }), tick());
    store.appendTurn(makeTurn({ id: 'a2', conversationId: 'c', parentId: 't1', role: 'assistant', blocks: text('First done.') }), tick());
    store.appendTurn(makeTurn({ id: 'u2', conversationId: 'c', parentId: 'a2', blocks: text('again') }), tick());
    store.appendTurn(makeTurn({ id: 'a3', conversationId: 'c', parentId: 'u2', role: 'assistant', stop: 'tool_use', blocks: [call('call_0', 'complete')] }), tick());
    return { db, store };
  }

  it('a later call_0 whose tool was running is answered as having no result', () => {
    const { db, store } = earlierStep();
    new ToolRuns(db).begin('a3', tick());
    settleInterrupted(db, store, () => 'tool', tick());
    expect(store.getTurn('tool')).toMatchObject({ role: 'tool', parentId: 'a3', blocks: [{ toolCallId: 'call_0', isError: true, stopped: true }] });
    expect(store.getConversation('c')?.activeLeafId).toBe('tool');
  });

  it('a later call_0 that waited for approval is answered as not run', () => {
    const { db, store } = earlierStep();
    store.appendTurn(makeTurn({ id: 'card', conversationId: 'c', parentId: 'a3', role: 'system', source: 'tool-approval', meta: { toolCallId: 'call_0', tool: 'fetch_url', state: 'pending' }, blocks: text('fetch_url wants to run') }), tick());
    settleInterrupted(db, store, () => 'tool', tick());
    expect(store.getTurn('tool')).toMatchObject({ role: 'tool', parentId: 'card', blocks: [{ toolCallId: 'call_0', notRun: true, content: 'Not run: Firebrand closed while this call waited for your approval.' }] });
  });
});

describe('settling at startup on a full disk (durability audit)', () => {
  it('does not keep Firebrand from starting: logs why, and settles at a later start once there is room', () => {
    const { db, store } = seed();
    store.appendTurn(makeTurn({ id: 'a', conversationId: 'c', parentId: 'u', role: 'assistant', status: 'streaming', blocks: text('A long partial answer. '.repeat(2000)) }), tick());
    // The disk "fills": no page may be added (settling re-indexes the answer for search, which needs pages).
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    const logs: string[] = [];
    expect(settleAtStart({ db, store, newId: () => 'x', now: tick, log: (m) => logs.push(m) })).toBeDefined();
    expect(logs).toEqual(['storage: the disk is full, so what was streaming when Firebrand stopped is shown as interrupted but not saved so yet; it will be once there is room']);
    expect(store.getTurn('a')?.status).toBe('streaming');

    db.pragma('max_page_count = 1073741823');
    expect(settleAtStart({ db, store, newId: () => 'x', now: tick, log: (m) => logs.push(m) })).toBeUndefined();
    expect(store.getTurn('a')?.status).toBe('interrupted');
    expect(logs.at(-1)).toBe('storage: 1 answer(s) were streaming when Firebrand stopped; kept as interrupted');
  });

  // Round 6: such answers read as still streaming (spinner, Stop, no Continue) for the whole session, even once
  // the user had made room. They are shown interrupted, with why, and saved so as soon as there is room.
  it('what a full disk kept from being settled is shown interrupted with the reason, and saved once there is room', () => {
    const { db, store } = seed();
    store.appendTurn(makeTurn({ id: 'a', conversationId: 'c', parentId: 'u', role: 'assistant', status: 'streaming', blocks: [...text('A long partial answer. '.repeat(2000)), call('k1', 'streaming')] }), tick());
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    const changed: string[] = [];
    const saved: Turn[] = [];
    const owed = settleAtStart({ db, store, newId: () => 'tool', now: tick, log: () => {}, changed: (id) => changed.push(id), saved: (t) => saved.push(t) });
    expect(owed).toBeDefined();
    const shown = owed!.shown(store.getTurn('a')!);
    expect(shown).toMatchObject({ status: 'interrupted', error: DISK_FULL_NOTE });
    expect(shown?.blocks[1]).toMatchObject({ type: 'tool_call', state: 'truncated' });
    expect(shown?.blocks[0]).toEqual(store.getTurn('a')!.blocks[0]);
    expect(owed!.shown(store.getTurn('u')!)).toBeUndefined();

    // Still full: nothing lost, nothing half written, still owed.
    expect(owed!.retry()).toBe(false);
    expect(store.getTurn('a')?.status).toBe('streaming');
    // An answer this run streams meanwhile is its own: a later retry leaves it alone.
    db.pragma('max_page_count = 1073741823');
    store.appendTurn(makeTurn({ id: 'live', conversationId: 'c', parentId: 'u', role: 'assistant', status: 'streaming', blocks: text('Now') }), tick());
    expect(owed!.shown(store.getTurn('live')!)).toBeUndefined();

    expect(owed!.retry()).toBe(true);
    expect(store.getTurn('a')).toMatchObject({ status: 'interrupted', blocks: shown!.blocks });
    expect(store.getTurn('a')?.error).toBeUndefined();
    expect(store.getTurn('live')?.status).toBe('streaming');
    expect(owed!.shown(store.getTurn('a')!)).toBeUndefined();
    expect(owed!.owed).toBe(false);
    expect(changed).toEqual(['c']);
    // Pages holding it get it as saved: the note that it is not saved yet goes.
    expect(saved).toEqual([store.getTurn('a')]);
  });

  it('an approval card left pending is shown settled too, and saved with its call answered once there is room', () => {
    const { db, store } = seed();
    store.appendTurn(makeTurn({ id: 'a', conversationId: 'c', parentId: 'u', role: 'assistant', stop: 'tool_use', blocks: [...text('Fetching. '.repeat(3000)), call('k1', 'complete')] }), tick());
    store.appendTurn(makeTurn({ id: 'card', conversationId: 'c', parentId: 'a', role: 'system', source: 'tool-approval', meta: { toolCallId: 'k1', tool: 'fetch_url', call: 'http://x/ '.repeat(1000), state: 'pending' }, blocks: text('fetch_url wants to run '.repeat(500)) }), tick());
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    const owed = settleAtStart({ db, store, newId: () => 'tool', now: tick, log: () => {} });
    expect(owed).toBeDefined();
    expect(store.getTurn('card')?.meta).toMatchObject({ state: 'pending' });
    expect(owed!.shown(store.getTurn('card')!)?.meta).toMatchObject({ state: 'interrupted', toolCallId: 'k1' });

    db.pragma('max_page_count = 1073741823');
    expect(owed!.retry()).toBe(true);
    expect(store.getTurn('card')?.meta).toMatchObject({ state: 'interrupted' });
    expect(store.getTurn('tool')).toMatchObject({ role: 'tool', parentId: 'card', blocks: [{ toolCallId: 'k1', notRun: true }] });
    expect(owed!.shown(store.getTurn('card')!)).toBeUndefined();
  });
});
