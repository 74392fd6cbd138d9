import { describe, expect, it } from 'vitest';
import type { Turn } from '../../src/shared/turn';
import { clearLive, freshest, growsOnly, setLive } from '../../src/renderer/store/live-turns';

const turn = (text: string): Turn => ({ id: 'a1', conversationId: 'c', parentId: null, role: 'assistant', blocks: [{ type: 'text', text }], meta: {}, status: 'streaming', createdAt: 1 });
const text = (t: Turn) => (t.blocks[0] as { text: string }).text;

describe('live turns (a streaming answer ahead of the store)', () => {
  it("a view still holding the store's old copy after a publish shows the published text, never the older one", () => {
    const stored = turn('First.');
    const grown = turn('First. Second.');
    setLive(stored, grown);
    expect(text(freshest(stored))).toBe('First. Second.');
    // The store publishes the grown turn (a copy with one more token); a row may still be handed `stored`.
    const published = turn('First. Second. Third');
    clearLive('a1', stored, published, 1000);
    expect(text(freshest(stored))).toBe('First. Second. Third');
    expect(freshest(published)).toBe(published);
    // The next frame grows from the store's copy.
    const next = turn('First. Second. Third.');
    setLive(published, next);
    expect(freshest(published)).toBe(next);
  });

  it('a saved turn stands in for the old copy; a turn gone from the store leaves nothing behind', () => {
    const stored = turn('Partial');
    setLive(stored, turn('Partial answer'));
    const saved = { ...turn('Partial answer, saved.'), status: 'done' as const };
    clearLive('a1', stored, saved);
    expect(freshest(stored)).toBe(saved);
    clearLive('a1', null, null);
    expect(freshest(stored)).toBe(stored);
  });
});

describe("main's running count in the fast lane", () => {
  it('a frame of text with the count (a timing part) grows the turn in the fast lane, not the store', () => {
    const before: Turn = { id: 'g', conversationId: 'c', parentId: 'u', role: 'assistant', blocks: [{ type: 'text', text: 'The' }], meta: {}, status: 'streaming', createdAt: 0 };
    const after: Turn = { ...before, blocks: [{ type: 'text', text: 'The sky' }], meta: { timing: { reasoningBlockMs: [], tokens: 2 } } };
    expect(growsOnly(before, after, [{ type: 'text-delta', id: 't', delta: ' sky' }, { type: 'timing', timing: { reasoningBlockMs: [], tokens: 2 } }])).toBe(true);
  });
});
