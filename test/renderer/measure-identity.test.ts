import { describe, expect, it } from 'vitest';
import type { Turn } from '../../src/shared/turn';
import { measureIdentity, measureStandsFor, turnsSince, type MeasureInput } from '../../src/renderer/store/context-room';

const turn = (id: string, role: Turn['role'], status: Turn['status'] = 'done'): Turn => ({ id, conversationId: 'c', parentId: null, role, blocks: [{ type: 'text', text: id }], meta: {}, status, createdAt: 1 });

// Left over from the first-hour audit: a chat answered by another model is opened, the meter's measure is asked at
// once, and the model's window comes after it. A message sent before the window came streamed its whole answer with
// the meter at the turns' characters alone (no system prompt, no tools): the measure no longer stood for the chat.
describe('the meter’s measure of a chat just opened', () => {
  const opened: MeasureInput = { conversationId: 'c', model: 'qwen3:8b', connection: 'ollama', turns: [turn('u1', 'user'), turn('a1', 'assistant')], window: 4096, systemPrompt: 'Be brief.', tools: 'tools:' };

  it('still stands for the turns it counted once the model’s window comes, a message sent meanwhile', () => {
    const asked = measureIdentity(opened);
    const base = { conversationId: 'c', tipId: 'a1', scope: asked.scope };
    const sent = [...opened.turns, turn('u2', 'user'), turn('a2', 'assistant', 'streaming')];
    const after = measureIdentity({ ...opened, turns: sent, window: 16_384 });
    // Asked again once idle (the window is in the key), and meanwhile the measure plus the turns after its tip.
    expect(after.key).not.toBe(asked.key);
    expect(turnsSince(sent, base, 'c', after.scope)?.map((t) => t.id)).toEqual(['u2', 'a2']);
  });

  it('stands no longer once what the request carries changes (another model, system prompt or tools)', () => {
    const asked = measureIdentity(opened);
    const base = { conversationId: 'c', tipId: 'a1', scope: asked.scope };
    for (const change of [{ model: 'llama3.2:3b' }, { systemPrompt: 'Answer in French.' }, { tools: 'no-tools' }]) {
      expect(turnsSince(opened.turns, base, 'c', measureIdentity({ ...opened, ...change }).scope)).toBeNull();
    }
  });
});

// Found against a real llama-server: a chat measured at 1,736 tokens (tool definitions 1,424, the turns 312) read
// 106 while a regenerated answer streamed, and came back to 1,742 when it ended. The new answer (or an edited
// message) takes the measured tip off the branch, and the meter fell to the turns' characters alone.
describe('the meter while a regenerated or edited message is answered', () => {
  const chat: MeasureInput = { conversationId: 'c', model: 'scripted-rich', connection: 'llama', turns: [turn('u1', 'user'), turn('a1', 'assistant')], window: 4096, systemPrompt: '', tools: 'tools:' };
  const { scope } = measureIdentity(chat);
  const measure = { value: { tokens: 1736, counted: 'server' as const, window: 4096, parts: { tools: 1424, earlier: 312 } }, base: { conversationId: 'c', tipId: 'a1', scope } };

  it('still counts the tool definitions, with the whole branch estimated, when the answer is regenerated', () => {
    const regenerated = [turn('u1', 'user'), turn('a1b', 'assistant', 'streaming')];
    const stands = measureStandsFor(regenerated, measure, 'c', scope);
    expect(stands?.tokens).toBe(1424);
    expect(stands?.turns.map((t) => t.id)).toEqual(['u1', 'a1b']);
  });

  it('and when an edited message is sent in place of the first', () => {
    const edited = [turn('u1b', 'user'), turn('a2', 'assistant', 'streaming')];
    expect(measureStandsFor(edited, measure, 'c', scope)?.tokens).toBe(1424);
  });

  it('counts all it measured where its tip is still on the branch, and nothing for another model or chat', () => {
    const next = [...chat.turns, turn('u2', 'user'), turn('a3', 'assistant', 'streaming')];
    expect(measureStandsFor(next, measure, 'c', scope)).toEqual({ tokens: 1736, turns: next.slice(2) });
    expect(measureStandsFor(next, measure, 'other', scope)).toBeNull();
    expect(measureStandsFor(next, measure, 'c', measureIdentity({ ...chat, model: 'other' }).scope)).toBeNull();
  });
});
