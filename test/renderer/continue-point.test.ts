/**
 * Round 6: an answer cut while it held a complete tool call lost Continue, because the tool turn saying the call
 * never ran came after it. Continue stays on the branch's last answer, and only there.
 */
import { describe, expect, it } from 'vitest';
import { isContinuePoint } from '../../src/renderer/components/turn/continue-point';
import type { Turn, ToolResultBlock } from '../../src/shared/turn';

const turn = (id: string, role: Turn['role'], parentId: string | null, extra: Partial<Turn> = {}): Turn => ({ id, conversationId: 'c', parentId, role, blocks: [], meta: {}, status: 'done', createdAt: 1, ...extra });
const result = (extra: Partial<ToolResultBlock> = {}): ToolResultBlock => ({ type: 'tool_result', toolCallId: 'k1', name: 'fetch_url', content: 'Not run: Firebrand closed before the answer that made this call had ended.', isError: true, notRun: true, ...extra });

describe('isContinuePoint', () => {
  it('is the last turn, or an answer followed only by tool turns saying its calls never ran', () => {
    const cut = turn('a', 'assistant', 'u', { status: 'interrupted' });
    expect(isContinuePoint([turn('u', 'user', null), cut], 'a')).toBe(true);
    expect(isContinuePoint([turn('u', 'user', null), cut, turn('t', 'tool', 'a', { blocks: [result(), result({ toolCallId: 'k2' })] })], 'a')).toBe(true);
  });

  it('is not an answer whose calls ran (a result, a failure, a call stopped while it ran), nor one with a later turn', () => {
    const turns = (blocks: ToolResultBlock[]) => [turn('u', 'user', null), turn('a', 'assistant', 'u'), turn('t', 'tool', 'a', { blocks })];
    expect(isContinuePoint(turns([result({ notRun: undefined, isError: false, content: 'page' })]), 'a')).toBe(false);
    expect(isContinuePoint(turns([result(), result({ notRun: undefined, stopped: true })]), 'a')).toBe(false);
    expect(isContinuePoint([turn('u', 'user', null), turn('a', 'assistant', 'u'), turn('u2', 'user', 'a')], 'a')).toBe(false);
    expect(isContinuePoint([turn('u', 'user', null), turn('a', 'assistant', 'u'), turn('t', 'tool', 'a', { blocks: [result()] }), turn('a2', 'assistant', 't')], 'a')).toBe(false);
    expect(isContinuePoint([turn('u', 'user', null)], 'gone')).toBe(false);
  });
});
