/**
 * Child process for the crash test: a Firebrand (its services) whose answer called a tool that is still running
 * (a slow fetch, an MCP tool), until it is killed. The Ollama replay answers with a recorded tool call. Prints
 * `conversation <id>` once the tool has started.
 */
import { readFileSync, writeSync } from 'node:fs';
import { createServices } from '../../../src/main/services';
import { ToolRegistry } from '../../../src/main/tools/registry';
import { startReplayServer } from '../../replay-server/replay-server';
import { TAGS_BODY } from '../../replay-server/ollama-wire';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: tool-child.ts <dataDir>');
const toolCall = readFileSync(new URL('../../fixtures/ollama/tool-call-stop.ndjson', import.meta.url), 'utf8');
const replay = await startReplayServer([
  { path: '/api/tags', body: TAGS_BODY },
  { method: 'POST', path: '/api/show', body: '{"capabilities":["completion","tools"],"template":"{{ .Prompt }}"}' },
  { method: 'POST', path: '/api/chat', body: toolCall, chunk: 'lines', headers: { 'content-type': 'application/x-ndjson' } },
]);
let conversationId = '';
const slowTool = {
  schema: { name: 'get_current_weather', description: 'Get the current weather', parameters: { type: 'object', properties: { location: { type: 'string' }, format: { type: 'string' } }, required: ['location'] } },
  needsApproval: false,
  run: () => {
    writeSync(1, `conversation ${conversationId}\n`);
    return new Promise<never>(() => {});
  },
};
const services = createServices({ dataDir, ollamaUrl: replay.url, log: () => {}, chat: { titles: false, tools: new ToolRegistry([slowTool]) } });
const sent = await services.handlers['chat:send']({ conversationId: null, text: 'Weather in Paris?', model: 'm' });
conversationId = sent.conversationId;
