/**
 * Issue 19: MCP servers as tools, end to end through the engine, against the real reference servers from npm
 * (server-everything, server-filesystem) and a stand-in model that asks for the calls. What the user notices:
 * the model is offered the server's tools, a call waits for approval, runs on the server, and its result (text,
 * image) reaches the model's next request; switched-off tools and a conversation with tools off send none.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { turnText, type AttachmentBlock, type Turn } from '../../../src/shared/turn';
import { addServer, callAnswer, decide, everything, filesystem, MODEL, pendingCard, settled, stage, textAnswer, tidyEachTest, type Stage } from './helpers';

let st: Stage | undefined;
const { scratchDir } = tidyEachTest(() => {
  const done = st;
  st = undefined;
  return done;
});

const toolNames = (body: { tools?: { function: { name: string } }[] } | undefined) => (body?.tools ?? []).map((t) => t.function.name);

describe('an MCP tool in a chat', () => {
  it('offers the server’s tools, asks before echo runs, and sends its result back to the model', async () => {
    st = await stage();
    const s = st.services;
    const info = await addServer(s, everything());
    expect(info.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'get-tiny-image', 'get-sum']));
    expect(info.tools.find((t) => t.name === 'echo')).toMatchObject({ offeredAs: 'echo', description: 'Echoes back the input string', enabled: true, alwaysAllow: false });

    st.plan.push(callAnswer('echo', { message: 'hello from the model' }), textAnswer('The server said hello.'));
    const sent = await s.handlers['chat:send']({ conversationId: null, text: 'Echo something', model: MODEL });
    await expect.poll(() => pendingCard(st as Stage, sent.conversationId)).toBeDefined();
    const card = pendingCard(st, sent.conversationId) as Turn;
    // The card names the server, the tool and the arguments.
    expect(card.meta).toMatchObject({ tool: 'echo', server: 'everything', call: '{"message":"hello from the model"}', state: 'pending' });
    expect(turnText(card)).toBe('echo (from the tool server everything) wants to run: {"message":"hello from the model"}');
    await decide(st, card, 'allow-once');

    const turns = await settled(st, sent.conversationId);
    expect(turns.map((t) => t.source ?? t.role)).toEqual(['user', 'assistant', 'tool-approval', 'tool', 'assistant']);
    const result = turns[3]?.blocks[0];
    expect(result).toMatchObject({ type: 'tool_result', name: 'echo', content: 'Echo: hello from the model', isError: false });
    expect(turnText(turns[4] as Turn)).toBe('The server said hello.');

    const [first, second] = st.bodies();
    const echo = first?.tools?.find((t) => t.function.name === 'echo');
    expect(echo?.function).toMatchObject({ description: 'Echoes back the input string', parameters: { type: 'object', required: ['message'] } });
    // The model-facing schema carries no `$schema` dialect marker (nothing a model needs; some servers reject it).
    expect(echo?.function.parameters).not.toHaveProperty('$schema');
    expect(toolNames(first)).toEqual(expect.arrayContaining(['read_document', 'fetch_url', 'current_datetime', 'echo']));
    expect(second?.messages.at(-1)).toMatchObject({ role: 'tool', tool_name: 'echo', content: 'Echo: hello from the model' });
  });

  it('reads a file through server-filesystem for the model', async () => {
    const root = scratchDir();
    writeFileSync(join(root, 'notes.txt'), 'Buy oat milk.\nCall Ada on Tuesday.\n');
    st = await stage();
    const s = st.services;
    const info = await addServer(s, filesystem(root));
    expect(info.tools.map((t) => t.offeredAs)).toEqual(expect.arrayContaining(['read_text_file', 'list_directory']));
    // "Always allow" for this tool: it runs without a card, now and in later chats.
    await s.handlers['mcp:set-tool']({ id: info.id, tool: 'read_text_file', alwaysAllow: true });

    st.plan.push(callAnswer('read_text_file', { path: join(root, 'notes.txt') }), textAnswer('You need oat milk.'));
    const sent = await s.handlers['chat:send']({ conversationId: null, text: 'What is on my list?', model: MODEL });
    const turns = await settled(st, sent.conversationId);
    expect(turns.map((t) => t.source ?? t.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(turns[2]?.blocks[0]).toMatchObject({ type: 'tool_result', isError: false, content: 'Buy oat milk.\nCall Ada on Tuesday.\n' });
    expect(st.bodies()[1]?.messages.at(-1)?.content).toContain('Call Ada on Tuesday.');
  });

  it('cuts a file too large for what is left of the window, and says so on the card', async () => {
    const root = scratchDir();
    const big = Array.from({ length: 4000 }, (_, i) => `line ${i}: the quick brown fox jumps over the lazy dog`).join('\n');
    writeFileSync(join(root, 'big.txt'), big);
    st = await stage();
    const info = await addServer(st.services, filesystem(root));
    await st.services.handlers['mcp:set-tool']({ id: info.id, tool: 'read_text_file', alwaysAllow: true });
    st.plan.push(callAnswer('read_text_file', { path: join(root, 'big.txt') }), textAnswer('It is long.'));
    const sent = await st.services.handlers['chat:send']({ conversationId: null, text: 'Read big.txt', model: MODEL });
    const turns = await settled(st, sent.conversationId);
    const result = turns.find((t) => t.role === 'tool')?.blocks[0] as { content: string; note?: string };
    // Ollama's window here is the 4096-token fallback: the 230,000-character file cannot go whole.
    expect(big.length).toBeGreaterThan(200_000);
    expect(result.content.length).toBeLessThan(16_000);
    expect(result.content).toContain('line 0: the quick brown fox');
    expect(result.content).toMatch(/\[cut: the first \d+ of \d+ characters, to fit the context window \(4096 tokens\); ask for less to see the rest\]$/);
    expect(result.note).toMatch(/^Cut to [\d,]+ of [\d,]+ characters to fit the context window \(4096 tokens\)\.$/);
    expect(turnText(turns.at(-1) as Turn)).toBe('It is long.');
  });

  it('keeps an image result by reference and sends it to a model that can see', async () => {
    st = await stage({ vision: true });
    const s = st.services;
    await addServer(s, everything());
    st.plan.push(callAnswer('get-tiny-image', {}), textAnswer('A small logo.'), callAnswer('get-tiny-image', {}), textAnswer('The same logo.'));
    const sent = await s.handlers['chat:send']({ conversationId: null, text: 'Show me the logo', model: MODEL });
    await expect.poll(() => pendingCard(st as Stage, sent.conversationId)).toBeDefined();
    // "Always allow" on the card: the next call of this tool runs without asking.
    await decide(st, pendingCard(st, sent.conversationId) as Turn, 'allow-always');
    let turns = await settled(st, sent.conversationId);
    const toolTurn = turns.find((t) => t.role === 'tool') as Turn;
    const image = toolTurn.blocks.find((b): b is AttachmentBlock => b.type === 'attachment');
    expect(image).toMatchObject({ kind: 'image', mime: 'image/png', toolCallId: 'call_0' });
    expect(toolTurn.blocks[0]).toMatchObject({ type: 'tool_result', content: expect.stringContaining("Here's the image you requested:") });
    // Stored once in the blob store, like an attachment; the model gets it on the result's own message.
    const stored = await s.handlers['attachments:get']({ id: (image as AttachmentBlock).id });
    expect(stored.mime).toBe('image/png');
    const toolMessage = st.bodies()[1]?.messages.at(-1);
    expect(toolMessage).toMatchObject({ role: 'tool', tool_name: 'get-tiny-image' });
    expect(toolMessage?.images).toEqual([stored.dataBase64]);

    const again = await s.handlers['chat:send']({ conversationId: sent.conversationId, text: 'Once more', model: MODEL });
    turns = await settled(st, again.conversationId);
    expect(turns.filter((t) => t.source === 'tool-approval')).toHaveLength(1);
    expect(turns.filter((t) => t.role === 'tool')).toHaveLength(2);
    const listed = (await s.handlers['mcp:list']({}))[0];
    expect(listed?.tools.find((t) => t.name === 'get-tiny-image')?.alwaysAllow).toBe(true);
  });

  // MCP hunt: "Always allow" on a card also allowed the tool in that chat, out of sight, so switching "Run without
  // asking" off again in Settings → Tools asked everywhere but there, the chat where it was given.
  it('asks again in the same chat once "Run without asking" is switched off after "Always allow"', async () => {
    st = await stage();
    const s = st.services;
    const info = await addServer(s, everything());
    st.plan.push(callAnswer('echo', { message: 'one' }), textAnswer('First.'), callAnswer('echo', { message: 'two' }), textAnswer('Second.'));
    const sent = await s.handlers['chat:send']({ conversationId: null, text: 'Echo one', model: MODEL });
    await expect.poll(() => pendingCard(st as Stage, sent.conversationId)).toBeDefined();
    await decide(st, pendingCard(st, sent.conversationId) as Turn, 'allow-always');
    await settled(st, sent.conversationId);
    await s.handlers['mcp:set-tool']({ id: info.id, tool: 'echo', alwaysAllow: false });

    await s.handlers['chat:send']({ conversationId: sent.conversationId, text: 'Echo two', model: MODEL });
    await expect.poll(() => pendingCard(st as Stage, sent.conversationId)).toBeDefined();
    expect(pendingCard(st, sent.conversationId)?.meta['call']).toContain('two');
    await decide(st, pendingCard(st, sent.conversationId) as Turn, 'deny');
    const turns = await settled(st, sent.conversationId);
    expect(turnText(turns.at(-1) as Turn)).toBe('Second.');
  });

  it('sends no image to a model that cannot see, and says so in the result', async () => {
    st = await stage({ vision: false });
    await addServer(st.services, everything(), 'ready');
    await st.services.handlers['mcp:set-tool']({ id: (await st.services.handlers['mcp:list']({}))[0]?.id ?? '', tool: 'get-tiny-image', alwaysAllow: true });
    st.plan.push(callAnswer('get-tiny-image', {}), textAnswer('I cannot see it.'));
    const sent = await st.services.handlers['chat:send']({ conversationId: null, text: 'Show me the logo', model: MODEL });
    const turns = await settled(st, sent.conversationId);
    expect(turns.map((t) => t.source ?? t.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    const toolMessage = st.bodies()[1]?.messages.at(-1);
    expect(toolMessage?.images).toBeUndefined();
    expect(toolMessage?.content).toContain('not sent, this model cannot read images');
  });

  it('leaves a switched-off tool out of the next request, and every tool out of a chat with tools off', async () => {
    st = await stage();
    const s = st.services;
    const info = await addServer(s, everything());
    const first = await s.handlers['chat:send']({ conversationId: null, text: 'hi', model: MODEL });
    await settled(st, first.conversationId);
    expect(toolNames(st.bodies()[0])).toContain('echo');

    await s.handlers['mcp:set-tool']({ id: info.id, tool: 'echo', enabled: false });
    expect((await s.handlers['mcp:list']({}))[0]?.tools.find((t) => t.name === 'echo')).toMatchObject({ enabled: false, offeredAs: null });
    const second = await s.handlers['chat:send']({ conversationId: first.conversationId, text: 'again', model: MODEL });
    await settled(st, second.conversationId);
    expect(toolNames(st.bodies()[1])).not.toContain('echo');
    expect(toolNames(st.bodies()[1])).toContain('get-sum');

    const settings = await s.handlers['conversations:update-settings']({ conversationId: first.conversationId, systemPrompt: '', think: null, tools: false });
    expect(settings.tools).toBe(false);
    const third = await s.handlers['chat:send']({ conversationId: first.conversationId, text: 'no tools now', model: MODEL });
    await settled(st, third.conversationId);
    expect(st.bodies()[2]?.tools).toBeUndefined();

    // A disabled server offers nothing, and its process is stopped.
    await s.handlers['conversations:update-settings']({ conversationId: first.conversationId, systemPrompt: '', think: null, tools: true });
    const off = await s.handlers['mcp:set-enabled']({ id: info.id, enabled: false });
    expect(off.state).toBe('stopped');
    const fourth = await s.handlers['chat:send']({ conversationId: first.conversationId, text: 'tools back, server off', model: MODEL });
    await settled(st, fourth.conversationId);
    expect(toolNames(st.bodies()[3])).toEqual(['read_document', 'fetch_url', 'current_datetime']);
  });
});
