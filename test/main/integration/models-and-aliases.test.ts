/**
 * Gaps 2 and 3: the model list carries what `/api/show` says (capabilities, trained context) without failing
 * when it cannot; a message sent under an alias goes through its layer, or under its own name once it is an
 * Ollama model in sync (the system prompt then lives in Ollama and is not said twice).
 */
import { describe, expect, it } from 'vitest';
import { ShowCache } from '../../../src/main/models/show-cache';
import { TAGS_BODY } from '../../replay-server/ollama-wire';
import { startReplayServer } from '../../replay-server/replay-server';
import { chatBodies, fixture, ollama, servicesSuite, settle } from './helpers';

const suite = servicesSuite();

function tagsWith(name: string, digest: string): string {
  const tags = JSON.parse(TAGS_BODY) as { models: Record<string, unknown>[] };
  return JSON.stringify({ models: [...tags.models, { ...tags.models[0], name, model: name, digest }] });
}

describe('one /api/show per model', () => {
  it('the engine reads the capabilities the model list already fetched, without asking the server again', async () => {
    suite.replay.setRoutes(ollama([{ method: 'POST', path: '/api/show', body: fixture('ollama-models/show-qwen3-14b.json') }]));
    const t = suite.start();
    await t.services.handlers['models:list']({});
    const shows = () => suite.replay.requests.filter((r) => r.path === '/api/show' && r.body.includes('qwen3:8b')).length;
    expect(shows()).toBe(1);
    const sent = await t.services.handlers['chat:send']({ conversationId: null, text: 'Hi', model: 'qwen3:8b' });
    await settle(t.services, sent.conversationId);
    expect(shows()).toBe(1);
  });
});

describe('models:list', () => {
  it('fills capabilities and the trained context from /api/show, asked once per model and cached', async () => {
    suite.replay.setRoutes(ollama([{ method: 'POST', path: '/api/show', body: fixture('ollama-models/show-qwen3-14b.json') }]));
    const t = suite.start();
    const list = await t.services.handlers['models:list']({});
    expect(list.map((m) => m.name)).toEqual(['llama3.2:3b', 'qwen3:8b']);
    for (const m of list) expect(m).toMatchObject({ capabilities: expect.arrayContaining(['thinking', 'tools']) as unknown, contextLength: 40_960 });
    await t.services.handlers['models:list']({});
    expect(suite.replay.requests.filter((r) => r.path === '/api/show')).toHaveLength(2);
  });

  it('lists the models with capabilities unknown when /api/show fails', async () => {
    suite.replay.setRoutes(ollama([{ method: 'POST', path: '/api/show', status: 500, body: '{"error":"boom"}' }]));
    const t = suite.start();
    const list = await t.services.handlers['models:list']({});
    expect(list.map((m) => [m.name, m.capabilities, m.contextLength])).toEqual([
      ['llama3.2:3b', undefined, undefined],
      ['qwen3:8b', undefined, undefined],
    ]);
  });

  it('gives up on a /api/show that hangs after its timeout, without caching the failure', async () => {
    suite.replay.setRoutes([{ method: 'POST', path: '/api/show', body: '', hang: true }]);
    const shows = new ShowCache();
    // The timeout given is the one that counts, shown without a clock: a 200 ms ask gives up while a 10-minute
    // ask of the same hanging server is still waiting (the default, 4 s, would end both long before that).
    let longSettled = false;
    const long = shows.get(suite.replay.url, 'other', 600_000).finally(() => (longSettled = true));
    expect(await shows.get(suite.replay.url, 'm', 200)).toBeNull();
    expect(longSettled).toBe(false);
    suite.replay.setRoutes([{ method: 'POST', path: '/api/show', body: fixture('ollama-models/show-gemma3-12b.json') }]);
    // Not cached: asked again, the server now answers (a generous timeout: only the hang above is timed).
    expect((await shows.get(suite.replay.url, 'm', 60_000))?.capabilities).toContain('vision');
    // The long ask ends when its server goes away.
    await suite.replay.close();
    expect(await long).toBeNull();
    suite.replay = await startReplayServer();
  });
});

describe('sending through an alias', () => {
  const coder = { name: 'coder', connectionId: 'ollama', model: 'llama3.2:3b', systemPrompt: 'Answer with code first.', parameters: { temperature: 0.2 }, thinkMode: 'off' as const, contextWindow: 8192 };

  it('applies the alias layer (system prompt → params → think → window) to its underlying model', async () => {
    suite.replay.setRoutes(ollama([{ method: 'POST', path: '/api/show', body: fixture('ollama-models/show-qwen3-14b.json') }]));
    const t = suite.start();
    const alias = await t.services.handlers['aliases:create'](coder);
    // The composer sends an alias as `alias:<id>` (models audit #1).
    expect(await t.services.handlers['models:context-window']({ model: `alias:${alias.id}` })).toEqual({ contextWindow: 8192, source: 'alias', reason: null });
    const sent = await t.services.handlers['chat:send']({ conversationId: null, text: 'Reverse a string', model: `alias:${alias.id}` });
    await settle(t.services, sent.conversationId);
    const body = chatBodies(suite.replay)[0];
    expect(body).toMatchObject({ model: 'llama3.2:3b', think: false, options: { temperature: 0.2, num_ctx: 8192 } });
    expect(body?.messages[0]).toEqual({ role: 'system', content: 'Answer with code first.' });
  });

  it('sends a materialized alias in sync under its own name, without adding its system prompt again', async () => {
    suite.replay.setRoutes(ollama([{ method: 'POST', path: '/api/create', body: '{"status":"success"}' }]));
    const t = suite.start();
    const alias = await t.services.handlers['aliases:create'](coder);
    // Created in Ollama, it is listed there under its own name (its own copy: no clash when it is edited).
    suite.replay.setRoutes(ollama([{ method: 'POST', path: '/api/create', body: '{"status":"success"}' }], tagsWith('coder:latest', 'c0de')));
    expect((await t.services.handlers['aliases:materialize']({ id: alias.id })).status).toBe('in-sync');
    expect((await t.services.handlers['aliases:update']({ id: alias.id, alias: { ...coder, systemPrompt: 'Code first.' } })).name).toBe('coder');
    await t.services.handlers['aliases:materialize']({ id: alias.id });
    const sent = await t.services.handlers['chat:send']({ conversationId: null, text: 'Reverse a string', model: `alias:${alias.id}` });
    await settle(t.services, sent.conversationId);
    const body = chatBodies(suite.replay)[0];
    expect(body).toMatchObject({ model: 'coder', options: { num_ctx: 8192 } });
    expect(body?.messages.map((m) => m.role)).toEqual(['user']);
  });

  it('refuses to create in Ollama an alias of another server’s model, asking Ollama nothing', async () => {
    suite.replay.setRoutes(ollama([{ method: 'POST', path: '/api/create', body: '{"status":"success"}' }]));
    const t = suite.start();
    t.services.db.prepare(
      "INSERT INTO model_aliases (id, name, connection_id, model, created_at, updated_at) VALUES ('ls', 'brief', 'lan-box', 'other.gguf', 1, 1)",
    ).run();
    await expect(t.services.handlers['aliases:materialize']({ id: 'ls' })).rejects.toThrow('Only an alias of an Ollama model can be created in Ollama');
    expect(suite.replay.requests.filter((r) => r.path === '/api/create')).toEqual([]);
  });

  it('reads an alias saved with the Ollama address as its connection as the built-in Ollama connection', async () => {
    suite.replay.setRoutes(ollama());
    const t = suite.start();
    t.services.db.prepare(
      "INSERT INTO model_aliases (id, name, connection_id, model, created_at, updated_at) VALUES ('old', 'legacy', 'http://127.0.0.1:11434', 'llama3.2:3b', 1, 1)",
    ).run();
    expect((await t.services.handlers['aliases:list']({})).find((a) => a.id === 'old')?.connectionId).toBe('ollama');
    const sent = await t.services.handlers['chat:send']({ conversationId: null, text: 'Hi', model: 'alias:old' });
    expect((await settle(t.services, sent.conversationId)).at(-1)?.status).toBe('done');
    expect(chatBodies(suite.replay)[0]?.model).toBe('llama3.2:3b');
  });
});

describe('an alias and the models of its connection (models audit #1, #6)', () => {
  const small = { name: 'small', connectionId: 'ollama', model: 'llama3.2:3b', systemPrompt: '', parameters: {}, thinkMode: 'off' as const, contextWindow: 6000 };

  it('refuses an alias named like a model of its connection, with or without :latest, at create and at rename', async () => {
    suite.replay.setRoutes(ollama([], tagsWith('coder:latest', 'c0de')));
    const t = suite.start();
    const refused = (p: Promise<unknown>) => p.then(() => 'saved', (err: Error) => err.message);
    expect(await refused(Promise.resolve(t.services.handlers['aliases:create']({ ...small, name: 'qwen3:8b' })))).toBe(
      '“qwen3:8b” is already the name of a model on Ollama (qwen3:8b): an alias of that name would hide it. Choose another name.',
    );
    expect(await refused(Promise.resolve(t.services.handlers['aliases:create']({ ...small, name: 'coder' })))).toContain('(coder:latest)');
    const alias = await t.services.handlers['aliases:create'](small);
    expect(await refused(Promise.resolve(t.services.handlers['aliases:update']({ id: alias.id, alias: { ...small, name: 'qwen3:8b' } })))).toContain('would hide it');
    expect((await t.services.handlers['aliases:list']({})).map((a) => a.name)).toEqual(['small']);
  });

  it('refuses an alias named like a model of its connection in another case, which Create in Ollama would write over (second models audit #1)', async () => {
    suite.replay.setRoutes(ollama());
    const t = suite.start();
    const refused = (p: Promise<unknown>) => p.then(() => 'saved', (err: Error) => err.message);
    expect(await refused(Promise.resolve(t.services.handlers['aliases:create']({ ...small, name: 'Qwen3:8B' })))).toBe(
      '“Qwen3:8B” is already the name of a model on Ollama (qwen3:8b): an alias of that name would hide it. Choose another name.',
    );
    const alias = await t.services.handlers['aliases:create'](small);
    expect(await refused(Promise.resolve(t.services.handlers['aliases:update']({ id: alias.id, alias: { ...small, name: 'LLAMA3.2:3b' } })))).toContain('would hide it');
    expect((await t.services.handlers['aliases:list']({})).map((a) => a.name)).toEqual(['small']);
  });

  it('sends a model picked by name to that model even where an older alias has its name', async () => {
    suite.replay.setRoutes(ollama());
    const t = suite.start();
    // Made before such names were refused.
    t.services.db.prepare("INSERT INTO model_aliases (id, name, connection_id, model, context_window, created_at, updated_at) VALUES ('clash', 'qwen3:8b', 'ollama', 'llama3.2:3b', 4096, 1, 1)").run();
    const sent = await t.services.handlers['chat:send']({ conversationId: null, text: 'Hi', model: 'qwen3:8b' });
    await settle(t.services, sent.conversationId);
    expect(chatBodies(suite.replay)[0]?.model).toBe('qwen3:8b');
    const viaAlias = await t.services.handlers['chat:send']({ conversationId: sent.conversationId, text: 'Again', model: 'alias:clash' });
    await settle(t.services, sent.conversationId);
    expect(chatBodies(suite.replay)[1]).toMatchObject({ model: 'llama3.2:3b', options: { num_ctx: 4096 } });
    expect(viaAlias.assistantTurn).toMatchObject({ model: 'qwen3:8b', meta: { aliasId: 'clash' } });
  });

  it('labels an answer with the alias’s name and keeps its id, so a renamed alias still routes the chat', async () => {
    suite.replay.setRoutes(ollama());
    const t = suite.start();
    const alias = await t.services.handlers['aliases:create'](small);
    const sent = await t.services.handlers['chat:send']({ conversationId: null, text: 'Hi', model: `alias:${alias.id}` });
    expect(sent.assistantTurn).toMatchObject({ model: 'small', meta: { aliasId: alias.id } });
    await settle(t.services, sent.conversationId);
    await t.services.handlers['aliases:update']({ id: alias.id, alias: { ...small, name: 'tiny' } });
    const again = await t.services.handlers['chat:send']({ conversationId: sent.conversationId, text: 'Again', model: `alias:${alias.id}` });
    await settle(t.services, sent.conversationId);
    expect(again.assistantTurn).toMatchObject({ model: 'tiny', meta: { aliasId: alias.id } });
    expect(chatBodies(suite.replay)[1]).toMatchObject({ model: 'llama3.2:3b', options: { num_ctx: 6000 } });
    const regenerated = await t.services.handlers['chat:regenerate']({ turnId: again.assistantTurn.id, model: `alias:${alias.id}` });
    expect(regenerated.assistantTurn).toMatchObject({ model: 'tiny', meta: { aliasId: alias.id } });
    await settle(t.services, sent.conversationId);
    // Deleted since it was picked: the answer says so, and nothing is asked of the server under `alias:<id>`.
    await t.services.handlers['aliases:delete']({ id: alias.id });
    const requests = chatBodies(suite.replay).length;
    await t.services.handlers['chat:send']({ conversationId: sent.conversationId, text: 'Once more', model: `alias:${alias.id}` });
    const turns = await settle(t.services, sent.conversationId);
    expect(turns.at(-1)).toMatchObject({ status: 'error', error: 'The alias chosen for this message no longer exists: choose another model and send again.' });
    expect(chatBodies(suite.replay)).toHaveLength(requests);
  });
});

describe('conversation settings (the third identity layer)', () => {
  it('a new chat starts with its system prompt and think mode; later changes apply to the next message', async () => {
    suite.replay.setRoutes(ollama([{ method: 'POST', path: '/api/show', body: fixture('ollama-models/show-qwen3-14b.json') }]));
    const t = suite.start();
    const { id } = await t.services.handlers['aliases:create']({ name: 'coder', connectionId: 'ollama', model: 'qwen3:8b', systemPrompt: 'Code first.', parameters: {}, thinkMode: 'on', contextWindow: null });
    const sent = await t.services.handlers['chat:send']({ conversationId: null, text: 'Hi', model: `alias:${id}`, conversationSettings: { systemPrompt: 'Be terse.', think: 'off' } });
    await settle(t.services, sent.conversationId);
    expect(await t.services.handlers['conversations:get-settings']({ conversationId: sent.conversationId })).toEqual({ systemPrompt: 'Be terse.', think: 'off', tools: true });
    let body = chatBodies(suite.replay)[0];
    // App default → alias → conversation: prompts joined in order, the conversation's think mode wins.
    expect(body?.messages[0]).toEqual({ role: 'system', content: 'Code first.\n\nBe terse.' });
    expect(body?.think).toBe(false);

    await t.services.handlers['conversations:update-settings']({ conversationId: sent.conversationId, systemPrompt: '', think: null });
    await t.services.handlers['chat:send']({ conversationId: sent.conversationId, text: 'Again', model: `alias:${id}` });
    await settle(t.services, sent.conversationId);
    body = chatBodies(suite.replay)[1];
    expect(body?.messages[0]).toEqual({ role: 'system', content: 'Code first.' });
    expect(body?.think).toBe(true);
  });
});
