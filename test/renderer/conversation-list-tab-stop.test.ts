/**
 * The conversation list is one Tab stop (a roving tabindex, Sidebar.tsx): which conversation holds it.
 */
import { describe, expect, it } from 'vitest';
import { rovingStop } from '../../src/renderer/components/Sidebar';

const rows = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];

describe('the conversation in the Tab order', () => {
  it('is the one focused last while the same chat is open', () => {
    expect(rovingStop(rows, 'a', { id: 'c', whileOpen: 'a' })).toBe('c');
  });

  it('is the open one once another chat is opened since, or where none was focused', () => {
    expect(rovingStop(rows, 'b', { id: 'c', whileOpen: 'a' })).toBe('b');
    expect(rovingStop(rows, 'b', null)).toBe('b');
  });

  it('is handed on when the list no longer shows it (deleted, or hidden for its Undo), and is the first with none open', () => {
    expect(rovingStop([{ id: 'a' }, { id: 'b' }], 'a', { id: 'c', whileOpen: 'a' })).toBe('a');
    expect(rovingStop([{ id: 'b' }, { id: 'c' }], 'a', null)).toBe('b');
    expect(rovingStop(rows, null, null)).toBe('a');
    expect(rovingStop([], null, null)).toBeNull();
  });
});
