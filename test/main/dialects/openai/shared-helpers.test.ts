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
      expect(r.error).toContain('city is required but was not given');
      expect(r.error).toContain("x is not one of the tool's arguments");
      expect(r.error).toContain('unit must be "c" or "f"');
    }
  });
  // Tools pass 2: the same words show on the tool card, so they are sentences a user reads: "argument a must be number"
  // was ajv's, written for the model.
  it('words every kind of schema error as a plain sentence', () => {
    const tool: ToolSchema = {
      name: 'get-sum',
      description: '',
      parameters: {
        type: 'object',
        properties: {
          a: { type: 'number' },
          n: { type: 'integer', minimum: 1, maximum: 10 },
          m: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 5 },
          flag: { type: 'boolean' },
          name: { type: 'string', minLength: 2, maxLength: 3 },
          tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 1 },
          opts: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'], additionalProperties: false },
        },
      },
    };
    const error = (args: object) => {
      const r = validateToolArguments(JSON.stringify(args), tool);
      return r.ok ? '' : r.error;
    };
    expect(error({ a: 'x' })).toBe('Arguments for get-sum are invalid: a must be a number.');
    expect(error({ n: 1.5 })).toBe('Arguments for get-sum are invalid: n must be a whole number.');
    expect(error({ n: 0 })).toContain('n must be at least 1');
    expect(error({ n: 11 })).toContain('n must be at most 10');
    expect(error({ m: 0 })).toContain('m must be more than 0');
    expect(error({ m: 5 })).toContain('m must be less than 5');
    expect(error({ flag: 'yes' })).toContain('flag must be true or false');
    expect(error({ name: 'a' })).toContain('name must be at least 2 characters long');
    expect(error({ name: 'abcd' })).toContain('name must be at most 3 characters long');
    expect(error({ tags: [] })).toContain('tags must have at least 1 item');
    expect(error({ tags: ['a', 'b'] })).toContain('tags must have at most 1 item');
    expect(error({ tags: [1] })).toContain('tags[0] must be a string');
    expect(error({ opts: { y: 1 } })).toBe('Arguments for get-sum are invalid: opts must have x, which was not given; opts must not have y.');
    expect(error({ opts: { x: 'one' } })).toContain('opts.x must be a number');
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
