import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StreamPart } from '../../../src/shared/parts';
import { createTurnReducer } from '../../../src/shared/reducer';
import { turnText } from '../../../src/shared/turn';
import { TurnWriter } from '../../../src/main/engine/turn-writer';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { settleInterrupted } from '../../../src/main/db/settle-interrupted';
import { makeTurn, memoryDb, text, tick } from './helpers';

afterEach(() => vi.useRealTimers());

function seed() {
  const db = memoryDb();
  const store = new ConversationStore(db);
  store.createConversation('c', 'Stream', 'm', tick());
  store.appendTurn(makeTurn({ id: 'u', conversationId: 'c', blocks: text('go') }), tick());
  const answer = makeTurn({ id: 'a', conversationId: 'c', parentId: 'u', role: 'assistant', status: 'streaming' });
  store.appendTurn(answer, tick());
  return { db, store, answer };
}

describe('streaming writes', () => {
  it('batch a long stream into a bounded number of UPDATEs, then one final write', () => {
    vi.useFakeTimers();
    const { db, store, answer } = seed();
    let updates = 0;
    const writer = new TurnWriter((t) => {
      updates++;
      store.updateTurn(t);
    }, 500);
    const reducer = createTurnReducer(answer);
    // Count the UPDATEs that actually reach the turns table, whoever issues them.
    db.exec(`CREATE TEMP TABLE update_count (n INTEGER NOT NULL); INSERT INTO update_count VALUES (0);
      CREATE TEMP TRIGGER count_updates AFTER UPDATE ON turns BEGIN UPDATE update_count SET n = n + 1; END;`);
    writer.update(reducer.apply({ type: 'text-start', id: 't' }));
    // 5,000 tokens over 5 seconds: one per millisecond.
    for (let i = 0; i < 5000; i++) {
      writer.update(reducer.apply({ type: 'text-delta', id: 't', delta: `w${i} ` }));
      vi.advanceTimersByTime(1);
      if (i === 2600) expect(turnText(store.getTurn('a')!).length).toBeGreaterThan(0);
    }
    const parts: StreamPart[] = [{ type: 'text-end', id: 't' }, { type: 'finish', wireReason: 'stop', stop: 'end_turn' }];
    writer.finish(reducer.applyAll(parts));
    expect(updates).toBeLessThanOrEqual(5000 / 500 + 2);
    expect(updates).toBeGreaterThanOrEqual(10);
    const saved = store.getTurn('a')!;
    expect(saved.status).toBe('done');
    expect(turnText(saved).startsWith('w0 w1 ')).toBe(true);
    expect(turnText(saved)).toContain('w4999');
    expect(db.prepare('SELECT n FROM update_count').get()).toEqual({ n: updates });
  });

  it('on start, turns left streaming become interrupted and keep their partial text', () => {
    const { db, store, answer } = seed();
    store.updateTurn({ ...answer, blocks: text('half an ans') });
    expect(settleInterrupted(db, store, () => 'x', tick())).toBe(1);
    expect(store.getTurn('a')).toMatchObject({ status: 'interrupted', blocks: text('half an ans') });
    expect(store.getTurn('u')?.status).toBe('done');
    expect(settleInterrupted(db, store, () => 'y', tick())).toBe(0);
  });
});
