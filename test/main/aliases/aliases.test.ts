import { readFileSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aliasFromModel, createBody } from '../../../src/main/aliases/alias-create-body';
import { AliasStore } from '../../../src/main/aliases/alias-store';
import { materializeAlias, refreshAliasStatuses } from '../../../src/main/aliases/alias-sync';
import { migrate } from '../../../src/main/db/open-database';
import { MIGRATIONS } from '../../../src/main/db/migrations';
import { ModelSettingsStore } from '../../../src/main/models/model-settings-store';
import { parseShow } from '../../../src/main/models/ollama-show';
import type { AliasInput } from '../../../src/shared/models';
import { startReplayServer, type ReplayServer } from '../../replay-server/replay-server';

const TAGS = JSON.parse(readFileSync(new URL('../../fixtures/ollama-api/tags.json', import.meta.url), 'utf8')) as { models: Record<string, unknown>[] };
const CODER: AliasInput = {
  name: 'coder',
  connectionId: 'ollama',
  model: 'qwen3:8b',
  systemPrompt: 'You are a careful senior engineer. Answer with code first.',
  parameters: { temperature: 0.2, top_p: 0.9, top_k: 40, num_predict: 2048, repeat_penalty: 1.1, seed: 42 },
  thinkMode: 'low',
  contextWindow: 16384,
};

function db() {
  const d = new BetterSqlite3(':memory:');
  migrate(d, MIGRATIONS);
  return d;
}
let n = 0;
const store = () => new AliasStore(db(), () => `alias-${++n}`, () => 1_000 + n);

function tagsWith(extra: { name: string; digest: string }[]): string {
  return JSON.stringify({ models: [...TAGS.models, ...extra.map((e) => ({ ...TAGS.models[1], name: e.name, model: e.name, digest: e.digest }))] });
}

let replay: ReplayServer;
beforeAll(async () => {
  replay = await startReplayServer();
});
afterAll(async () => {
  await replay.close();
});

describe('aliases', () => {
  it('produce this exact /api/create body', () => {
    expect(JSON.stringify(createBody(CODER))).toBe(
      '{"model":"coder","from":"qwen3:8b","system":"You are a careful senior engineer. Answer with code first.",' +
        '"parameters":{"temperature":0.2,"top_p":0.9,"top_k":40,"num_predict":2048,"repeat_penalty":1.1,"seed":42,"num_ctx":16384},"stream":false}',
    );
    expect(createBody({ ...CODER, systemPrompt: '  ', parameters: {}, contextWindow: null })).toEqual({ model: 'coder', from: 'qwen3:8b', stream: false });
  });

  it('are created, listed, edited and deleted in SQLite; names are unique', () => {
    const s = store();
    const a = s.create(CODER);
    expect(a).toMatchObject({ ...CODER, status: 'not-materialized', materializedDigest: null });
    expect(() => s.create(CODER)).toThrow(/already exists/);
    const edited = s.update(a.id, { ...CODER, thinkMode: 'high', parameters: { temperature: 0.7 } });
    expect(edited).toMatchObject({ thinkMode: 'high', parameters: { temperature: 0.7 } });
    expect(s.list().map((x) => x.name)).toEqual(['coder']);
    expect(s.delete(a.id)).toBe(true);
    expect(s.list()).toEqual([]);
    expect(() => s.require(a.id)).toThrow(/no longer exists/);
  });

  it('refuse a name that another alias has in another case or with :latest, as Ollama would take both for one model (second models audit #1)', () => {
    const s = store();
    const helper = s.create({ ...CODER, name: 'helper' });
    expect(() => s.create({ ...CODER, name: 'Helper' })).toThrow('An alias named “helper” already exists, and to Ollama “Helper” is the same name. Choose another name.');
    expect(() => s.create({ ...CODER, name: 'helper:latest' })).toThrow(/already exists/);
    const other = s.create({ ...CODER, name: 'other' });
    expect(() => s.update(other.id, { ...CODER, name: 'HELPER' })).toThrow(/already exists/);
    // The alias itself may change case, and an edit that keeps its name is saved.
    expect(s.update(helper.id, { ...CODER, name: 'Helper' }).name).toBe('Helper');
    expect(s.update(other.id, { ...CODER, name: 'other', thinkMode: 'high' }).thinkMode).toBe('high');
    expect(s.list().map((a) => a.name)).toEqual(['Helper', 'other']);
  });

  it('materialize with /api/create, then notice when the model changed or disappeared', async () => {
    const s = store();
    const a = s.create(CODER);
    replay.requests.length = 0;
    replay.setRoutes([
      { method: 'POST', path: '/api/create', body: '{"status":"success"}' },
      { path: '/api/tags', body: tagsWith([{ name: 'coder:latest', digest: 'd1' }]) },
    ]);
    const done = await materializeAlias(s, replay.url, a.id);
    expect(done).toMatchObject({ status: 'in-sync', materializedDigest: 'd1' });
    const create = replay.requests.find((r) => r.path === '/api/create');
    expect(create?.body).toBe(JSON.stringify(createBody(CODER)));

    replay.setRoutes([{ path: '/api/tags', body: tagsWith([{ name: 'coder:latest', digest: 'd2' }]) }]);
    expect((await refreshAliasStatuses(s, replay.url))[0]?.status).toBe('changed');
    replay.setRoutes([{ path: '/api/tags', body: tagsWith([]) }]);
    expect((await refreshAliasStatuses(s, replay.url))[0]?.status).toBe('missing');
    expect(s.get(a.id)?.status).toBe('missing');
  });

  it('an edit after materializing marks the alias as changed until materialized again', async () => {
    const s = store();
    const a = s.create(CODER);
    s.setMaterialized(a.id, 'd1', 'in-sync');
    expect(s.update(a.id, { ...CODER, systemPrompt: 'Be brief.' }).status).toBe('changed');
    replay.setRoutes([{ path: '/api/tags', body: tagsWith([{ name: 'coder:latest', digest: 'd1' }]) }]);
    expect((await refreshAliasStatuses(s, replay.url))[0]?.status).toBe('changed');
  });

  it('a failed create says what Ollama said', async () => {
    const s = store();
    const a = s.create({ ...CODER, model: 'nope:1b' });
    replay.setRoutes([{ method: 'POST', path: '/api/create', status: 404, body: '{"error":"model \'nope:1b\' not found"}' }]);
    await expect(materializeAlias(s, replay.url, a.id)).rejects.toThrow(/not found/);
    expect(s.get(a.id)?.status).toBe('not-materialized');
  });

  it('start from an existing model’s parameters and system prompt', () => {
    const show = JSON.parse(readFileSync(new URL('../../fixtures/ollama-models/show-qwen3-14b.json', import.meta.url), 'utf8')) as unknown;
    const draft = aliasFromModel(parseShow('qwen3:14b', show), 'qwen-precise', 'ollama');
    expect(draft).toEqual({
      name: 'qwen-precise',
      connectionId: 'ollama',
      model: 'qwen3:14b',
      systemPrompt: '',
      parameters: { temperature: 0.6, top_p: 0.95, top_k: 20, repeat_penalty: 1 },
      thinkMode: 'on',
      contextWindow: null,
    });
    const granite = JSON.parse(readFileSync(new URL('../../fixtures/ollama-models/show-granite4-tiny-h.json', import.meta.url), 'utf8')) as unknown;
    expect(aliasFromModel(parseShow('granite4:tiny-h', granite), 'g', 'c').systemPrompt).toContain('helpful assistant');
  });
});

describe('migration 0004 (aliases and context windows)', () => {
  it('keeps existing rows and adds the two tables', () => {
    const d = new BetterSqlite3(':memory:');
    migrate(d, MIGRATIONS.filter((m) => m.version <= 3));
    d.prepare("INSERT INTO settings (key, value) VALUES ('ollamaUrl', '\"http://10.0.0.2:11434\"')").run();
    migrate(d, MIGRATIONS);
    expect(d.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(4);
    expect(d.prepare("SELECT value FROM settings WHERE key = 'ollamaUrl'").get()).toEqual({ value: '"http://10.0.0.2:11434"' });
    const windows = new ModelSettingsStore(d, () => 5);
    expect(windows.setWindow('c', 'llama3.1:8b', { contextWindow: 43008, source: 'recommended' })).toBe(true);
    expect(windows.setWindow('c', 'llama3.1:8b', { contextWindow: 43008, source: 'user' })).toBe(false);
    expect(windows.setWindow('c', 'llama3.1:8b', { contextWindow: 32768, source: 'user' })).toBe(true);
    expect(windows.getWindow('c', 'llama3.1:8b')).toEqual({ contextWindow: 32768, source: 'user' });
    windows.setGpuOverride(12 * 1024 ** 3);
    expect(windows.gpuOverride()).toBe(12 * 1024 ** 3);
    windows.setGpuOverride(null);
    expect(windows.gpuOverride()).toBeNull();
  });
});
