/**
 * Resilience audit R4: a second Firebrand started on a data folder another one is using (the app opened twice,
 * serve mode started again) ran on the same database, and its start settled the first one's live answer as
 * "interrupted". It is refused now, with a sentence saying why, until the first one is gone however it ended.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { createServices } from '../../../src/main/services';
import { tempDir } from '../db/helpers';

const ROOT = join(__dirname, '../../..');
const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

const REFUSED = /^Another Firebrand is already using the data folder .+: use the one already running, or stop it first, or start this one on another data folder \(--data-dir in serve mode\)\.$/;

/** A Firebrand in its own process on `dataDir`, once it holds the folder. */
function startHolder(dataDir: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'holder-child.ts'), dataDir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    cleanups.push(() => child.kill('SIGKILL'));
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve(child));
    child.on('exit', (code) => reject(new Error(`holder exited (${code}): ${stderr}`)));
  });
}

describe('one Firebrand per data folder', () => {
  it('refuses a second one while another process uses the folder, leaving its live answer alone; opens once that one is killed', async () => {
    const { dir, cleanup } = tempDir('firebrand-lock-');
    cleanups.push(cleanup);
    const holder = await startHolder(dir);
    expect(() => createServices({ dataDir: dir, log: () => {} })).toThrow(REFUSED);

    // Killed (no chance to let go of anything): the folder opens, and the answer it left reloads as interrupted.
    const gone = new Promise((r) => holder.once('exit', r));
    holder.kill('SIGKILL');
    await gone;
    const services = createServices({ dataDir: dir, log: () => {} });
    try {
      expect(new ConversationStore(services.db).getTurn('a')?.status).toBe('interrupted');
    } finally {
      services.close();
    }
  });

  it('says which folder it cannot write in, rather than "unable to open database file"', () => {
    const { dir, cleanup } = tempDir('firebrand-lock-');
    cleanups.push(cleanup);
    // A folder where the lock file should be: SQLite cannot open it, as in a read-only data folder.
    mkdirSync(join(dir, 'firebrand.db-lock'));
    expect(() => createServices({ dataDir: dir, log: () => {} })).toThrow(
      new RegExp(`^Firebrand cannot open ${dir}/firebrand\\.db-lock for writing \\(unable to open database file\\): its data folder ${dir} may be read-only`),
    );
  });

  it('refuses a second one in the same process, and opens again after the first is closed', () => {
    const { dir, cleanup } = tempDir('firebrand-lock-');
    cleanups.push(cleanup);
    const first = createServices({ dataDir: dir, log: () => {} });
    const store = new ConversationStore(first.db);
    store.createConversation('c', 'Live', 'm', 1);
    store.appendTurn({ id: 'a', conversationId: 'c', parentId: null, role: 'assistant', blocks: [], meta: {}, status: 'streaming', model: 'm', createdAt: 1 }, 1);
    try {
      expect(() => createServices({ dataDir: dir, log: () => {} })).toThrow(REFUSED);
      expect(store.getTurn('a')?.status).toBe('streaming');
    } finally {
      first.close();
    }
    const again = createServices({ dataDir: dir, log: () => {} });
    again.close();
  });
});
