import { describe, expect, it } from 'vitest';
import type { Turn } from '../../src/shared/turn';
import { blankAnswerLine } from '../../src/renderer/components/turn/blank-answer';
import { announcement } from '../../src/renderer/components/frame/announcement';

const answer = (blocks: Turn['blocks'], over: Partial<Turn> = {}): Turn => ({ id: 'a', conversationId: 'c', parentId: 'u', role: 'assistant', blocks, meta: {}, status: 'done', stop: 'end_turn', createdAt: 1, ...over });

describe('a blank answer says so (builtin audit #6: only the footer showed)', () => {
  it('names a 0-token answer and one that only reasoned', () => {
    expect(blankAnswerLine(answer([]))).toBe('The model wrote no answer.');
    expect(blankAnswerLine(answer([{ type: 'text', text: ' \n ' }]))).toBe('The model wrote no answer.');
    expect(blankAnswerLine(answer([{ type: 'reasoning', text: 'The user asks about the weather and I keep wondering', origin: 'inline' }]))).toBe('The model wrote no answer, only reasoning.');
  });

  it('says nothing of an answer with text, a tool step, one still streaming, or one whose stop has its own words', () => {
    expect(blankAnswerLine(answer([{ type: 'text', text: 'Sunny.' }]))).toBeNull();
    expect(blankAnswerLine(answer([{ type: 'tool_call', id: 't', name: 'current_datetime', state: 'complete', argumentsRaw: '{}' }], { stop: 'tool_use' }))).toBeNull();
    expect(blankAnswerLine(answer([], { status: 'streaming', stop: undefined }))).toBeNull();
    expect(blankAnswerLine(answer([], { status: 'aborted', stop: 'aborted' }))).toBeNull();
    expect(blankAnswerLine(answer([], { stop: 'max_tokens' }))).toBeNull();
  });

  it('is what the announcer says in place of the text', () => {
    const t = answer([{ type: 'reasoning', text: 'hmm', origin: 'inline' }]);
    expect(announcement('', 'done', 'thinker.gguf', undefined, blankAnswerLine(t) ?? undefined)).toBe('thinker.gguf: The model wrote no answer, only reasoning.');
  });
});
