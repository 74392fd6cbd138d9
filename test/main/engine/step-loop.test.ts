import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { turnText, type ToolCallBlock, type ToolResultBlock, type Turn } from '../../../src/shared/turn';
import { contextRefusedMeta, isRefusedAnswer } from '../../../src/shared/system-turns';
import type { Services } from '../../../src/main/services';
import type { ServicesOptions } from '../../../src/main/services-options';
import { CASES, script, type DialectCase } from './helpers';
import { servicesOnReplay } from './services-on-replay';

const app = servicesOnReplay('firebrand-engine-');
let services: Services;
const replay = () => app.replay;
const events = () => app.events();

async function start(c: DialectCase, chat: ServicesOptions['chat'] = {}): Promise<string | undefined> {
  services = app.start({ chat: { tools: c.tools, ...chat } });
  if (c.kind === 'ollama') return undefined;
  const saved = await services.handlers['connections:save']({ kind: c.kind, label: c.kind, baseUrl: replay().url, apiKey: 'test-key' });
  return saved.id;
}

const { settle } = app;

const dbPath = () => join(app.dir, 'firebrand.db');
/** The answer text streamed to the renderer so far. */
const { streamed } = app;
const chatBodies = (c: DialectCase) => replay().requests.filter((r) => r.path === c.chatPath).map((r) => r.body);

describe.each(CASES)('the step loop over $kind', (c) => {
  it('runs a two-step tool loop: call -> result -> answer, each step committed before its request arrived', async () => {
    const connectionId = await start(c);
    const s = script(replay(), dbPath(), c.probes, c.chatPath, [{ body: c.toolCall }, { body: c.text(['It is ', '18 degrees.']) }]);
    const sent = await services.handlers['chat:send']({ conversationId: null, text: 'Weather?', model: 'm', ...(connectionId ? { connectionId } : {}) });
    const turns = await settle(sent.conversationId);

    expect(turns.map((t) => [t.role, t.status])).toEqual([['user', 'done'], ['assistant', 'done'], ['tool', 'done'], ['assistant', 'done']]);
    const call = turns[1]?.blocks.find((b): b is ToolCallBlock => b.type === 'tool_call');
    expect(call?.state).toBe('complete');
    expect(turns[1]?.stop).toBe('tool_use');
    const result = turns[2]?.blocks[0] as ToolResultBlock;
    expect(result).toMatchObject({ type: 'tool_result', toolCallId: call?.id, isError: false });
    expect(result.content).toContain(c.toolArg);
    expect(turnText(turns[3] as Turn)).toBe('It is 18 degrees.');
    expect(turns[3]?.stop).toBe('end_turn');
    // Chained: each turn's parent is the one before it.
    for (let i = 1; i < turns.length; i++) expect(turns[i]?.parentId).toBe(turns[i - 1]?.id);

    expect(s.committed).toEqual([true, true]);
    const second = chatBodies(c)[1] ?? '';
    expect(second).toContain('18 degrees, sunny');
    expect(second).not.toContain('test-key');
    // Every turn the loop wrote reached the renderer as saved (the user turn comes back from chat:send itself).
    const saved = new Set(events().filter((e) => e.channel === 'chat:turn-saved').map((e) => (e.payload as { turn: Turn }).turn.id));
    for (const t of turns.slice(1)) expect(saved.has(t.id), t.role).toBe(true);
    // The step records: one per request, the wire reason and the derived stop side by side.
    const steps = turns.filter((t) => t.role === 'assistant').map((t) => services.db.prepare('SELECT stop, request_digest FROM steps WHERE turn_id = ?').get(t.id) as { stop: string });
    expect(steps.map((x) => x.stop)).toEqual(['tool_use', 'end_turn']);
  });

  it('answers an invalid call with an error result, and the model retries', async () => {
    const connectionId = await start(c);
    const s = script(replay(), dbPath(), c.probes, c.chatPath, [{ body: c.invalidCall }, { body: c.toolCall }, { body: c.text(['Done.']) }]);
    const sent = await services.handlers['chat:send']({ conversationId: null, text: 'Weather?', model: 'm', ...(connectionId ? { connectionId } : {}) });
    const turns = await settle(sent.conversationId);

    expect(turns.map((t) => t.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
    expect(turns[1]?.blocks.find((b) => b.type === 'tool_call')).toMatchObject({ state: 'invalid' });
    const error = turns[2]?.blocks[0] as ToolResultBlock;
    expect(error.isError).toBe(true);
    expect(error.content).toMatch(c.invalidError);
    expect(chatBodies(c)[1]).toContain(JSON.stringify(error.content).slice(1, 40));
    expect((turns[4]?.blocks[0] as ToolResultBlock).isError).toBe(false);
    expect(turnText(turns[5] as Turn)).toBe('Done.');
    expect(s.committed).toEqual([true, true, true]);
  });

  it('keeps a cut stream with its partial text', async () => {
    const connectionId = await start(c);
    script(replay(), dbPath(), c.probes, c.chatPath, [{ body: c.cut }]);
    const sent = await services.handlers['chat:send']({ conversationId: null, text: 'Hi', model: 'm', ...(connectionId ? { connectionId } : {}) });
    const turns = await settle(sent.conversationId);
    expect(turns.at(-1)).toMatchObject({ role: 'assistant', status: 'cut', stop: 'cut' });
    expect(turnText(turns.at(-1) as Turn)).toBe(c.cutText);
  });

  it('stops mid-stream on request, keeping the partial answer as aborted', async () => {
    const connectionId = await start(c);
    const tokens = Array.from({ length: 200 }, (_, i) => `w${i} `);
    // Held after 20 lines (w0 to w3 or more, by dialect) and never let go: still streaming when the stop comes.
    script(replay(), dbPath(), c.probes, c.chatPath, [{ body: c.text(tokens), delayMs: 15, holdAfterChunks: 20 }]);
    const sent = await services.handlers['chat:send']({ conversationId: null, text: 'Count', model: 'm', ...(connectionId ? { connectionId } : {}) });
    await expect.poll(streamed).toMatch(/^w0 w1 w2 /);
    expect(await services.handlers['chat:stop']({ turnId: sent.assistantTurn.id })).toEqual({ stopped: true });
    const turns = await settle(sent.conversationId);
    expect(turns.at(-1)?.status).toBe('aborted');
    expect(turnText(turns.at(-1) as Turn)).toMatch(/^w0 w1 /);
    expect(turnText(turns.at(-1) as Turn).length).toBeLessThan(tokens.join('').length);
  });

  it('a stop keeps the bytes the splitter was holding back (issue 16)', async () => {
    const connectionId = await start(c);
    // The trailing `<` could start a tag, so the splitter holds it until more arrives; the server sends no more.
    script(replay(), dbPath(), c.probes, c.chatPath, [{ body: c.partialText('The answer is 3 <'), hang: true }]);
    const sent = await services.handlers['chat:send']({ conversationId: null, text: 'Sum?', model: 'm', ...(connectionId ? { connectionId } : {}) });
    const shown = () => events().flatMap((e) => (e.channel === 'chat:turn-parts' ? (e.payload as { parts: { type: string; delta?: string }[] }).parts : [])).filter((p) => p.type === 'text-delta').map((p) => p.delta).join('');
    await expect.poll(shown, { timeout: 10_000 }).toBe('The answer is 3 ');
    expect(await services.handlers['chat:stop']({ turnId: sent.assistantTurn.id })).toEqual({ stopped: true });
    const turns = await settle(sent.conversationId);
    expect(turns.at(-1)).toMatchObject({ status: 'aborted', stop: 'aborted' });
    expect(turnText(turns.at(-1) as Turn)).toBe('The answer is 3 <');
  });

  it('refuses a request whose estimate reaches the window: nothing is sent, a context-refused card says why', async () => {
    const connectionId = await start(c, { appLayer: { contextWindow: 200 } });
    script(replay(), dbPath(), c.probes, c.chatPath, [{ body: c.text(['never']) }]);
    const sent = await services.handlers['chat:send']({ conversationId: null, text: 'x'.repeat(2000), model: 'm', ...(connectionId ? { connectionId } : {}) });
    const turns = await settle(sent.conversationId);
    expect(chatBodies(c)).toEqual([]);
    expect(turns.map((t) => [t.role, t.status])).toEqual([['user', 'done'], ['assistant', 'error'], ['system', 'done']]);
    const card = turns[2] as Turn;
    expect(card.source).toBe('context-refused');
    expect(card.meta).toMatchObject({ window: 200 });
    expect(card.meta['estimate']).toBeGreaterThanOrEqual(500);
    expect((card.meta['largest'] as { label: string }[])[0]?.label).toBe('user message 1');
    // Nothing was sent: the answer is marked refused (no failed answer with a Retry), and the card records what takes
    // the room and the ways that apply (context audit #1, #4).
    expect(isRefusedAnswer(turns[1] as Turn)).toBe(true);
    const meta = contextRefusedMeta(card.meta)!;
    expect(meta.parts?.message).toBeGreaterThanOrEqual(500);
    expect(meta.parts?.files).toBeUndefined();
    expect(meta.ways).not.toContain('remove-files');
    expect(meta.ways).not.toContain('later-point');
    expect(turnText(card)).toContain(`your message ${meta.parts!.message}`);
  });

  it('turns a server error into an error turn carrying the server message', async () => {
    const connectionId = await start(c);
    script(replay(), dbPath(), c.probes, c.chatPath, [{ status: c.serverError.status, body: c.serverError.body, chunk: undefined }]);
    const sent = await services.handlers['chat:send']({ conversationId: null, text: 'Hi', model: 'm', ...(connectionId ? { connectionId } : {}) });
    const turns = await settle(sent.conversationId);
    // llama-server's error is its context overflow: a context-refused card follows the failed turn (issue 13).
    const answer = turns.filter((t) => t.role === 'assistant').at(-1);
    expect(answer?.status).toBe('error');
    expect(answer?.error).toContain(c.serverError.message);
  });
});

// Ollama sends a call whole in one chunk, so only the streaming-argument dialects can be stopped inside one.
describe.each(CASES.filter((c) => c.partialToolCall !== undefined))('stopping the step loop over $kind', (c) => {
  it('a stop settles a tool call that was still being written: truncated, never run (issue 16)', async () => {
    const connectionId = await start(c);
    script(replay(), dbPath(), c.probes, c.chatPath, [{ body: c.partialToolCall ?? '', hang: true }]);
    const sent = await services.handlers['chat:send']({ conversationId: null, text: 'Weather?', model: 'm', ...(connectionId ? { connectionId } : {}) });
    const deltas = () => events().flatMap((e) => (e.channel === 'chat:turn-parts' ? (e.payload as { parts: { type: string }[] }).parts : [])).filter((p) => p.type === 'tool-call-delta').length;
    await expect.poll(deltas, { timeout: 10_000 }).toBeGreaterThan(0);
    await services.handlers['chat:stop']({ turnId: sent.assistantTurn.id });
    const turns = await settle(sent.conversationId);
    expect(turns.map((t) => t.role)).toEqual(['user', 'assistant']);
    expect(turns[1]?.status).toBe('aborted');
    const call = turns[1]?.blocks.find((b): b is ToolCallBlock => b.type === 'tool_call');
    expect(call?.state).toBe('truncated');
    expect(call?.error).toMatch(/nothing was run|not run|never run|complete/);
  });
});
