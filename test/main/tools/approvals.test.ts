/**
 * Issue 15 item 12: tool approvals were keyed by the tool-call id alone, and ids repeat (Ollama's calls are
 * `call_0` in every chat), so two chats waiting at once wedged one of them. Now a decision names the
 * conversation, the turn and the call.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventChannel } from '../../../src/shared/ipc';
import { turnText, type Turn } from '../../../src/shared/turn';
import { createServices, type Services } from '../../../src/main/services';
import { ApprovalGate } from '../../../src/main/tools/approval-gate';
import { ToolRegistry } from '../../../src/main/tools/registry';
import type { Tool } from '../../../src/main/tools/types';
import { ollamaChatStream, TAGS_BODY } from '../../replay-server/ollama-wire';
import { startReplayServer, type ReplayRoute, type ReplayServer } from '../../replay-server/replay-server';

let replay: ReplayServer | undefined;
let services: Services | undefined;
let dir: string | undefined;
afterEach(async () => {
  services?.close();
  await replay?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  services = replay = dir = undefined;
});

const lookUp: Tool = {
  schema: { name: 'look_up', description: 'Looks something up', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } },
  needsApproval: true,
  run: (args) => Promise.resolve({ content: `found ${JSON.stringify(args)}`, isError: false }),
};

/** One Ollama line carrying a whole call (Ollama gives no id: the engine names it `call_0`), then `done`. */
function callLine(q: string): string {
  const call = { model: 'm', created_at: '2026-11-30T08:00:00Z', message: { role: 'assistant', content: '', tool_calls: [{ function: { name: 'look_up', arguments: { q } } }] }, done: false };
  const done = { model: 'm', created_at: '2026-11-30T08:00:00Z', message: { role: 'assistant', content: '' }, done_reason: 'stop', done: true };
  return `${JSON.stringify(call)}\n${JSON.stringify(done)}\n`;
}

describe('two chats waiting for approval at once', () => {
  it('each gets its own decision, though both calls are call_0', async () => {
    dir = mkdtempSync(join(tmpdir(), 'firebrand-approvals-'));
    const base: ReplayRoute[] = [
      { path: '/api/tags', body: TAGS_BODY },
      { method: 'POST', path: '/api/show', body: '{"capabilities":["completion","tools"]}' },
    ];
    const chat = (body: string): ReplayRoute => ({ method: 'POST', path: '/api/chat', body, chunk: 'lines' });
    replay = await startReplayServer([...base, chat(callLine('first'))]);
    const server = replay;
    // Each chat's first request gets a call; a request that carries a tool result gets the final answer.
    server.setOnRequest((req) => {
      if (req.path !== '/api/chat') return;
      const answer = req.body.includes('"role":"tool"') ? ollamaChatStream([`Answer for ${req.body.includes('apples') ? 'apples' : 'pears'}.`], 'm') : callLine(req.body.includes('apples') ? 'apples' : 'pears');
      server.setRoutes([...base, chat(answer)]);
    });
    services = createServices({ dataDir: dir, ollamaUrl: replay.url, log: () => {}, chat: { titles: false, tools: new ToolRegistry([lookUp]) } });
    const s = services;
    const events: { channel: EventChannel; payload: unknown }[] = [];
    s.hub.connect((channel, payload) => events.push({ channel, payload }));
    const pendingCard = (conversationId: string) =>
      events
        .map((e) => (e.payload as { turn?: Turn }).turn)
        .filter((t): t is Turn => t?.source === 'tool-approval' && t.conversationId === conversationId)
        .at(-1);

    const a = await s.handlers['chat:send']({ conversationId: null, text: 'apples', model: 'm' });
    await expect.poll(() => pendingCard(a.conversationId)?.meta['state'], { timeout: 15_000 }).toBe('pending');
    const b = await s.handlers['chat:send']({ conversationId: null, text: 'pears', model: 'm' });
    await expect.poll(() => pendingCard(b.conversationId)?.meta['state'], { timeout: 15_000 }).toBe('pending');
    const cardA = pendingCard(a.conversationId) as Turn;
    const cardB = pendingCard(b.conversationId) as Turn;
    expect([cardA.meta['toolCallId'], cardB.meta['toolCallId']]).toEqual(['call_0', 'call_0']);
    expect(cardA.meta['turnId']).not.toBe(cardB.meta['turnId']);

    const decide = (card: Turn, decision: 'allow-once' | 'deny') =>
      s.handlers['chat:approve-tool']({ conversationId: card.conversationId, turnId: String(card.meta['turnId']), toolCallId: 'call_0', decision });
    // A decision aimed at the wrong turn applies to nothing.
    expect(await s.handlers['chat:approve-tool']({ conversationId: a.conversationId, turnId: String(cardB.meta['turnId']), toolCallId: 'call_0', decision: 'allow-once' })).toEqual({ applied: false });
    expect(await decide(cardB, 'allow-once')).toEqual({ applied: true });
    expect(await decide(cardA, 'allow-once')).toEqual({ applied: true });
    await expect.poll(() => s.chat.activeCount, { timeout: 15_000 }).toBe(0);
    for (const [sent, word] of [[a, 'apples'], [b, 'pears']] as const) {
      const turns = (await s.handlers['conversations:open']({ conversationId: sent.conversationId })).turns;
      expect(turns.map((t) => t.source ?? t.role)).toEqual(['user', 'assistant', 'tool-approval', 'tool', 'assistant']);
      expect(turns[2]?.meta['state']).toBe('allowed');
      expect(turnText(turns[4] as Turn)).toBe(`Answer for ${word}.`);
    }
  });
});

describe('ApprovalGate', () => {
  it('keeps two waiting calls with the same id apart when their turns differ, even in one conversation', async () => {
    const gate = new ApprovalGate();
    const signal = new AbortController().signal;
    const first = gate.wait({ conversationId: 'c', turnId: 't1', toolCallId: 'call_0' }, 'look_up', signal);
    const second = gate.wait({ conversationId: 'c', turnId: 't2', toolCallId: 'call_0' }, 'look_up', signal);
    expect(gate.decide({ conversationId: 'c', turnId: 't2', toolCallId: 'call_0' }, 'deny')).toBe(true);
    expect(gate.decide({ conversationId: 'c', turnId: 't1', toolCallId: 'call_0' }, 'allow-once')).toBe(true);
    expect(await Promise.all([first, second])).toEqual([{ decision: 'allow-once' }, { decision: 'deny' }]);
    expect(gate.decide({ conversationId: 'c', turnId: 't1', toolCallId: 'call_0' }, 'deny')).toBe(false);
  });

  it('withdraws only the waits of the tools it is asked to, and those can no longer be decided', async () => {
    const gate = new ApprovalGate();
    const signal = new AbortController().signal;
    const gone = gate.wait({ conversationId: 'c', turnId: 't1', toolCallId: 'call_0' }, 'mcp\u0000s1\u0000read', signal);
    const kept = gate.wait({ conversationId: 'd', turnId: 't2', toolCallId: 'call_0' }, 'mcp\u0000s2\u0000read', signal);
    expect(gate.withdraw((key) => key.startsWith('mcp\u0000s1\u0000'), 'server-removed')).toBe(1);
    expect(await gone).toEqual({ withdrawn: 'server-removed' });
    expect(gate.decide({ conversationId: 'c', turnId: 't1', toolCallId: 'call_0' }, 'allow-once')).toBe(false);
    expect(gate.waitingIn('c')).toBe(false);
    expect(gate.waitingIn('d')).toBe(true);
    expect(gate.decide({ conversationId: 'd', turnId: 't2', toolCallId: 'call_0' }, 'allow-once')).toBe(true);
    expect(await kept).toEqual({ decision: 'allow-once' });
    // A withdrawn card allows nothing for the chat.
    expect(gate.isAllowed('c', 'mcp\u0000s1\u0000read')).toBe(false);
  });
});
