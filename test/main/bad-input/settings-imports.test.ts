/**
 * Issue 9: settings, connections and imports with invalid values are refused with a message, and nothing is
 * half-written: the settings, the connection list and the database read the same before and after.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobStore } from '../../../src/main/blobs/blob-store';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { UserFacingError } from '../../../src/main/errors';
import { exportConversation, importConversation, serializeConversationFile } from '../../../src/main/export/conversation-io';
import { createServices, type Services } from '../../../src/main/services';
import { PNG } from '../blobs/fixtures';

let dir: string;
let services: Services;
const outcomes: string[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'firebrand-bad-settings-'));
  services = createServices({ dataDir: dir, log: () => {} });
});
afterEach(() => {
  services.close();
  rmSync(dir, { recursive: true, force: true });
});
afterAll(() => console.log(['', `settings/connections/import bad inputs: ${outcomes.length}`, ...outcomes].join('\n')));

async function refused(channel: 'settings:update' | 'connections:save', payload: unknown, message: RegExp, what: string): Promise<void> {
  const result = await services.dispatcher.dispatch(channel, payload);
  expect(result.ok, what).toBe(false);
  if (result.ok) return;
  expect(result.error.code, what).toBe('invalid-payload');
  expect(result.error.message, what).toMatch(message);
  outcomes.push(`  ${channel} ${what}: refused — ${result.error.message}`);
}

describe('settings and connections with invalid values', () => {
  it('refuses a bad Ollama address, writing none of the patch', async () => {
    const before = await services.handlers['settings:get']({});
    const schema = /^The Ollama address must be an address starting with http:\/\/ or https:\/\/\.$/;
    await refused('settings:update', { ollamaUrl: 'file:///etc/passwd' }, schema, 'file: URL');
    await refused('settings:update', { ollamaUrl: 'javascript:alert(1)' }, schema, 'javascript: URL');
    await refused('settings:update', { ollamaUrl: '' }, /^The Ollama address is empty\.$/, 'empty URL');
    await refused('settings:update', { theme: 'neon' }, /^The theme must be one of: light, dark, system\.$/, 'unknown theme');
    await refused('settings:update', { ollamaUrl: 'http://exa mple.com' }, /is not a valid address\. Use a full URL such as http:\/\/127\.0\.0\.1:11434/, 'URL with a space');
    await refused('settings:update', { ollamaUrl: 'http://127.0.0.1:99999' }, /is not a valid address/, 'port over 65535');
    await refused('settings:update', { ollamaUrl: 'http://admin:hunter2@127.0.0.1:11434' }, /API key in its own field/, 'credentials in the URL');
    await refused('settings:update', { theme: 'dark', ollamaUrl: 'http://[::1' }, /is not a valid address/, 'good theme + bad URL in one patch');
    expect(await services.handlers['settings:get']({})).toEqual(before);
    expect(await services.dispatcher.dispatch('settings:update', { ollamaUrl: 'http://10.0.0.5:11434' })).toMatchObject({ ok: true, value: { ollamaUrl: 'http://10.0.0.5:11434' } });
  });

  it('refuses a bad connection kind or address; the list is unchanged', async () => {
    const before = await services.handlers['connections:list']({});
    const schema = /^The server address must be an address starting with http:\/\/ or https:\/\/\.$/;
    await refused('connections:save', { kind: 'evil', label: 'x', baseUrl: 'http://127.0.0.1:8080' }, /^The kind must be one of: ollama, llama-server/, 'unknown kind');
    await refused('connections:save', { kind: 'llama-server', label: 'x', baseUrl: 'javascript:alert(1)' }, schema, 'javascript: URL');
    await refused('connections:save', { kind: 'llama-server', label: 'x', baseUrl: 'ftp://127.0.0.1' }, schema, 'ftp: URL');
    await refused('connections:save', { kind: 'llama-server', label: 'x', baseUrl: 'http://' }, /is not a valid address/, 'http:// with no host');
    await refused('connections:save', { kind: 'anthropic', label: 'x', baseUrl: 'https://api.anthropic.com /v1', apiKey: 'k' }, /is not a valid address/, 'URL with a space');
    await refused('connections:save', { kind: 'openai-compatible', label: 'x', baseUrl: 'https://u:p@gpu.lan:8000' }, /API key in its own field/, 'credentials in the URL');
    await refused('connections:save', { kind: 'ollama', label: 'x', baseUrl: 'http://127.0.0.1:1', id: 'ollama' }, /Change the Ollama address in Settings/, 'overwrite the built-in');
    expect(await services.handlers['connections:list']({})).toEqual(before);
    // A refused save with a key stored no key either.
    expect(services.db.prepare("SELECT count(*) AS n FROM settings WHERE key = 'engine.connections'").get()).toEqual({ n: 0 });
  });
});

describe('imports of invalid files', () => {
  async function validExport(): Promise<string> {
    const store = new ConversationStore(services.db);
    const blobs = new BlobStore(services.db, dir);
    const png = await blobs.put(PNG, { name: 'chart.png', mime: 'image/png' }, 1);
    store.createConversation('c', 'Chart', 'llava', 1);
    store.appendTurn({ id: 'u1', conversationId: 'c', parentId: null, role: 'user', blocks: [{ type: 'text', text: 'What is it?' }, png], meta: {}, status: 'done', createdAt: 2 }, 2);
    store.appendTurn({ id: 'a1', conversationId: 'c', parentId: 'u1', role: 'assistant', blocks: [{ type: 'text', text: 'A chart.' }], meta: {}, status: 'done', createdAt: 3 }, 3);
    const text = serializeConversationFile(exportConversation({ db: services.db, store, blobs }, 'c', 4));
    store.deleteConversation('c');
    return text;
  }

  it('refuses each bad file with a message and writes no row', async () => {
    const good = await validExport();
    const parsed = JSON.parse(good) as Record<string, unknown> & { turns: Record<string, unknown>[]; blobs: Record<string, { base64: string }> };
    const mutate = (f: (o: typeof parsed) => void): string => {
      const copy = JSON.parse(good) as typeof parsed;
      f(copy);
      return JSON.stringify(copy);
    };
    const digest = Object.keys(parsed.blobs)[0] ?? '';
    const cases: [string, string, RegExp][] = [
      // Said to be cut short (it was "not valid JSON", as for any other file).
      ['truncated in the middle', good.slice(0, Math.floor(good.length / 2)), /it starts as a Firebrand export but is cut short or damaged/],
      ['truncated by one byte', good.slice(0, -1), /it starts as a Firebrand export but is cut short or damaged/],
      ['a picture', '\u0089PNG\r\n\u001a\n', /it is not a conversation export; Firebrand imports the \.firebrand\.json files that Export/],
      ['empty file', '', /it is not a conversation export/],
      ['not an export', '{"hello":"world"}', /it is not a conversation export/],
      // Export audit #3: said "not valid JSON", which did not say which file to import instead.
      ['a Markdown export', '# Chart\n\n## You\n\nWhat is it?\n', /it is a Markdown export, which is for reading; import the conversation’s \.firebrand\.json export instead/],
      ['from a newer Firebrand', mutate((o) => (o['version'] = 99)), /exported by a newer version of Firebrand \(format 99/],
      ['attachment bytes that do not match their digest', mutate((o) => { const b = o.blobs[digest]; if (b) b.base64 = Buffer.from('tampered').toString('base64'); }), /bytes do not match its digest/],
      ['missing attachment bytes', mutate((o) => (o.blobs = {})), /the bytes of attachment “chart\.png” are missing/],
      ['a turn of another conversation', mutate((o) => { const t = o.turns[1]; if (t) t['conversationId'] = 'other'; }), /belongs to another conversation/],
      ['a parent cycle', mutate((o) => { const t = o.turns[0]; if (t) t['parentId'] = 'a1'; }), /./],
      ['an unknown status', mutate((o) => { const t = o.turns[1]; if (t) t['status'] = 'pwned'; }), /has an unknown status/],
      ['a block of unknown type', mutate((o) => { const t = o.turns[1]; if (t) t['blocks'] = [{ type: 'html', html: '<script>alert(1)</script>' }]; }), /has malformed content/],
    ];
    const store = new ConversationStore(services.db);
    const blobs = new BlobStore(services.db, dir);
    const count = () => services.db.prepare('SELECT (SELECT count(*) FROM conversations) AS c, (SELECT count(*) FROM turns) AS t').get();
    const before = count();
    let n = 0;
    for (const [what, text, message] of cases) {
      const err = await importConversation({ db: services.db, store, blobs, newId: () => `n${++n}` }, text, 5).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err, what).toBeInstanceOf(UserFacingError);
      expect((err as UserFacingError).message, what).toMatch(message);
      expect(count(), what).toEqual(before);
      outcomes.push(`  import ${what}: refused — ${(err as UserFacingError).message}`);
    }
    // The untouched file still imports: the refusals were about the files, not a broken importer.
    await expect(importConversation({ db: services.db, store, blobs, newId: () => `n${++n}` }, good, 6)).resolves.toMatchObject({ conversationId: 'c' });
  });
});
