import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StepStore } from '../../../src/main/db/step-store';
import type { Services } from '../../../src/main/services';
import { turnText, type ToolCallBlock } from '../../../src/shared/turn';
import { PLAIN_ANSWER, REASONING, SCRIPTS } from '../../support/scripted-gguf/scripts';
import { ask, builtinServices, cleanup, dataDirWith } from './helpers';

/** One engine process for the whole file: models load once and stay loaded between tests. */
let dir: string;
let services: Services;

beforeAll(() => {
  dir = dataDirWith({
    plain: SCRIPTS.plain,
    reasoning: SCRIPTS.reasoning,
    'call-datetime': SCRIPTS.callDatetime,
    'two-calls': SCRIPTS.twoCalls,
    'text-then-call': SCRIPTS.textThenCall,
    'unclosed-think': SCRIPTS.unclosedThink,
    'malformed-call': SCRIPTS.malformedCall,
  });
  services = builtinServices(dir);
});
afterAll(() => cleanup(services, dir));

describe('built-in engine: real inference on scripted GGUFs', () => {
  it('answers a plain question, records the request before generating, and names the model file by digest', async () => {
    const { turns } = await ask(services, 'plain.gguf', 'What is the weather in Paris?');
    const answer = turns.at(-1);
    expect(answer).toMatchObject({ role: 'assistant', status: 'done', stop: 'end_turn', wireReason: 'stop' });
    expect(turnText(answer!)).toBe(PLAIN_ANSWER);
    expect(answer!.usage?.inputTokens).toBeGreaterThan(10);
    const steps = new StepStore(services.db, () => undefined);
    const records = steps.listForTurn(answer!.id);
    expect(records).toHaveLength(1);
    const step = records[0]!;
    expect(step).toMatchObject({ dialect: 'builtin', model: 'plain.gguf', wireReason: 'stop', stop: 'end_turn' });
    expect(step.endpoint).toMatch(/^file:\/\/.*\/models$/);
    // The preflight counted the prompt with the model's own tokenizer: the estimate is what the engine reports.
    expect(step.tokenEstimate).toBe(answer!.usage?.inputTokens);
    const body = JSON.parse(new TextDecoder().decode(steps.rehydrateBody(step.requestDigest))) as Record<string, unknown>;
    expect(body['model']).toBe('plain.gguf');
    expect(body['context_size']).toBe(step.contextWindow);
    expect(body['model_file']).toMatchObject({ sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it('splits reasoning from the answer with the shared splitter', async () => {
    const { turns } = await ask(services, 'reasoning.gguf', 'Weather?');
    const answer = turns.at(-1)!;
    expect(answer.stop).toBe('end_turn');
    const reasoning = answer.blocks.filter((b) => b.type === 'reasoning');
    expect(reasoning.map((b) => (b.type === 'reasoning' ? b.text.trim() : ''))).toEqual([REASONING]);
    expect(turnText(answer).trim()).toBe(PLAIN_ANSWER);
  });
});

describe('built-in engine: two conversations at once', () => {
  it('answers both, one generation after the other, each with its own model', async () => {
    const [a, b] = await Promise.all([ask(services, 'plain.gguf', 'One?'), ask(services, 'reasoning.gguf', 'Two?')]);
    expect(turnText(a.turns.at(-1)!)).toBe(PLAIN_ANSWER);
    expect(turnText(b.turns.at(-1)!).trim()).toBe(PLAIN_ANSWER);
    expect(b.turns.at(-1)!.blocks.some((x) => x.type === 'reasoning')).toBe(true);
  });
});

describe('built-in engine: tool calls through the same validation and loop', () => {
  it('reads a call, runs the tool, sends the result back; the script calls again until the step limit', async () => {
    const { turns } = await ask(services, 'call-datetime.gguf', 'What time is it in Paris?');
    const assistants = turns.filter((t) => t.role === 'assistant');
    expect(assistants.length).toBe(3);
    const first = assistants[0]!;
    expect(first).toMatchObject({ stop: 'tool_use', wireReason: 'stop' });
    const call = first.blocks.find((b): b is ToolCallBlock => b.type === 'tool_call');
    expect(call).toMatchObject({ name: 'current_datetime', state: 'complete', arguments: { timezone: 'Europe/Paris' } });
    const result = turns.find((t) => t.role === 'tool')?.blocks.find((b) => b.type === 'tool_result');
    expect(result).toMatchObject({ toolCallId: call!.id, isError: false });
    expect(turns.at(-1)).toMatchObject({ role: 'system', source: 'error', meta: { reason: 'step-limit' } });
  });

  it('reads two calls in one answer, and text before a call as the answer text', async () => {
    const two = (await ask(services, 'two-calls.gguf', 'Time in Paris and Tokyo?')).turns.find((t) => t.role === 'assistant')!;
    const calls = two.blocks.filter((b): b is ToolCallBlock => b.type === 'tool_call');
    expect(calls.map((c) => [c.state, c.arguments])).toEqual([
      ['complete', { timezone: 'Europe/Paris' }],
      ['complete', { timezone: 'Asia/Tokyo' }],
    ]);
    expect(turnText(two).trim()).toBe('');
    const text = (await ask(services, 'text-then-call.gguf', 'Time?')).turns.find((t) => t.role === 'assistant')!;
    expect(turnText(text).trim()).toBe('Let me look at the clock.');
    expect(text.blocks.at(-1)).toMatchObject({ type: 'tool_call', state: 'complete', name: 'current_datetime' });
  });

  it('turns malformed arguments into an invalid call and an error result the model sees', async () => {
    const { turns } = await ask(services, 'malformed-call.gguf', 'Time?');
    const first = turns.find((t) => t.role === 'assistant')!;
    const call = first.blocks.find((b): b is ToolCallBlock => b.type === 'tool_call');
    expect(call).toMatchObject({ name: 'current_datetime', state: 'invalid' });
    expect(call!.error).toMatch(/not valid JSON/);
    const result = turns.find((t) => t.role === 'tool')?.blocks.find((b) => b.type === 'tool_result');
    expect(result).toMatchObject({ isError: true });
  });

  it('keeps an unclosed think block as reasoning: no answer, a clean end of turn', async () => {
    const { turns } = await ask(services, 'unclosed-think.gguf', 'Weather?');
    const answer = turns.at(-1)!;
    expect(answer).toMatchObject({ role: 'assistant', status: 'done', stop: 'end_turn' });
    expect(turnText(answer).trim()).toBe('');
    expect(answer.blocks.find((b) => b.type === 'reasoning')).toMatchObject({ text: expect.stringContaining('I keep wondering') });
  });
});

describe('built-in engine: load, unload and the idle timeout', () => {
  it('loads a model with the window Firebrand chose, reports what it holds, and unloads it when idle', async () => {
    const h = services.handlers;
    const status = await h['builtin:load']({ file: 'plain.gguf' });
    expect(status.backend?.backend).toBe('cpu');
    expect(status.backend?.reason).toMatch(/^CPU: /);
    const plain = status.loaded.find((l) => l.file === 'plain.gguf');
    expect(plain).toMatchObject({ contextSize: 4096, unloadsAt: expect.any(Number) });
    // Worked out from system memory on this CPU-only machine, and the meter is told so (not "your GPU").
    expect(await h['models:context-window']({ model: 'plain.gguf', connectionId: 'builtin' })).toMatchObject({ source: 'recommended', memory: 'system', reason: expect.stringMatching(/fit in system memory/) });
    // Weights and the KV cache of its whole window (K and V, 320 f16 values each per token), as soon as it is
    // loaded: the cache is allocated for the window, not as it fills.
    const size = (await h['library:list']({})).find((e) => e.file === 'plain.gguf')!.sizeBytes;
    expect(plain!.memoryBytes).toBeGreaterThanOrEqual(size + 4096 * 2 * 320 * 2);
    // An idle timeout of a few milliseconds: the model goes, and the Running panel's list says so.
    services.library.builtin.deps.idleMinutes = () => 0.0005;
    await h['builtin:load']({ file: 'plain.gguf' });
    await expect.poll(async () => (await h['builtin:status']({})).loaded.map((l) => l.file), { timeout: 20_000 }).not.toContain('plain.gguf');
    services.library.builtin.deps.idleMinutes = () => 10;
  });

  it('a model loaded from the previous models folder is still named by its path and can be unloaded', async () => {
    const h = services.handlers;
    await h['builtin:load']({ file: 'plain.gguf' });
    const before = (await h['settings:get']({})).modelsDir;
    const path = join((await h['builtin:status']({})).modelsDir, 'plain.gguf');
    const elsewhere = mkdtempSync(join(tmpdir(), 'firebrand-other-models-'));
    await h['settings:update']({ modelsDir: elsewhere });
    try {
      // (Models of the tests before are loaded too; they are named the same way.)
      const loaded = (await h['builtin:status']({})).loaded.map((l) => l.file);
      expect(loaded).toContain(path);
      expect(loaded.filter((f) => !f.startsWith('/'))).toEqual([]);
      expect((await h['builtin:unload']({ file: path })).loaded.map((l) => l.file)).not.toContain(path);
    } finally {
      await h['settings:update']({ modelsDir: before });
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});

describe('built-in engine: the title request keeps the conversation in the prompt cache', () => {
  it("reads the user's second message from where the first exchange ends, not from its first token", async () => {
    const own = dataDirWith({ plain: SCRIPTS.plain });
    const titled = builtinServices(own, { chat: { titles: true } });
    try {
      const first = await ask(titled, 'plain.gguf', 'What is the weather in Paris?');
      // The title lane ran (the script's one sentence is a title of six words) before the user writes again.
      expect((await titled.handlers['conversations:list']({}))[0]?.title).toBe('It is sunny in Paris today');
      const second = await ask(titled, 'plain.gguf', 'And tomorrow?', { conversationId: first.sent.conversationId });
      const answers = [first, second].map((a) => a.turns.filter((t) => t.role === 'assistant').at(-1)!);
      expect(turnText(answers[1]!)).toBe(PLAIN_ANSWER);
      // The first exchange (the tools, the question and the answer) came from the cache; only the new message was read.
      const [one, two] = answers.map((a) => a.usage!);
      expect(two!.cachedTokens).toBeGreaterThan(one!.inputTokens! + one!.outputTokens! - 8);
      expect(two!.inputTokens! - two!.cachedTokens!).toBeLessThan(30);
    } finally {
      cleanup(titled, own);
    }
  });

  it('keeps the cache under a kept window llama.cpp rounds up (5,000 tokens: a context of 5,120)', async () => {
    const own = dataDirWith({ plain: { script: SCRIPTS.plain, opts: { contextLength: 16_384 } } });
    const titled = builtinServices(own, { chat: { titles: true } });
    try {
      await titled.handlers['library:set-context']({ file: 'plain.gguf', contextWindow: 5_000 });
      const first = await ask(titled, 'plain.gguf', 'What is the weather in Paris?');
      const second = await ask(titled, 'plain.gguf', 'And tomorrow?', { conversationId: first.sent.conversationId });
      const usage = second.turns.filter((t) => t.role === 'assistant').at(-1)!.usage!;
      expect(usage.inputTokens! - (usage.cachedTokens ?? 0)).toBeLessThan(30);
      // The Running panel shows the window the engine really holds.
      expect((await titled.handlers['builtin:status']({})).loaded.find((l) => l.file === 'plain.gguf')?.contextSize).toBe(5_120);
    } finally {
      cleanup(titled, own);
    }
  });
});
