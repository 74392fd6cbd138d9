/**
 * A paced Ollama in its own process: `node --import tsx bench/lib/stream-child.ts TOKENS RATE` answers every
 * `/api/chat` with TOKENS markdown tokens at RATE tokens/s and prints its URL. Kept out of the measuring process
 * so process.cpuUsage() there counts Firebrand's work only.
 */
import { markdownTokens } from './markdown-answer';
import { startPacedServer } from './paced-stream';

const server = await startPacedServer('');
server.setPlan({ tokens: markdownTokens(Number(process.argv[2])), rate: Number(process.argv[3]) });
console.log(`URL ${server.url}`);
process.on('SIGTERM', () => void server.close().finally(() => process.exit(0)));
