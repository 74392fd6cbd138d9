import { describe, it, expect } from 'vitest';
import { finalAssistantText, lastAssistantText } from '../../src/shared/assistant-text';
import { turnOutput } from '../../src/shared/reasoning/drain';
import type { Block, Turn } from '../../src/shared/turn';
import { makeTurn } from './helpers';

const text = (t: string): Block => ({ type: 'text', text: t });
const native = (t: string): Block => ({ type: 'reasoning', text: t, origin: 'native' });
const inline = (t: string): Block => ({ type: 'reasoning', text: t, origin: 'inline' });
const call: Block = { type: 'tool_call', id: 'c', name: 'f', state: 'complete', argumentsRaw: '{}', arguments: {} };

describe('turnOutput', () => {
  it('gives runs in stream order, skipping empty ones, and appends inline reasoning after native with a blank line', () => {
    const out = turnOutput(makeTurn([native('server'), text('A'), call, inline('tags'), text(''), text('B')]));
    expect(out).toEqual({
      reasoning: 'server\n\ntags',
      content: 'AB',
      runs: [
        { kind: 'reasoning', text: 'server' },
        { kind: 'text', text: 'A' },
        { kind: 'reasoning', text: 'tags' },
        { kind: 'text', text: 'B' },
      ],
    });
  });

  it('uses one side alone when the other is blank, and blanks whitespace-only strings', () => {
    expect(turnOutput(makeTurn([native(' '), inline('tags')])).reasoning).toBe('tags');
    expect(turnOutput(makeTurn([native('server'), inline('\n')])).reasoning).toBe('server');
    expect(turnOutput(makeTurn([text(' \n ')])).content).toBe('');
  });
});

describe('finalAssistantText / lastAssistantText', () => {
  const user = (t: string): Turn => makeTurn([text(t)], { role: 'user' });
  const asst = (...blocks: Block[]): Turn => makeTurn(blocks);

  it('finalAssistantText reads the last assistant turn only, blank as ""', () => {
    expect(finalAssistantText([user('q'), asst(text('narration')), asst(call), makeTurn([text('r')], { role: 'tool' }), asst(text('Final.'))])).toBe('Final.');
    expect(finalAssistantText([asst(text('earlier answer')), asst(call)])).toBe('');
    expect(finalAssistantText([asst(text('earlier answer')), asst(inline('only thinking'), text('\n'))])).toBe('');
    expect(finalAssistantText([user('q')])).toBe('');
  });

  it('lastAssistantText walks back past tool-call-only, reasoning-only and blank turns', () => {
    const turns = [asst(text('Partial work.')), asst(call), asst(native('hm')), asst(text('  \n')), user('later question')];
    expect(lastAssistantText(turns)).toBe('Partial work.');
    expect(lastAssistantText([asst(call), user('q')])).toBe('');
  });
});
