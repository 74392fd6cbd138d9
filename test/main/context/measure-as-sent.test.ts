/**
 * Chat audit #2: the context meter and the send guard counted every tool's definition even where the chat has
 * tools off (its own setting, or a new chat's popover before its first message), so Send was refused for a
 * message that fit (≈1,906 tokens against a 1,024 window for a 21-token prompt). The measure now follows the
 * send path: a chat with tools off is measured exactly as a Firebrand with no tools at all measures it.
 */
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../../src/main/tools/registry';
import type { Services } from '../../../src/main/services';
import { ollamaChatStream } from '../../replay-server/ollama-wire';
import { startReplayServer, type ReplayServer } from '../../replay-server/replay-server';
import { ollama, settle, tempServices } from '../integration/helpers';

const MODEL = 'llama3.2:3b';
let replay: ReplayServer;
const cleanups: (() => void)[] = [];
beforeAll(async () => {
  replay = await startReplayServer(
    ollama([
      { method: 'POST', path: '/api/show', body: '{"capabilities":["completion","tools"],"details":{"family":"llama"}}' },
      { method: 'POST', path: '/api/chat', body: ollamaChatStream(['Hello.']), chunk: 'lines' },
    ]),
  );
});
afterAll(() => replay.close());
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function start(noTools = false): Services {
  const t = tempServices(replay, noTools ? { chat: { titles: false, tools: ToolRegistry.none() } } : {});
  cleanups.push(t.cleanup);
  return t.services;
}

const measure = (s: Services, conversationId: string | null, draftSettings?: { systemPrompt: string; think: null; tools: boolean }) =>
  s.handlers['context:measure']({ conversationId, model: MODEL, ...(draftSettings ? { draftSettings } : {}) });

describe('the measure follows the chat’s tools setting, as the send path does', () => {
  it('a new chat whose popover turned tools off is measured without any tool definition; its system prompt counts', async () => {
    const s = start();
    const bare = start(true);
    const withTools = await measure(s, null);
    const off = await measure(s, null, { systemPrompt: '', think: null, tools: false });
    expect(off.tokens).toBe((await measure(bare, null)).tokens);
    expect(withTools.tokens - off.tokens).toBeGreaterThan(100);
    expect((await measure(s, null, { systemPrompt: '', think: null, tools: true })).tokens).toBe(withTools.tokens);
    const prompt = await measure(s, null, { systemPrompt: 'Reply in French, in one short sentence, whatever the question is.', think: null, tools: false });
    expect(prompt.tokens).toBeGreaterThan(off.tokens);
  });

  it('a chat with tools off (sent that way, or switched off later) is measured as it is sent', async () => {
    const s = start();
    const bare = start(true);
    const settings = { systemPrompt: '', think: null, tools: false };
    const sent = await s.handlers['chat:send']({ conversationId: null, text: 'Hi', model: MODEL, conversationSettings: settings });
    const plain = await bare.handlers['chat:send']({ conversationId: null, text: 'Hi', model: MODEL });
    await settle(s, sent.conversationId);
    await settle(bare, plain.conversationId);
    expect(replay.requests.filter((r) => r.path === '/api/chat').every((r) => !r.body.includes('"tools"'))).toBe(true);
    const expected = (await measure(bare, plain.conversationId)).tokens;
    expect((await measure(s, sent.conversationId)).tokens).toBe(expected);
    // Tools on again: the definitions count again; off: they go.
    await s.handlers['conversations:update-settings']({ conversationId: sent.conversationId, ...settings, tools: true });
    expect((await measure(s, sent.conversationId)).tokens).toBeGreaterThan(expected + 100);
    await s.handlers['conversations:update-settings']({ conversationId: sent.conversationId, ...settings, tools: false });
    expect((await measure(s, sent.conversationId)).tokens).toBe(expected);
    // The out-of-room plan measures the same request.
    expect((await s.handlers['context:plan']({ conversationId: sent.conversationId, model: MODEL })).need).toBe(expected);
  });
});

// The meter before sending gave only the total; a refusal card gave what took the room. The measure now carries
// the parts a card lists (the draft's are added by the page), and they add up to its total.
describe('the measure’s parts', () => {
  it('are the tool definitions, the system prompt and the earlier turns, adding up to the total', async () => {
    const s = start();
    const settings = { systemPrompt: 'Reply in French, in one short sentence, whatever the question is.', think: null, tools: true };
    const sent = await s.handlers['chat:send']({ conversationId: null, text: 'Hi', model: MODEL, conversationSettings: settings });
    await settle(s, sent.conversationId);
    const m = await measure(s, sent.conversationId);
    expect(m.parts?.tools).toBeGreaterThan(100);
    expect(m.parts?.system).toBeGreaterThan(5);
    expect(m.parts?.earlier).toBeGreaterThan(0);
    expect((m.parts?.tools ?? 0) + (m.parts?.system ?? 0) + (m.parts?.earlier ?? 0)).toBe(m.tokens);
    // A new chat with tools off and no prompt: nothing but what the request always carries.
    const bare = await measure(s, null, { systemPrompt: '', think: null, tools: false });
    expect(bare.parts?.tools).toBeUndefined();
    expect(bare.parts?.system).toBeUndefined();
  });
});

// Left over from the first-hour audit: a chat opened, and a message sent before the meter's measure of it came (its
// model's details and window still being read, ~1.5 s with a GPU to probe). The measure read the chat once those
// came, so it counted the message just sent, and the page, which adds the turns after the tip it asked about,
// counted that message twice while its answer streamed.
describe('a measure asked before a message is sent', () => {
  it('counts the chat as it was when asked, not the message sent while it was worked out', async () => {
    const s = start();
    const first = await s.handlers['chat:send']({ conversationId: null, text: 'Hi', model: MODEL });
    await settle(s, first.conversationId);
    // Another model: its details are read from the server (the first measure of a chat opened with it).
    const asked = s.handlers['context:measure']({ conversationId: first.conversationId, model: 'qwen3:8b' });
    const long = 'word '.repeat(8_000);
    const sent = await s.handlers['chat:send']({ conversationId: first.conversationId, text: long, model: 'qwen3:8b' });
    const measured = await asked;
    await settle(s, sent.conversationId);
    // The chat as asked about is two short turns and the tools: far below the 40,000 characters sent after.
    expect(measured.tokens).toBeLessThan(long.length / 8);
  });
});
