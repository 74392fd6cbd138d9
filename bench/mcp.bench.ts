/**
 * MCP: one tool call's round trip through Firebrand (the tool as the engine runs it: registry, server host, the
 * SDK client over the process-group transport, result conversion) against its floor, the SDK client alone with
 * its own stdio transport, calling the same tool of the same server (server-everything's `echo`) in the same run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { openDatabase } from '../src/main/db/open-database';
import { McpManager } from '../src/main/mcp/mcp-manager';
import { FileSecretStore } from '../src/main/secrets/secret-store';
import { percentile, quick, report } from './lib/report';

const EVERYTHING = resolve(import.meta.dirname, '../node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const CALLS = quick ? 100 : 1000;
const dir = mkdtempSync(join(tmpdir(), 'firebrand-bench-mcp-'));
const db = openDatabase(join(dir, 'firebrand.db'));
const manager = new McpManager({ db, secrets: new FileSecretStore(join(dir, 'secrets.json')), emit: () => {}, newId: () => 'bench', now: Date.now });
const saved = manager.store.save({ name: 'everything', transport: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] }, () => 'bench');
await manager.host(saved.id).start();
const tool = manager.provider.tools([]).find((t) => t.schema.name === 'echo');
if (!tool) throw new Error('echo was not offered');
// Each answer has its own stop signal in the app (one per run): so does each call here.
const ctx = () => ({ conversationId: 'c', history: [], signal: new AbortController().signal, readBlob: () => undefined, now: Date.now });

const sdk = new Client({ name: 'bench-floor', version: '0' });
await sdk.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], stderr: 'ignore' }));

const firebrandMs: number[] = [];
const floorMs: number[] = [];
for (let i = 0; i < CALLS + 20; i++) {
  const message = `call ${i}`;
  // Alternated, so both see the same machine load; the first 20 of each warm up the JIT and are not counted.
  let t = performance.now();
  const out = await tool.run({ message }, ctx());
  const a = performance.now() - t;
  if (out.content !== `Echo: ${message}`) throw new Error(`Firebrand got ${out.content}`);
  t = performance.now();
  const res = await sdk.callTool({ name: 'echo', arguments: { message } });
  const b = performance.now() - t;
  if (JSON.stringify(res.content) !== JSON.stringify([{ type: 'text', text: `Echo: ${message}` }])) throw new Error('the SDK got something else');
  if (i >= 20) {
    firebrandMs.push(a);
    floorMs.push(b);
  }
}
await sdk.close();
await manager.close();
db.close();
rmSync(dir, { recursive: true, force: true });

const p50 = percentile([...firebrandMs].sort((x, y) => x - y), 50);
const floorP50 = percentile([...floorMs].sort((x, y) => x - y), 50);
const ratio = p50 / floorP50;
report({
  figure: `MCP call round trip, echo on server-everything (p50 of ${CALLS})`,
  value: Number(p50.toFixed(3)),
  unit: 'ms',
  floor: Number(floorP50.toFixed(3)),
  ratio: Number(ratio.toFixed(2)),
  goal: '<= 1.5x the SDK client alone',
  met: ratio <= 1.5,
});
