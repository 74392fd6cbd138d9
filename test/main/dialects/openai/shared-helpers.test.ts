import { describe, expect, it } from 'vitest';
import { deriveStop } from '../../../../src/main/dialects/shared/derive-stop';
import { validateToolArguments, validateToolCall } from '../../../../src/main/dialects/shared/tool-args';
import type { ToolSchema } from '../../../../src/main/dialects/types';

const weather: ToolSchema = {
  name: 'get_weather',
  description: 'Get the weather',
  parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { enum: ['c', 'f'] } }, required: ['city'], additionalProperties: false },
};

describe('deriveStop (DESIGN.md §3 order)', () => {
  const base = { wireReason: 'stop', sawTerminal: true, errored: false, blocks: [] };
  it('error frame wins over everything', () => {
    expect(deriveStop({ ...base, errored: true, blocks: [{ kind: 'tool_call', state: 'complete' }] })).toBe('error');
  });
  it('no terminal frame is cut, even with a complete call', () => {
    expect(deriveStop({ ...base, sawTerminal: false, blocks: [{ kind: 'tool_call', state: 'complete' }] })).toBe('cut');
  });
  it('any complete tool call is tool_use whatever the wire said', () => {
    expect(deriveStop({ ...base, blocks: [{ kind: 'tool_call', state: 'complete' }] })).toBe('tool_use');
    expect(deriveStop({ ...base, wireReason: 'length', blocks: [{ kind: 'tool_call', state: 'complete' }, { kind: 'tool_call', state: 'open' }] })).toBe('tool_use');
  });
  it('clean end with every block closed is end_turn; with one open is truncated', () => {
    for (const wireReason of ['stop', 'end_turn', 'stop_sequence']) expect(deriveStop({ ...base, wireReason })).toBe('end_turn');
    expect(deriveStop({ ...base, blocks: [{ kind: 'tool_call', state: 'open' }] })).toBe('truncated');
    expect(deriveStop({ ...base, wireReason: 'end_turn', blocks: [{ kind: 'text', state: 'open' }] })).toBe('truncated');
    expect(deriveStop({ ...base, blocks: [{ kind: 'tool_call', state: 'invalid' }] })).toBe('end_turn');
  });
  it('length/max_tokens is max_tokens; anything else passes through', () => {
    expect(deriveStop({ ...base, wireReason: 'length', blocks: [{ kind: 'tool_call', state: 'open' }] })).toBe('max_tokens');
    expect(deriveStop({ ...base, wireReason: 'max_tokens' })).toBe('max_tokens');
    expect(deriveStop({ ...base, wireReason: 'refusal' })).toBe('refusal');
  });
  it("speaks Firebrand's vocabulary: a vendor's tool-call reason is a clean end like stop (issue 16)", () => {
    // The same evidence (one invalid call, every block closed) gives the same stop on every dialect.
    for (const wireReason of ['stop', 'tool_calls', 'function_call', 'tool_use', 'end_turn']) {
      expect(deriveStop({ ...base, wireReason, blocks: [{ kind: 'tool_call', state: 'invalid' }] }), wireReason).toBe('end_turn');
      expect(deriveStop({ ...base, wireReason, blocks: [{ kind: 'tool_call', state: 'open' }] }), wireReason).toBe('truncated');
    }
  });
  it('a terminal frame without a reason counts as stop', () => {
    expect(deriveStop({ ...base, wireReason: null })).toBe('end_turn');
    expect(deriveStop({ ...base, wireReason: null, blocks: [{ kind: 'tool_call', state: 'open' }] })).toBe('truncated');
  });
});

describe('validateToolArguments', () => {
  it('accepts valid arguments and returns the parsed value', () => {
    expect(validateToolArguments('{"city": "Paris"}', weather)).toEqual({ ok: true, value: { city: 'Paris' } });
  });
  it('explains invalid JSON, naming the tool', () => {
    const r = validateToolArguments('{"city": Paris}', weather);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/^Arguments for get_weather are not valid JSON: /);
  });
  it('explains schema errors the model can act on', () => {
    const r = validateToolArguments('{"unit": "k", "x": 1}', weather);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error).toContain("must have required property 'city'");
      expect(r.error).toContain("must not have property 'x'");
      expect(r.error).toContain('argument unit must be one of "c", "f"');
    }
  });
  it('rejects non-objects and treats empty arguments as {}', () => {
    expect(validateToolArguments('[1]', undefined, 'f').ok).toBe(false);
    expect(validateToolArguments('', undefined, 'f')).toEqual({ ok: true, value: {} });
  });
  it('caches the compiled schema (same result twice)', () => {
    expect(validateToolArguments('{"city": 3}', weather)).toEqual(validateToolArguments('{"city": 3}', weather));
  });
});

describe('validateToolCall', () => {
  it('an unknown tool is invalid and lists the known ones', () => {
    const r = validateToolCall('get_time', '{}', [weather]);
    expect(r).toEqual({ ok: false, error: 'There is no tool named get_time. Available tools: get_weather.' });
  });
  it('without a tool list only JSON is checked', () => {
    expect(validateToolCall('anything', '{"a":1}', undefined)).toEqual({ ok: true, value: { a: 1 } });
  });
});
