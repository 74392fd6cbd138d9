/**
 * Issue 9, secrets: after a session that used an API key (answers, a tool call, an error whose body echoes the
 * key back, the connection test), the key is in none of: the step records, the stored request bodies, any file
 * in the data folder, the logs, the IPC views, the JSON export or the Markdown export. Complements the
 * sentinel test in test/main/engine/engine-extras.test.ts (database, data folder, logs) with exports and with a
 * server that echoes the key.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobStore } from '../../../src/main/blobs/blob-store';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { exportConversation, serializeConversationFile } from '../../../src/main/export/conversation-io';
import { branchToMarkdown } from '../../../src/main/export/markdown';
import { createServices, type Services } from '../../../src/main/services';
import { startReplayServer, type ReplayServer } from '../../replay-server/replay-server';
import { CASES, openaiText, script } from '../engine/helpers';

const SENTINEL = 'sk-SENTINEL-issue9-4b7e1d0c9a';
let dir: string;
let services: Services | undefined;
let replay: ReplayServer | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'firebrand-secret-'));
});
afterEach(async () => {
  services?.close();
  services = undefined;
  await replay?.close();
  replay = undefined;
  rmSync(dir, { recursive: true, force: true });
});

function allFiles(root: string): string[] {
  return readdirSync(root).flatMap((name) => {
    const p = join(root, name);
    return statSync(p).isDirectory() ? allFiles(p) : [p];
  });
}

/** Until no answer runs (chat:send counts its answer as running before it returns). */
async function settle(s: Services): Promise<void> {
  await expect.poll(() => s.chat.activeCount).toBe(0);
}

describe('an API key after a whole session', () => {
  it('is sent only as a header: never in records, bodies, files, logs, views or exports', async () => {
    replay = await startReplayServer();
    const logs: string[] = [];
    const kit = CASES.find((c) => c.kind === 'llama-server');
    if (!kit) throw new Error('no llama-server case');
    services = createServices({ dataDir: dir, log: (m) => logs.push(m), chat: { tools: kit.tools, titles: true, retryDelayMs: 10 } });
    const conn = await services.handlers['connections:save']({ kind: 'llama-server', label: 'gpu box', baseUrl: replay.url, apiKey: SENTINEL });
    // A server that echoes the key it was given in its error (some proxies and gateways do).
    const echo = JSON.stringify({ error: { code: 401, message: `Invalid API key: Bearer ${SENTINEL}`, type: 'authentication_error' } });
    const run = script(replay, join(dir, 'firebrand.db'), [...kit.probes, { path: '/health', body: '{"status":"ok"}' }, { path: '/v1/models', body: '{"data":[{"id":"m"}]}' }], kit.chatPath, [
      { body: kit.toolCall },
      { body: openaiText(['Sunny in Paris.']) },
      { body: openaiText(['Paris weather']) },
      { status: 401, body: echo },
    ]);
    const first = await services.handlers['chat:send']({ conversationId: null, text: 'Weather?', model: 'm', connectionId: conn.id });
    await settle(services);
    await expect.poll(async () => (await services!.handlers['conversations:list']({}))[0]?.title).toBe('Paris weather');
    await services.handlers['chat:send']({ conversationId: first.conversationId, text: 'Again?', model: 'm', connectionId: conn.id });
    await settle(services);
    expect(run.count()).toBe(4);
    expect(await services.handlers['connections:test']({ id: conn.id })).toMatchObject({ ok: true });

    // Every request carried the key as its header, and only there.
    expect(replay.requests.every((r) => r.headers['authorization'] === `Bearer ${SENTINEL}`)).toBe(true);
    for (const r of replay.requests) expect(r.body).not.toContain(SENTINEL);

    const view = await services.handlers['conversations:open']({ conversationId: first.conversationId });
    const failed = view.turns.at(-1);
    expect(failed?.status).toBe('error');
    expect(failed?.error).toContain('Invalid API key: [redacted] (HTTP 401)');

    const store = new ConversationStore(services.db);
    const blobs = new BlobStore(services.db, dir);
    const exported = serializeConversationFile(exportConversation({ db: services.db, store, blobs }, first.conversationId, Date.now()));
    const markdown = branchToMarkdown(view.conversation.title, view.turns);
    expect(markdown).toContain('Sunny in Paris.');
    services.db.pragma('wal_checkpoint(TRUNCATE)');
    const places: [string, string][] = [
      ['steps', JSON.stringify(services.db.prepare('SELECT * FROM steps').all())],
      ['request bodies', JSON.stringify(services.db.prepare('SELECT * FROM request_bodies').all())],
      ['settings table', JSON.stringify(services.db.prepare('SELECT * FROM settings').all())],
      ['logs', logs.join('\n')],
      ['conversation view', JSON.stringify(view)],
      ['connections list', JSON.stringify(await services.handlers['connections:list']({}))],
      ['JSON export', exported],
      ['Markdown export', markdown],
      // secrets.json is where serve mode keeps keys by design (DESIGN.md §8: a 0600 file); checked below.
      ...allFiles(dir)
        .filter((f) => !f.endsWith('secrets.json'))
        .map((f): [string, string] => [f, readFileSync(f).toString('latin1')]),
    ];
    for (const [where, text] of places) expect(text.includes(SENTINEL), where).toBe(false);
    // The secrets file is the one place the key lives, readable by its owner only.
    expect(statSync(join(dir, 'secrets.json')).mode & 0o777).toBe(0o600);
    console.log(`secrets: sentinel absent from ${places.length} places (steps, bodies, settings, logs, views, JSON+Markdown export, ${places.length - 8} files; the key only in the 0600 secrets.json)`);
  });
});
