import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { replay, type ReplayResult } from '../../../src/main/cli/replay';
import type { ChunkSpec } from '../../../src/main/leg/chunking';
import { LLAMA_SERVER, LLAMA_SERVER_THINK_OPEN, OPENAI_FIXTURES, type Expectation } from './expectations';

const repoRoot = path.resolve(__dirname, '../../..');
const conformance = path.resolve(repoRoot, '../shared/conformance/llama-server');
const fixtures = path.resolve(repoRoot, 'test/fixtures/openai');

const CHUNKINGS: ChunkSpec[] = [
  { kind: 'whole' },
  { kind: 'fixed', size: 1 },
  { kind: 'fixed', size: 7 },
  { kind: 'random', seed: 1 },
  { kind: 'random', seed: 42 },
  { kind: 'random', seed: 20260101 },
];

function check(result: ReplayResult, want: Expectation): void {
  const { thinkOpen: _t, tool_calls, invalid_calls, ...plain } = want;
  expect(result).toMatchObject(plain);
  if (tool_calls) expect(result.tool_calls).toEqual(tool_calls.map((c) => expect.objectContaining(c)));
  if (invalid_calls) {
    expect(result.invalid_calls.map((c) => c.name)).toEqual(invalid_calls.map((c) => c.name));
    invalid_calls.forEach((c, i) => expect(result.invalid_calls[i]?.error).toMatch(c.error));
  }
}

async function replayAll(bytes: Uint8Array, want: Expectation): Promise<void> {
  const outputs = new Set<string>();
  for (const chunk of CHUNKINGS) {
    const result = await replay(bytes, { chunk, thinkOpen: want.thinkOpen ?? false });
    expect(result.dialect).toBe('openai');
    check(result, want);
    outputs.add(JSON.stringify(result));
  }
  expect(outputs.size, 'identical output for every chunking').toBe(1);
}

describe('llama-server conformance captures (openai dialect)', () => {
  it('covers every chat stream in the folder', () => {
    const chat = readdirSync(conformance).filter((f) => f.endsWith('.sse') || (/-nostream-/.test(f) && f.endsWith('.json') && !f.endsWith('.request.json')));
    expect(chat.sort()).toEqual(Object.keys(LLAMA_SERVER).sort());
  });
  for (const [name, want] of Object.entries(LLAMA_SERVER)) {
    it(`${name} replays as its note describes at every chunking`, async () => {
      await replayAll(readFileSync(path.join(conformance, name)), want);
    });
  }
  for (const [name, want] of Object.entries(LLAMA_SERVER_THINK_OPEN)) {
    it(`${name} with think-open keeps the server-separated answer as the answer at every chunking`, async () => {
      await replayAll(readFileSync(path.join(conformance, name)), want);
    });
  }
});

describe('recorded OpenAI-dialect fixtures', () => {
  it('every fixture has its note', () => {
    const streams = readdirSync(fixtures).filter((f) => f.endsWith('.sse')).map((f) => f.replace(/\.sse$/, ''));
    expect(streams.sort()).toEqual(Object.keys(OPENAI_FIXTURES).sort());
    for (const s of streams) expect(readFileSync(path.join(fixtures, `${s}.md`), 'utf8')).toContain('## Where the behaviour comes from');
  });
  for (const [name, want] of Object.entries(OPENAI_FIXTURES)) {
    it(`${name} replays as its note describes at every chunking`, async () => {
      await replayAll(readFileSync(path.join(fixtures, `${name}.sse`)), want);
    });
  }
  it('think-open-template without --think-open keeps the orphan close tag byte-identical', async () => {
    const result = await replay(readFileSync(path.join(fixtures, 'think-open-template.sse')));
    expect(result.content).toBe('The user wants the weather.</think>\n\nIt is sunny in Paris.');
    expect(result.reasoning).toBe('');
  });
  it('tools offered: a schema-valid call is complete and an unknown tool is invalid', async () => {
    const tools = [{ name: 'get_weather', description: '', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }];
    const ok = await replay(readFileSync(path.join(fixtures, 'parallel-tool-calls.sse')), { tools });
    expect(ok.tool_calls).toHaveLength(2);
    const other = [{ name: 'get_time', description: '', parameters: { type: 'object' } }];
    const bad = await replay(readFileSync(path.join(fixtures, 'parallel-tool-calls.sse')), { tools: other });
    expect(bad.stop).toBe('end_turn');
    expect(bad.wire_reason).toBe('tool_calls');
    expect(bad.invalid_calls.map((c) => c.error)).toEqual(Array(2).fill('There is no tool named get_weather. Available tools: get_time.'));
  });
});
