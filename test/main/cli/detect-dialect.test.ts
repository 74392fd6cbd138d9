import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectDialect, dialects, getDialect } from '../../../src/main/dialects/registry';

const repoRoot = path.resolve(__dirname, '../../..');
const capture = (name: string) => readFileSync(path.resolve(repoRoot, '../shared/conformance/llama-server', name), 'utf8');

describe('dialect registry', () => {
  it('maps every id to its dialect', () => {
    for (const [id, d] of Object.entries(dialects)) expect(d.id).toBe(id);
    expect(getDialect('openai')?.framing).toBe('sse');
    expect(getDialect('nope')).toBeUndefined();
  });

  it('detects openai streams, whole responses and error bodies', () => {
    expect(detectDialect(capture('a-plain-stream-deepseek.sse'))).toBe('openai');
    expect(detectDialect(capture('c-toolcall-nostream-deepseek.json'))).toBe('openai');
    expect(detectDialect(capture('context-overflow-stream-deepseek.sse'))).toBe('openai');
    expect(detectDialect('{\n  "choices": [\n    {"message": {"content": "hi"}}\n  ]\n}')).toBe('openai');
  });

  it("detects llama.cpp's legacy `error:` field as openai, even when nothing else in the file tells (issue 16)", () => {
    expect(detectDialect(readFileSync(path.join(repoRoot, 'test/fixtures/openai/legacy-error-field.sse'), 'utf8'))).toBe('openai');
    expect(detectDialect('error: {"code":500,"message":"boom","type":"server_error"}\n\n')).toBe('openai');
    expect(detectDialect('error: not json\n\ndata: [DONE]\n\n')).toBeUndefined();
  });

  it('detects anthropic and ollama', () => {
    expect(detectDialect('event: message_start\ndata: {"type":"message_start","message":{}}\n\n')).toBe('anthropic');
    expect(detectDialect('data: {"type":"content_block_delta","index":0}\n\n')).toBe('anthropic');
    expect(detectDialect('{"model":"q","message":{"role":"assistant","content":"a"},"done":false}\n{"done":true}\n')).toBe('ollama');
    expect(detectDialect('{"error":"model \'x\' not found"}')).toBe('ollama');
  });

  it('says undefined when it cannot tell', () => {
    expect(detectDialect('')).toBeUndefined();
    expect(detectDialect('[1, 2]')).toBeUndefined();
    expect(detectDialect('hello world')).toBeUndefined();
  });
});
