/**
 * Round 8, engine #2: Ollama's Running panel is told of a model an answer loaded at the answer's first token. One
 * look per answer, not per batch of parts and not per step of an answer that calls tools; the next answer in the
 * same chat gets its own.
 */
import { describe, expect, it } from 'vitest';
import { lookAtAnswerStart } from '../../../src/main/models/answer-start-look';
import type { StreamPart } from '../../../src/shared/parts';
import type { Turn } from '../../../src/shared/turn';

const parts = (conversationId: string, turnId: string, ...p: StreamPart[]) => ({ conversationId, turnId, from: 0, parts: p });
const saved = (conversationId: string, stop: Turn['stop'], status: Turn['status'] = 'done'): { turn: Turn } => ({
  turn: { id: 't', conversationId, parentId: null, role: 'assistant', blocks: [], meta: {}, status, stop, createdAt: 1 } as Turn,
});

describe('the look at an answer’s start', () => {
  it('looks once per answer at its first token, tool steps included, and again for the next answer', () => {
    let looks = 0;
    const sink = lookAtAnswerStart(() => looks++);
    // An error before any token says nothing of what the server loaded.
    sink('chat:turn-parts', parts('c1', 'a1', { type: 'error', message: 'no' }));
    expect(looks).toBe(0);
    sink('chat:turn-parts', parts('c1', 'a1', { type: 'text-start', id: 'x' }, { type: 'text-delta', id: 'x', delta: 'Hi' }));
    sink('chat:turn-parts', { ...parts('c1', 'a1', { type: 'text-delta', id: 'x', delta: ' there' }), from: 2 });
    expect(looks).toBe(1);
    // The step asked for a tool: its next step is the same answer.
    sink('chat:turn-saved', saved('c1', 'tool_use'));
    sink('chat:turn-parts', parts('c1', 'a2', { type: 'text-start', id: 'y' }));
    expect(looks).toBe(1);
    // Another chat's answer meanwhile has its own look.
    sink('chat:turn-parts', parts('c2', 'b1', { type: 'reasoning-start', id: 'r', origin: 'native' }));
    expect(looks).toBe(2);
    sink('chat:turn-saved', saved('c1', 'end_turn'));
    sink('chat:turn-parts', parts('c1', 'a3', { type: 'text-start', id: 'z' }));
    expect(looks).toBe(3);
  });
});
