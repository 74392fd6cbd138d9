import { describe, expect, it } from 'vitest';
import type { Turn } from '../../src/shared/turn';
import { stopLabel } from '../../src/renderer/components/turn/AssistantTurn';

const answer = (stop: string): Turn => ({ id: 'a', conversationId: 'c', parentId: 'u', role: 'assistant', blocks: [{ type: 'text', text: 'Counting sheep' }], meta: {}, status: 'done', stop, createdAt: 1 });

describe('stopLabel', () => {
  it('tells a full context window from the token limit: the way on differs (room, not a higher limit)', () => {
    expect(stopLabel(answer('context_full'))).toBe('Stopped: the context window is full');
    expect(stopLabel(answer('max_tokens'))).toBe('Stopped at the token limit');
    expect(stopLabel(answer('end_turn'))).toBeNull();
  });

  it('says the window filled when a "length" stop left the conversation filling it (context audit #7)', () => {
    expect(stopLabel(answer('max_tokens'), true)).toBe('Stopped: the context window is full');
    expect(stopLabel(answer('end_turn'), true)).toBeNull();
    expect(stopLabel(answer('aborted'), true)).toBe('Stopped');
  });
});
