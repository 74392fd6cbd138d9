/**
 * Child process for the folder-lock test: a Firebrand (its services) running on a data folder, with an answer
 * streaming in its database, until it is killed. Prints `ready` once it holds the folder.
 */
import { writeSync } from 'node:fs';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { createServices } from '../../../src/main/services';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: holder-child.ts <dataDir>');
const services = createServices({ dataDir, log: () => {} });
const store = new ConversationStore(services.db);
const now = Date.now();
store.createConversation('c', 'Live', 'm', now);
store.appendTurn({ id: 'u', conversationId: 'c', parentId: null, role: 'user', blocks: [{ type: 'text', text: 'Go on' }], meta: {}, status: 'done', createdAt: now }, now);
store.appendTurn({ id: 'a', conversationId: 'c', parentId: 'u', role: 'assistant', blocks: [{ type: 'text', text: 'Still writing' }], meta: {}, status: 'streaming', model: 'm', createdAt: now + 1 }, now + 1);
writeSync(1, 'ready\n');
setInterval(() => {}, 60_000);
