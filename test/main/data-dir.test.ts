/**
 * Issue 15 item 18: the data folder was world-readable (0755 folders, 0644 files). New folders are made private,
 * and a folder an earlier version left readable is made private on start, its data untouched.
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServices } from '../../src/main/services';
import { PNG } from './blobs/fixtures';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'firebrand-perms-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const mode = (path: string) => statSync(path).mode & 0o777;

/** Every folder and file under `dir`, with its mode. */
function modes(dir: string): Record<string, number> {
  const out: Record<string, number> = { '.': mode(dir) };
  const walk = (d: string, rel: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, e.name);
      out[`${rel}${e.name}`] = mode(path);
      if (e.isDirectory()) walk(path, `${rel}${e.name}/`);
    }
  };
  walk(dir, '');
  return out;
}

async function useOnce(dataDir: string): Promise<string> {
  const services = createServices({ dataDir, log: () => {} });
  try {
    await services.handlers['attachments:add']({ name: 'chart.png', mime: 'image/png', dataBase64: Buffer.from(PNG).toString('base64') });
    await services.handlers['connections:save']({ kind: 'openai-compatible', label: 'box', baseUrl: 'http://127.0.0.1:9', apiKey: 'sk-test' });
    const sent = services.db.prepare("INSERT INTO conversations (id, title, model, active_leaf_id, created_at, updated_at) VALUES ('c', 'Kept', NULL, NULL, 1, 1)").run();
    expect(sent.changes).toBe(1);
    return 'c';
  } finally {
    services.close();
  }
}

describe.skipIf(process.platform === 'win32')('the data folder', () => {
  it('is created private: folders 0700, files 0600', async () => {
    const dataDir = join(root, 'new');
    await useOnce(dataDir);
    const all = modes(dataDir);
    expect(Object.keys(all)).toEqual(expect.arrayContaining(['firebrand.db', 'secrets.json', 'blobs']));
    for (const [path, m] of Object.entries(all)) {
      const isDir = statSync(join(dataDir, path)).isDirectory();
      expect([path, m.toString(8)]).toEqual([path, (isDir ? 0o700 : 0o600).toString(8)]);
    }
  });

  it('an existing readable folder is made private on start, and its data is all there', async () => {
    const dataDir = join(root, 'old');
    await useOnce(dataDir);
    // What an earlier version left: everything readable by everyone.
    for (const path of Object.keys(modes(dataDir))) {
      const full = join(dataDir, path);
      chmodSync(full, statSync(full).isDirectory() ? 0o755 : 0o644);
    }
    const services = createServices({ dataDir, log: () => {} });
    try {
      expect(services.db.prepare("SELECT title FROM conversations WHERE id = 'c'").get()).toEqual({ title: 'Kept' });
      expect((await services.handlers['connections:list']({})).some((c) => c.hasApiKey)).toBe(true);
    } finally {
      services.close();
    }
    const after = modes(dataDir);
    expect(after['.']?.toString(8)).toBe('700');
    for (const path of ['blobs', ...Object.keys(after).filter((p) => /^blobs\/[0-9a-f]{2}(\/[0-9a-f]{2})?$/.test(p))]) expect(after[path]?.toString(8), path).toBe('700');
    for (const path of ['firebrand.db', 'firebrand.db-wal', 'secrets.json']) if (after[path] !== undefined) expect(after[path]?.toString(8), path).toBe('600');
  });
});
