/**
 * A long chat's first screenful (bench/long-chat): the last turns whose height, estimated short, covers the window;
 * not more, since each row is rendered before the chat's first paint.
 */
import { describe, expect, it } from 'vitest';
import { FIRST_SCREEN_TURNS, firstScreenTurns } from '../../src/renderer/components/turn/use-first-screen';
import type { Turn } from '../../src/shared/turn';

const turn = (i: number, text: string): Turn => ({
  id: `t${i}`,
  conversationId: 'c',
  parentId: null,
  role: i % 2 === 0 ? 'user' : 'assistant',
  blocks: [{ type: 'text', text }],
  meta: {},
  status: 'done',
  createdAt: i,
});
const chat = (count: number, text: (i: number) => string) => Array.from({ length: count }, (_, i) => turn(i, text(i)));
const longAnswer = Array.from({ length: 60 }, (_, i) => `Line ${i} of a long answer.`).join('\n');

describe('firstScreenTurns', () => {
  it('shows the question with a last answer taller than the window, and nothing above them', () => {
    expect(firstScreenTurns(chat(100, (i) => (i % 2 ? longAnswer : 'A question?')), 800)).toBe(2);
  });

  it('takes more rows of short turns until they cover a taller window', () => {
    const short = chat(100, (i) => `Turn ${i}:\n\n- a point\n- another point\n- a last one`);
    const window800 = firstScreenTurns(short, 800);
    const window1400 = firstScreenTurns(short, 1400);
    expect(window800).toBeGreaterThan(2);
    expect(window1400).toBeGreaterThan(window800);
  });

  it('never takes more rows than the first answer from main holds, nor more turns than the chat has', () => {
    expect(firstScreenTurns(chat(100, () => 'ok'), 5000)).toBe(FIRST_SCREEN_TURNS);
    expect(firstScreenTurns(chat(3, () => 'ok'), 5000)).toBe(3);
  });

  it('counts a long line by how many lines it wraps to, and a block that is not text as one line', () => {
    const wrapped = chat(40, () => 'word '.repeat(1000));
    expect(firstScreenTurns(wrapped, 800)).toBe(2);
    const tools: Turn[] = chat(40, () => '').map((t) => ({ ...t, blocks: [{ type: 'reasoning', text: 'thinking '.repeat(500), origin: 'native' }] }) as Turn);
    expect(firstScreenTurns(tools, 800)).toBe(FIRST_SCREEN_TURNS);
  });
});
