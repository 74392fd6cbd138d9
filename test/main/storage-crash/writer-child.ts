/**
 * Child process for the crash test: streams an answer through the real store, reducer and TurnWriter until it
 * is killed. Prints `flushed <chars>` after each committed batch so the parent knows what must survive.
 */
import { writeSync } from 'node:fs';
import { join } from 'node:path';
import { TurnWriter } from '../../../src/main/engine/turn-writer';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { openDatabase } from '../../../src/main/db/open-database';
import { createTurnReducer } from '../../../src/shared/reducer';
import { turnText, type Turn } from '../../../src/shared/turn';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: writer-child.ts <dataDir>');
const db = openDatabase(join(dataDir, 'firebrand.db'));
const store = new ConversationStore(db);
const now = Date.now();
store.createConversation('c', 'Crash', 'm', now);
store.appendTurn({ id: 'u', conversationId: 'c', parentId: null, role: 'user', blocks: [{ type: 'text', text: 'Tell me a long story' }], meta: {}, status: 'done', createdAt: now }, now);
const answer: Turn = { id: 'a', conversationId: 'c', parentId: 'u', role: 'assistant', blocks: [], meta: {}, status: 'streaming', model: 'm', createdAt: now + 1 };
store.appendTurn(answer, now + 1);

const reducer = createTurnReducer(answer);
const writer = new TurnWriter((turn) => {
  store.updateTurn(turn);
  // Synchronous, so the line is out before the next write can start.
  writeSync(1, `flushed ${turnText(turn).length}\n`);
}, 50);
writer.update(reducer.apply({ type: 'text-start', id: 't' }));
let i = 0;
setInterval(() => {
  for (let k = 0; k < 20; k++) writer.update(reducer.apply({ type: 'text-delta', id: 't', delta: `tok${i++} ` }));
}, 1);
