#!/usr/bin/env node
// A tiny hand-written MCP stdio server for the fault tests (issue 19): it speaks just enough of the protocol
// (initialize, tools/list, tools/call) and misbehaves as its first argument says:
//   hang-calls     answers initialize and tools/list, never a tools/call (the per-call timeout)
//   hang-init      never answers anything (a server that hangs at start)
//   exit-at-start  says why on stderr and exits 3 before answering
//   garbage        prints lines that are not JSON-RPC to stdout, then behaves
//   not-mcp        prints an HTTP server's banner (in colour) to stdout and keeps running, never answering
//   binary         prints bytes that are not text to stdout and keeps running
//   usage-exit     prints its usage to stdout, an error line to stderr, and exits 2
//   stubborn       ignores SIGTERM and starts a child of its own that sleeps (process-group kill)
//   crash-once     exits 7 (after a line on stderr) at the first tools/call its log has seen; answers later ones
//   bad-image      answers a call with a text, an image whose data is not base64, and another text (as servers
//                  not built on the SDK can: nothing checks their results before they are sent)
// Every mode appends `pid <n>` (and `child <n>`) and each notification it receives to $SCRIPTED_LOG, one per line.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';

const mode = process.argv[2] ?? 'hang-calls';
const logFile = process.env.SCRIPTED_LOG;
const note = (line) => logFile && appendFileSync(logFile, `${line}\n`);
const readLog = () => (logFile && existsSync(logFile) ? readFileSync(logFile, 'utf8') : '');
note(`pid ${process.pid}`);

if (mode === 'exit-at-start') {
  process.stderr.write('fatal: MY_API_KEY is not set\n');
  process.exit(3);
}
if (mode === 'stubborn') {
  process.on('SIGTERM', () => note('sigterm ignored'));
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  note(`child ${child.pid}`);
}
if (mode === 'garbage') {
  process.stdout.write('Starting up... this is not JSON-RPC\n');
  process.stdout.write('{"almost": "json but not a message"}\n');
}
if (mode === 'not-mcp') {
  process.stdout.write('\x1b[32mweather-api v2.1\x1b[0m\n');
  process.stdout.write('Listening on http://localhost:3001/mcp\n');
  process.stdout.write('Press Ctrl+C to stop\n');
  process.stdout.write('(type help for commands)\n');
  setInterval(() => {}, 1000);
}
if (mode === 'binary') {
  process.stdout.write(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0xff, 0xfe, 0x00, 0x01, 0x0a]));
  setInterval(() => {}, 1000);
}
if (mode === 'usage-exit') {
  process.stdout.write('Usage: weather-server [--port N] [--verbose]\n');
  process.stdout.write('  --port N   the port to listen on\n');
  process.stderr.write('error: unknown option --stdio\n');
  process.exit(2);
}

const send = (msg) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...msg })}\n`);
const tools = [{ name: 'wait', description: 'Waits for a very long time.', inputSchema: { type: 'object', properties: { seconds: { type: 'number' } } } }];
let buffer = '';
process.stdin.on('data', (chunk) => {
  buffer += chunk.toString('utf8');
  for (let nl = buffer.indexOf('\n'); nl !== -1; nl = buffer.indexOf('\n')) {
    const line = buffer.slice(0, nl);
    buffer = buffer.slice(nl + 1);
    if (line.trim() === '') continue;
    const msg = JSON.parse(line);
    if (msg.id === undefined) {
      note(`notification ${msg.method} ${JSON.stringify(msg.params ?? {})}`);
      continue;
    }
    if (mode === 'hang-init' || mode === 'not-mcp' || mode === 'binary') continue;
    if (msg.method === 'initialize') {
      send({ id: msg.id, result: { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'scripted', version: '1' } } });
    } else if (msg.method === 'tools/list') {
      send({ id: msg.id, result: { tools } });
    } else if (msg.method === 'tools/call') {
      if (mode === 'crash-once' && !readLog().includes('crashed')) {
        note('crashed');
        process.stderr.write('about to crash hard\n');
        process.exit(7);
      }
      note(`call ${msg.params.name}`);
      if (mode === 'bad-image') {
        const content = [{ type: 'text', text: 'Here is the chart:' }, { type: 'image', data: '%%% not base64 %%%', mimeType: 'image/png' }, { type: 'text', text: 'Total: 42' }];
        send({ id: msg.id, result: { content } });
      } else if (mode !== 'hang-calls' && mode !== 'stubborn') send({ id: msg.id, result: { content: [{ type: 'text', text: 'done waiting' }] } });
    } else {
      send({ id: msg.id, error: { code: -32601, message: `no ${msg.method}` } });
    }
  }
});
// Stays alive while stdin is open (hang modes keep it so even after stdin ends).
process.stdin.on('end', () => {
  if (mode !== 'stubborn' && mode !== 'hang-init' && mode !== 'not-mcp' && mode !== 'binary') process.exit(0);
});
