/**
 * Issue 19: a chat whose model calls tools over several steps gets `call_0` in every step (Ollama gives no ids;
 * the engine numbers them per answer). Keyed by call id alone, every card showed the last step's result; an
 * MCP tool that returned an image showed it on the wrong card. Answers are keyed by the calling turn.
 */
import { describe, expect, it } from 'vitest';
import type { Block, Turn } from '../../src/shared/turn';
import { answerKey, collectAnswers } from '../../src/renderer/components/turn/tool-answers';

const turn = (id: string, role: Turn['role'], blocks: Block[], source?: string): Turn => ({ id, conversationId: 'c', parentId: null, role, blocks, meta: {}, status: 'done', createdAt: 0, ...(source ? { source } : {}) });
const call = (id: string): Block => ({ type: 'tool_call', id, name: 'echo', state: 'complete', argumentsRaw: '{}', arguments: {} });
const result = (id: string, content: string): Block => ({ type: 'tool_result', toolCallId: id, name: 'echo', content, isError: false });
const image = (callId: string, digest: string): Block => ({ type: 'attachment', id: digest, kind: 'image', name: 'echo-1.png', mime: 'image/png', size: 10, toolCallId: callId });

describe('tool answers on a branch', () => {
  it('give each step its own result and images, though both calls are call_0', () => {
    const turns = [
      turn('u', 'user', [{ type: 'text', text: 'go' }]),
      turn('a1', 'assistant', [call('call_0')]),
      turn('card', 'system', [{ type: 'text', text: 'allowed' }], 'tool-approval'),
      turn('t1', 'tool', [result('call_0', 'first'), image('call_0', 'a'.repeat(64))]),
      turn('a2', 'assistant', [call('call_0')]),
      turn('t2', 'tool', [result('call_0', 'second')]),
      turn('a3', 'assistant', [{ type: 'text', text: 'done' }]),
    ];
    const { answers, shown } = collectAnswers(turns);
    expect(answers.get(answerKey('a1', 'call_0'))?.result?.content).toBe('first');
    expect(answers.get(answerKey('a1', 'call_0'))?.images.map((i) => i.id)).toEqual(['a'.repeat(64)]);
    expect(answers.get(answerKey('a2', 'call_0'))?.result?.content).toBe('second');
    expect(answers.get(answerKey('a2', 'call_0'))?.images).toEqual([]);
    // Tool turns show on their calls' cards: no rows of their own.
    expect(shown.map((t) => t.id)).toEqual(['u', 'a1', 'card', 'a2', 'a3']);
  });

  it('marks a call whose approval card still waits, and only that call', () => {
    const card = (state: string, callId: string): Turn => ({ ...turn(`card-${callId}`, 'system', [{ type: 'text', text: 'wants to run' }], 'tool-approval'), meta: { turnId: 'a1', toolCallId: callId, state } });
    const turns = [turn('u', 'user', [{ type: 'text', text: 'go' }]), turn('a1', 'assistant', [call('call_0'), call('call_1')]), card('allowed', 'call_0'), card('pending', 'call_1')];
    const { answers, shown } = collectAnswers(turns);
    expect(answers.get(answerKey('a1', 'call_0'))?.awaitingApproval).toBeUndefined();
    expect(answers.get(answerKey('a1', 'call_1'))?.awaitingApproval).toBe(true);
    expect(shown.map((t) => t.id)).toEqual(['u', 'a1', 'card-call_0', 'card-call_1']);
  });

  it('keeps a row for a tool turn whose call is not on the branch', () => {
    const turns = [turn('u', 'user', [{ type: 'text', text: 'go' }]), turn('t', 'tool', [result('call_9', 'orphan')])];
    expect(collectAnswers(turns).shown.map((t) => t.id)).toEqual(['u', 't']);
  });
});
