/**
 * A chat read while one of its tool calls runs (a page whose link to serve mode came back, a reload, another tab)
 * says the call runs, with its last progress: the page learns of calls from events only, and the ones sent while it
 * was away never reach it. Real server-everything from npm.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolProgress } from '../../../src/shared/mcp';
import { addServer, callAnswer, everything, MODEL, settled, stage, textAnswer, type Stage } from './helpers';

let st: Stage | undefined;
afterEach(async () => {
  await st?.close();
  st = undefined;
});

const progressOf = (s: Stage) => s.events.filter((e) => e.channel === 'chat:tool-progress').map((e) => e.payload as ToolProgress);

describe('a chat opened while a tool call runs', () => {
  it('names the call running, with its progress, and no longer once it ended', async () => {
    st = await stage();
    const s = st.services;
    const info = await addServer(s, everything());
    await s.handlers['mcp:set-tool']({ id: info.id, tool: 'trigger-long-running-operation', alwaysAllow: true });
    st.plan.push(callAnswer('trigger-long-running-operation', { duration: 600, steps: 600 }), textAnswer('Stopped.'));
    const sent = await s.handlers['chat:send']({ conversationId: null, text: 'Run the long job', model: MODEL });
    await expect.poll(() => progressOf(st as Stage).some((p) => p.state === 'running' && p.progress !== null)).toBe(true);

    const open = await s.handlers['conversations:open']({ conversationId: sent.conversationId });
    expect(open.toolsRunning).toHaveLength(1);
    expect(open.toolsRunning?.[0]).toMatchObject({ conversationId: sent.conversationId, turnId: sent.assistantTurn.id, state: 'running', total: 600 });
    expect(open.toolsRunning?.[0]?.toolCallId).toBe(open.turns.find((t) => t.id === sent.assistantTurn.id)?.blocks.find((b) => b.type === 'tool_call')?.id);

    await s.handlers['chat:stop']({ turnId: sent.assistantTurn.id });
    await settled(st, sent.conversationId);
    expect((await s.handlers['conversations:open']({ conversationId: sent.conversationId })).toolsRunning).toBeUndefined();
  });
});
