import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { StreamPart } from '../../../src/shared/parts';
import type { Turn } from '../../../src/shared/turn';
import { turnText } from '../../../src/shared/turn';
import { createServices, type Services } from '../../../src/main/services';
import { ollamaChatStream, ollamaRoutes } from '../../replay-server/ollama-wire';
import { servicesOnReplay } from '../engine/services-on-replay';

const app = servicesOnReplay('firebrand-chat-');
let services: Services;
// Titles on, as in the app: one test holds the title lane's request to show a chat's next message does not wait on it.
beforeEach(() => {
  services = app.start({ chat: { titles: true } });
});
const { streamed, saved } = app;
const replay = () => app.replay;
const events = () => app.events();

describe('the chat service', () => {
  // Attachments audit #7: an edit sent every file of the message again; now those the user kept, and only the
  // message's own (places in it, so nothing else can be added), with or without words.
  it('edits a message with only the files kept, alone if the words go, and refuses one left with nothing', async () => {
    replay().setRoutes(ollamaRoutes(['Read.'], { delayMs: 1 }));
    const add = (name: string, text: string) => services.handlers['attachments:add']({ name, mime: 'text/plain', dataBase64: Buffer.from(text).toString('base64') });
    const [a, b] = [await add('a.txt', 'alpha notes'), await add('b.txt', 'beta notes')];
    const first = await services.handlers['chat:send']({ conversationId: null, text: 'Compare', model: 'llama3.2:3b', attachments: [a, b] });
    await saved(first.assistantTurn.id);
    const edited = await services.handlers['chat:edit-and-resend']({ turnId: first.userTurn.id, text: '', model: 'llama3.2:3b', keepAttachments: [1] });
    expect(edited.userTurn.blocks).toEqual([expect.objectContaining({ type: 'attachment', name: 'b.txt' })]);
    await saved(edited.assistantTurn.id);
    expect(() => services.handlers['chat:edit-and-resend']({ turnId: first.userTurn.id, text: ' ', model: 'llama3.2:3b', keepAttachments: [] })).toThrow('Type a message or keep a file first.');
    const all = await services.handlers['chat:edit-and-resend']({ turnId: first.userTurn.id, text: 'Again', model: 'llama3.2:3b', keepAttachments: [0, 1, 7] });
    expect(all.userTurn.blocks.map((x: Turn['blocks'][number]) => (x.type === 'attachment' ? x.name : x.type))).toEqual(['text', 'a.txt', 'b.txt']);
    await saved(all.assistantTurn.id);
  });

  // A file forgotten when the message was sent: the edit could drop files but not add one, and the user started over.
  it('edits a message with a file added: the resent message holds the files kept, then those added, and the answer reads them', async () => {
    replay().setRoutes(ollamaRoutes(['Read.'], { delayMs: 1 }));
    const add = (name: string, text: string) => services.handlers['attachments:add']({ name, mime: 'text/plain', dataBase64: Buffer.from(text).toString('base64') });
    const [a, b, c] = [await add('a.txt', 'alpha notes'), await add('b.txt', 'beta notes'), await add('c.txt', 'gamma notes, forgotten')];
    const first = await services.handlers['chat:send']({ conversationId: null, text: 'Compare', model: 'llama3.2:3b', attachments: [a, b] });
    await saved(first.assistantTurn.id);
    const edited = await services.handlers['chat:edit-and-resend']({ turnId: first.userTurn.id, text: 'Compare all', model: 'llama3.2:3b', keepAttachments: [1], attachments: [c] });
    const names = (t: Turn) => t.blocks.map((x) => (x.type === 'attachment' ? x.name : x.type));
    expect(names(edited.userTurn)).toEqual(['text', 'b.txt', 'c.txt']);
    await saved(edited.assistantTurn.id);
    const view = await services.handlers['conversations:open']({ conversationId: first.conversationId });
    expect(names(view.turns.find((t) => t.id === edited.userTurn.id)!)).toEqual(['text', 'b.txt', 'c.txt']);
    const body = JSON.parse(replay().requests.find((r) => r.path === '/api/chat' && r.body.includes('Compare all'))?.body ?? '{}') as { messages?: { role: string; content: string }[] };
    const user = body.messages?.filter((m) => m.role === 'user').at(-1)?.content ?? '';
    expect(user).toContain('beta notes');
    expect(user).toContain('gamma notes, forgotten');
    expect(user).not.toContain('alpha notes');
    // Kept and added together stay within what one message may carry.
    const many = Array.from({ length: 31 }, () => c);
    expect(() => services.handlers['chat:edit-and-resend']({ turnId: first.userTurn.id, text: 'Too many', model: 'llama3.2:3b', attachments: many })).toThrow('A message can carry at most 32 files; this one would have 33.');
  });

  it('streams an answer part by part, persists it, and sends the history on the next message', async () => {
    replay().setRoutes(ollamaRoutes(['Hello', ' from', ' Ollama.'], { delayMs: 5 }));
    const first = await services.handlers['chat:send']({ conversationId: null, text: 'Hi', model: 'llama3.2:3b' });
    const turn = await saved(first.assistantTurn.id);
    expect(turn).toMatchObject({ status: 'done', stop: 'end_turn', wireReason: 'stop', usage: { inputTokens: 26, outputTokens: 3 } });
    expect(turnText(turn)).toBe('Hello from Ollama.');
    const deltas = events().flatMap((e) => (e.channel === 'chat:turn-parts' ? (e.payload as { parts: { type: string }[] }).parts : [])).filter((p) => p.type === 'text-delta');
    expect(deltas.length).toBe(3);

    const view = await services.handlers['conversations:open']({ conversationId: first.conversationId });
    expect(view.turns.map((t) => [t.role, turnText(t), t.status])).toEqual([
      ['user', 'Hi', 'done'],
      ['assistant', 'Hello from Ollama.', 'done'],
    ]);

    const second = await services.handlers['chat:send']({ conversationId: first.conversationId, text: 'And again?', model: 'llama3.2:3b' });
    await saved(second.assistantTurn.id);
    // The title lane asks /api/chat too after the first answer: pick the request that carried the second message.
    const body = JSON.parse(replay().requests.filter((r) => r.path === '/api/chat' && r.body.includes('And again?'))[0]?.body ?? '{}') as { messages: { role: string; content: string }[] };
    expect(body.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'Hi'],
      ['assistant', 'Hello from Ollama.'],
      ['user', 'And again?'],
    ]);
  });

  it('stops on request, keeping the partial answer as aborted', async () => {
    const tokens = Array.from({ length: 200 }, (_, i) => `w${i} `);
    // Held after 10 lines and never let go: still streaming when the stop comes, however busy the machine.
    replay().setRoutes([{ method: 'POST', path: '/api/chat', body: ollamaChatStream(tokens), chunk: 'lines', delayMs: 20, holdAfterChunks: 10 }]);
    const sent = await services.handlers['chat:send']({ conversationId: null, text: 'Count', model: 'm' });
    await expect.poll(streamed).toBe(tokens.slice(0, 10).join(''));
    expect(await services.handlers['chat:stop']({ turnId: sent.assistantTurn.id })).toEqual({ stopped: true });
    const turn = await saved(sent.assistantTurn.id);
    expect(turn.status).toBe('aborted');
    // Exactly what arrived before the stop is kept.
    expect(turnText(turn)).toBe(tokens.slice(0, 10).join(''));
  });

  // Turns audit #6: a chat deleted while its answer streamed kept the request open, so the server went on generating
  // an answer nobody could see or stop, and on a one-slot server the user's next message waited behind it.
  it('stops the answer of a conversation that is deleted for good', async () => {
    const tokens = Array.from({ length: 200 }, (_, i) => `w${i} `);
    replay().setRoutes([{ method: 'POST', path: '/api/chat', body: ollamaChatStream(tokens), chunk: 'lines', delayMs: 20, holdAfterChunks: 10 }]);
    const sent = await services.handlers['chat:send']({ conversationId: null, text: 'Count', model: 'm' });
    await expect.poll(streamed).toBe(tokens.slice(0, 10).join(''));
    expect(await services.handlers['conversations:delete']({ conversationId: sent.conversationId })).toEqual({ deleted: true });
    await expect.poll(() => services.chat.activeCount).toBe(0);
    expect(await services.handlers['conversations:list']({})).toEqual([]);
  });

  it('gives up a stalled stream as cut, with a message, keeping what arrived', async () => {
    replay().setRoutes([{ method: 'POST', path: '/api/chat', body: ollamaChatStream(['Half', ' an'], 'm', { done: false }), hang: true }]);
    // The server truly stops; the limit is long enough that the two tokens sent first are read first when busy.
    const local = createServices({ dataDir: join(app.dir, 'stall'), ollamaUrl: replay().url, stallTimeoutMs: 1_500, log: () => {} });
    const before = events().length;
    app.record(local);
    try {
      const sent = await local.handlers['chat:send']({ conversationId: null, text: 'Hi', model: 'm' });
      const turn = await saved(sent.assistantTurn.id);
      expect(events().length).toBeGreaterThan(before);
      expect(turn.status).toBe('cut');
      expect(turnText(turn)).toBe('Half an');
      expect(turn.error).toContain('stopped sending for too long');
    } finally {
      local.close();
    }
  });

  // Resilience audit R3: serve mode open in two tabs on one chat, each sending while the other's answer streamed.
  // The second message went under the answer still streaming: the model got both messages as one, with no answer
  // between them, and the saved tree said otherwise.
  it('refuses a second message, a regenerate or an edit in a chat whose answer is still on its way; not while its title is written', async () => {
    const tokens = Array.from({ length: 40 }, (_, i) => `w${i} `);
    replay().setRoutes([
      // The title lane's request never ends: the chat's next message must not wait for it.
      { method: 'POST', path: '/api/chat', body: '', hang: true, when: (body) => body.includes('Write a title') },
      { method: 'POST', path: '/api/chat', body: ollamaChatStream(['Here.']), when: (body) => body.includes('Elsewhere') },
      { method: 'POST', path: '/api/chat', body: ollamaChatStream(tokens), chunk: 'lines', delayMs: 5, holdAfterChunks: 5 },
    ]);
    const first = await services.handlers['chat:send']({ conversationId: null, text: 'From tab A', model: 'm' });
    await expect.poll(streamed).toBe(tokens.slice(0, 5).join(''));
    const refused = /An answer is still being written in this chat \(perhaps in another window\)/;
    expect(() => services.handlers['chat:send']({ conversationId: first.conversationId, text: 'From tab B', model: 'm' })).toThrow(refused);
    expect(() => services.handlers['chat:regenerate']({ turnId: first.assistantTurn.id, model: 'm' })).toThrow(refused);
    expect(() => services.handlers['chat:edit-and-resend']({ turnId: first.userTurn.id, text: 'Edited in tab B', model: 'm' })).toThrow(refused);
    // Refused as busy: the refused page takes its notice away once the answer ends (chat:answer-ended, below).
    expect(() => services.handlers['chat:send']({ conversationId: first.conversationId, text: 'From tab B', model: 'm' })).toThrow(expect.objectContaining({ code: 'busy' }));
    const ended = () => events().filter((e) => e.channel === 'chat:answer-ended').map((e) => e.payload);
    // Another chat is not held up by it.
    const other = await services.handlers['chat:send']({ conversationId: null, text: 'Elsewhere', model: 'm' });
    expect(ended()).not.toContainEqual({ conversationId: first.conversationId });
    replay().release();
    await saved(first.assistantTurn.id);
    await saved(other.assistantTurn.id);
    await expect.poll(ended).toEqual(expect.arrayContaining([{ conversationId: first.conversationId }, { conversationId: other.conversationId }]));
    // Nothing of tab B's reached the tree or the server.
    const view = await services.handlers['conversations:open']({ conversationId: first.conversationId });
    expect(view.turns.map((t) => [t.role, t.status])).toEqual([
      ['user', 'done'],
      ['assistant', 'done'],
    ]);
    expect(replay().requests.some((r) => r.body.includes('tab B'))).toBe(false);
    // Once the answer is in, the next message goes at once, while the title is still being written.
    await expect.poll(() => replay().requests.filter((r) => r.body.includes('Write a title')).length).toBeGreaterThan(0);
    const next = await services.handlers['chat:send']({ conversationId: first.conversationId, text: 'From tab B, again', model: 'm' });
    expect(next.userTurn.parentId).toBe(first.assistantTurn.id);
    replay().release();
    await saved(next.assistantTurn.id);
  });

  // Resilience audit R8: a chat opened mid-answer got the database's copy (written every half second), so the
  // parts streamed since that write never reached the page: the answer showed a hole until it ended.
  it('opens a chat mid-answer with the answer as streamed so far and the number of parts it holds', async () => {
    const tokens = Array.from({ length: 40 }, (_, i) => `w${i} `);
    replay().setRoutes([{ method: 'POST', path: '/api/chat', body: ollamaChatStream(tokens), chunk: 'lines', delayMs: 5, holdAfterChunks: 7 }]);
    const sent = await services.handlers['chat:send']({ conversationId: null, text: 'Count', model: 'm' });
    await expect.poll(streamed).toBe(tokens.slice(0, 7).join(''));
    const view = await services.handlers['conversations:open']({ conversationId: sent.conversationId });
    const answer = view.turns.find((t) => t.id === sent.assistantTurn.id);
    expect(answer?.status).toBe('streaming');
    expect(turnText(answer!)).toBe(tokens.slice(0, 7).join(''));
    // Every part sent so far is in it, and the parts that follow say where they start.
    const batches = events().flatMap((e) => (e.channel === 'chat:turn-parts' ? [e.payload as { from: number; parts: StreamPart[] }] : []));
    const sentParts = batches.reduce((n, b) => n + b.parts.length, 0);
    expect(view.streamed).toEqual({ [sent.assistantTurn.id]: sentParts });
    expect(batches.map((b) => b.from)).toEqual(batches.map((_, i) => batches.slice(0, i).reduce((n, b) => n + b.parts.length, 0)));
    replay().release();
    await saved(sent.assistantTurn.id);
    // Once it ended, the saved copy is the one read.
    const after = await services.handlers['conversations:open']({ conversationId: sent.conversationId });
    expect(after.streamed).toBeUndefined();
    expect(turnText(after.turns.at(-1)!)).toBe(tokens.join(''));
  });

  it('turns a server error status into an error turn with the server message', async () => {
    replay().setRoutes([{ method: 'POST', path: '/api/chat', status: 500, body: '{"error":"llama runner process has terminated: exit status 2"}' }]);
    const sent = await services.handlers['chat:send']({ conversationId: null, text: 'Hi', model: 'm' });
    const turn = await saved(sent.assistantTurn.id);
    expect(turn.status).toBe('error');
    expect(turn.error).toContain('llama runner process has terminated');
  });
});
