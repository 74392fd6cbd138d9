/**
 * Issue 9, faults: every row of fault-cases.ts, through the real services (createServices: dispatcher, chat
 * service, engine, leg, SQLite) against the replay server, once per dialect. Each fault must end in its
 * documented turn status with a message, never throw past the engine, and the NEXT message in the same
 * conversation must work normally. Prints a table of what each case ended in, for the closing note.
 */
import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { turnText, type Turn } from '../../../src/shared/turn';
import { createServices, type Services } from '../../../src/main/services';
import { startReplayServer, type ReplayRoute, type ReplayServer } from '../../replay-server/replay-server';
import { CASES } from '../engine/helpers';
import { FAULT_CASES, WIRES, type Expected, type FaultDialect } from './fault-cases';

// For the cases whose server truly stops: long enough that the bytes sent before the stop are read first on a
// busy machine (the limit counts from the response headers), short enough to keep the suite quick.
const STALL_MS = 1_500;
const rows: string[][] = [];

afterAll(() => {
  const head = ['dialect', 'fault', 'status', 'stop', 'message', 'next'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ');
  console.log(['', `fault cases: ${rows.length}`, line(head), widths.map((w) => '-'.repeat(w)).join('-|-'), ...rows.map(line)].join('\n'));
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

async function settle(s: Services, conversationId: string): Promise<Turn[]> {
  await expect.poll(() => s.chat.activeCount).toBe(0);
  return (await s.handlers['conversations:open']({ conversationId })).turns;
}

function check(turn: Turn, e: Expected): void {
  expect(turn.status).toBe(e.status);
  if (e.message) expect(turn.error ?? '').toMatch(e.message);
  else if (e.status !== 'done') expect((turn.error ?? '').length).toBeGreaterThan(10);
  const text = turnText(turn);
  if (typeof e.text === 'string') expect(text).toBe(e.text);
  else if (e.text) expect(e.text(text), `text (${text.length} chars): ${text.slice(0, 80)}`).toBe(true);
  const calls = turn.blocks.filter((b) => b.type === 'tool_call');
  if (e.toolCall === 'none') expect(calls).toEqual([]);
  if (e.toolCall === 'truncated') expect(calls.map((b) => b.type === 'tool_call' && b.state)).toEqual(['truncated']);
}

const short = (s: string, n = 96) => (s.length > n ? `${s.slice(0, n - 1)}…` : s).replace(/\s+/g, ' ');

const table = FAULT_CASES.flatMap((c) =>
  (Object.entries(c.expect) as [FaultDialect, Expected][]).map(([dialect, expected]) => ({ name: c.name, fault: c, dialect, expected })),
);

describe('faults end in their documented turn status, and the next message works', () => {
  it.each(table)('$dialect: $name', async ({ fault, dialect, expected }) => {
    const kit = CASES.find((x) => x.kind === dialect);
    if (!kit) throw new Error(`no engine case for ${dialect}`);
    const wire = WIRES[dialect];
    const dir = mkdtempSync(join(tmpdir(), 'firebrand-fault-'));
    const port = await freePort();
    const route = fault.route(wire, dialect);
    const base: ReplayRoute[] = [...kit.probes];
    const answer: ReplayRoute = { method: 'POST', path: kit.chatPath, body: wire.text(['All', ' good.']), chunk: 'lines' };
    let replay: ReplayServer | undefined =
      route === 'refused' ? undefined : await startReplayServer([...base, { method: 'POST', path: kit.chatPath, body: '', ...route }], port);
    const logs: string[] = [];
    const services = createServices({
      dataDir: dir,
      ollamaUrl: `http://127.0.0.1:${port}`,
      ...(fault.stalls ? { stallTimeoutMs: STALL_MS } : {}),
      log: (m) => logs.push(m),
      chat: { titles: false, retryDelayMs: 50, tools: kit.tools },
    });
    try {
      const connectionId =
        dialect === 'ollama' ? undefined : (await services.handlers['connections:save']({ kind: dialect, label: 'llama', baseUrl: `http://127.0.0.1:${port}` })).id;
      const via = connectionId ? { connectionId } : {};
      const first = await services.handlers['chat:send']({ conversationId: null, text: 'Weather in Paris?', model: 'm', ...via });
      const turns = await settle(services, first.conversationId);
      const faulted = turns.find((t) => t.id === first.assistantTurn.id);
      if (!faulted) throw new Error('the faulted turn is gone');
      // One request only: a failure after the request was sent is never retried, and no tool ran from a cut call.
      if (replay) expect(replay.requests.filter((r) => r.path === kit.chatPath)).toHaveLength(1);
      check(faulted, expected);
      expect(logs.filter((l) => l.includes('step failed'))).toEqual([]);

      if (!replay) replay = await startReplayServer([...base, answer], port);
      else replay.setRoutes([...base, answer]);
      let next = await services.handlers['chat:send']({ conversationId: first.conversationId, text: 'And now?', model: 'm', ...via });
      let refusal = '';
      if (expected.nextRefused) {
        const sentBefore = replay.requests.filter((r) => r.path === kit.chatPath).length;
        const refused = (await settle(services, next.conversationId)).find((t) => t.id === next.assistantTurn.id);
        expect(refused?.status).toBe('error');
        expect(refused?.error).toMatch(/^Nothing was sent: this conversation needs about \d+ tokens/);
        expect(replay.requests.filter((r) => r.path === kit.chatPath)).toHaveLength(sentBefore);
        refusal = 'refused (too long), new chat: ';
        next = await services.handlers['chat:send']({ conversationId: null, text: 'And now?', model: 'm', ...via });
      }
      const after = (await settle(services, next.conversationId)).find((t) => t.id === next.assistantTurn.id);
      expect(after?.status).toBe('done');
      expect(turnText(after as Turn)).toBe('All good.');
      rows.push([dialect, fault.name, faulted.status, faulted.stop ?? '-', short(faulted.error ?? `(${turnText(faulted).length} chars kept)`), `${refusal}${after?.status ?? '?'}`]);
    } finally {
      services.close();
      await replay?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
