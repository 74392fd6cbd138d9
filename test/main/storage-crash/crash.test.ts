import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { MIGRATIONS } from '../../../src/main/db/migrations';
import { openDatabase } from '../../../src/main/db/open-database';
import { createServices } from '../../../src/main/services';
import { turnText } from '../../../src/shared/turn';
import { tempDir } from '../db/helpers';
import { ollamaChatStream, TAGS_BODY } from '../../replay-server/ollama-wire';
import { startReplayServer } from '../../replay-server/replay-server';

const ROOT = join(__dirname, '../../..');
const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

/** Runs a child under tsx, calls `until` on each stdout line, and SIGKILLs it once `until` says so. */
function runAndKill(script: string, dataDir: string, until: (line: string) => boolean): Promise<{ signal: NodeJS.Signals | null; lines: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, script), dataDir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: string[] = [];
    let stderr = '';
    let buffered = '';
    let killed = false;
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      buffered += d.toString();
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      for (const line of parts) {
        if (killed) continue;
        lines.push(line);
        if (until(line)) {
          killed = true;
          child.kill('SIGKILL');
        }
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => (killed ? resolve({ signal, lines }) : reject(new Error(`child exited (${code}) before it was killed: ${stderr}`))));
  });
}

describe('crash safety', () => {
  it('SIGKILL mid-stream: reopening shows the partial answer as interrupted, integrity ok', async () => {
    const { dir, cleanup } = tempDir('firebrand-crash-');
    cleanups.push(cleanup);
    const { signal, lines } = await runAndKill('writer-child.ts', dir, (line) => line.startsWith('flushed') && Number(line.split(' ')[1]) > 2000);
    expect(signal).toBe('SIGKILL');
    const committed = Math.max(...lines.filter((l) => l.startsWith('flushed')).map((l) => Number(l.split(' ')[1])));

    const logs: string[] = [];
    const services = createServices({ dataDir: dir, log: (m) => logs.push(m) });
    try {
      expect(services.db.pragma('integrity_check', { simple: true })).toBe('ok');
      const answer = new ConversationStore(services.db).getTurn('a')!;
      expect(answer.status).toBe('interrupted');
      const partial = turnText(answer);
      expect(partial.length).toBeGreaterThanOrEqual(committed);
      expect(partial.startsWith('tok0 tok1 tok2 ')).toBe(true);
      expect(logs.join('\n')).toMatch(/1 answer\(s\) were streaming/);
    } finally {
      services.close();
    }
  });

  it('SIGKILL while a tool runs: the call reloads answered as having no result, not waiting for good, and the chat goes on', async () => {
    const { dir, cleanup } = tempDir('firebrand-crash-');
    cleanups.push(cleanup);
    const { signal, lines } = await runAndKill('tool-child.ts', dir, (line) => line.startsWith('conversation '));
    expect(signal).toBe('SIGKILL');
    const conversationId = lines.find((l) => l.startsWith('conversation '))!.slice('conversation '.length);

    const replay = await startReplayServer([
      { path: '/api/tags', body: TAGS_BODY },
      { method: 'POST', path: '/api/show', body: '{"capabilities":["completion","tools"],"template":"{{ .Prompt }}"}' },
      { method: 'POST', path: '/api/chat', body: ollamaChatStream(['It was sunny.'], 'm'), chunk: 'lines', headers: { 'content-type': 'application/x-ndjson' } },
    ]);
    cleanups.push(() => void replay.close());
    const services = createServices({ dataDir: dir, ollamaUrl: replay.url, log: () => {}, chat: { titles: false } });
    try {
      const turns = (await services.handlers['conversations:open']({ conversationId })).turns;
      expect(turns.map((t) => t.role)).toEqual(['user', 'assistant', 'tool']);
      const call = turns[1]!.blocks.find((b) => b.type === 'tool_call')!;
      expect(turns[2]!.blocks).toEqual([
        expect.objectContaining({ type: 'tool_result', toolCallId: call.type === 'tool_call' ? call.id : '', isError: true, stopped: true, content: expect.stringMatching(/closed while this step’s tools were running/) }),
      ]);
      const next = await services.handlers['chat:send']({ conversationId, text: 'And now?', model: 'm' });
      await expect.poll(() => services.chat.activeCount).toBe(0);
      const after = (await services.handlers['conversations:open']({ conversationId })).turns;
      expect(after.find((t) => t.id === next.assistantTurn.id)).toMatchObject({ status: 'done', blocks: [{ type: 'text', text: 'It was sunny.' }] });
    } finally {
      services.close();
    }
  });

  it('SIGKILL during a slow migration leaves the database at the old version, integrity ok', async () => {
    const { dir, cleanup } = tempDir('firebrand-crash-');
    cleanups.push(cleanup);
    const file = join(dir, 'firebrand.db');
    const before = openDatabase(file);
    new ConversationStore(before).createConversation('keep', 'Kept', null, 1);
    before.exec("INSERT INTO turns (id, conversation_id, role, blocks, text, status, created_at) VALUES ('t', 'keep', 'user', '[]', 'original', 'done', 1)");
    before.close();

    const { signal } = await runAndKill('migrate-child.ts', dir, (line) => line === 'migrating');
    expect(signal).toBe('SIGKILL');

    const db = openDatabase(file);
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
      expect(db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name = 'synthetic'").get()).toEqual({ n: 0 });
      expect(db.prepare("SELECT text FROM turns WHERE id = 't'").get()).toEqual({ text: 'original' });
    } finally {
      db.close();
    }
  });
});
